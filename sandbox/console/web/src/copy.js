// @ts-check
// A Copy button that says what it did where the eye is: beside it, "✓ Copied" for a moment, or,
// where the browser refuses the clipboard, the text is selected and it says to press Ctrl+C. The
// words go in a status region (read out by assistive technology) rather than on the button, so
// the button's visible word stays part of its accessible name ("Copy the …"), as axe asks.
import { h } from "./dom.js";

/** How long the words beside the button stay. */
const FEEDBACK_MS = 2500;

/**
 * @param {{ text: () => string, selectable: HTMLElement, what: string, label?: string }} spec the
 *   text to copy, the element holding it (selected when the clipboard is refused), what it is in
 *   words ("ethereum deposit address"), and the button's label for assistive technology
 */
export function copyButton(spec) {
  const feedback = h("span", { class: "copy-feedback", role: "status" });
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
  /** @param {string} words @param {"copied" | "selected"} outcome */
  const say = (words, outcome) => {
    feedback.textContent = words;
    feedback.dataset["outcome"] = outcome;
    window.clearTimeout(reset);
    reset = window.setTimeout(() => {
      feedback.textContent = "";
      delete feedback.dataset["outcome"];
    }, FEEDBACK_MS);
  };
  button.addEventListener("click", async () => {
    try {
      await navigator.clipboard.writeText(spec.text());
      say("✓ Copied", "copied");
    } catch {
      const range = document.createRange();
      range.selectNodeContents(spec.selectable);
      window.getSelection()?.removeAllRanges();
      window.getSelection()?.addRange(range);
      say("Selected: press Ctrl+C", "selected");
    }
  });
  return h("span", { class: "copy-control" }, button, feedback);
}
