// @ts-check
// A Copy button that says what it did where the eye is: its own words turn "Copied" for a
// moment (and assistive technology hears the same), or, where the browser refuses the clipboard,
// the text is selected and the button says to press Ctrl+C.
import { announce, h } from "./dom.js";

/** How long the button keeps saying what it did. */
const FEEDBACK_MS = 2000;

/**
 * @param {{ text: () => string, selectable: HTMLElement, what: string, label?: string }} spec the
 *   text to copy, the element holding it (selected when the clipboard is refused), what it is in
 *   words ("ethereum deposit address"), and the button's label for assistive technology
 */
export function copyButton(spec) {
  const button = h(
    "button",
    {
      type: "button",
      class: "button small copy-button",
      "aria-label": spec.label ?? `Copy the ${spec.what}`,
    },
    "Copy",
  );
  /** @type {number | undefined} */
  let reset;
  /** @param {string} words @param {"copied" | "selected"} state */
  const say = (words, state) => {
    button.textContent = words;
    button.dataset["copied"] = state;
    window.clearTimeout(reset);
    reset = window.setTimeout(() => {
      button.textContent = "Copy";
      delete button.dataset["copied"];
    }, FEEDBACK_MS);
  };
  button.addEventListener("click", async () => {
    try {
      await navigator.clipboard.writeText(spec.text());
      say("Copied", "copied");
      announce(`Copied the ${spec.what}`);
    } catch {
      const range = document.createRange();
      range.selectNodeContents(spec.selectable);
      window.getSelection()?.removeAllRanges();
      window.getSelection()?.addRange(range);
      say("Ctrl+C", "selected");
      announce(`Selected the ${spec.what}: press Control+C to copy it`);
    }
  });
  return button;
}
