// @ts-check
// A Copy button whose outcome shows beside it, where the eyes are ("Copied", or "Selected: press
// Control+C" where the clipboard is refused), and is read out by screen readers (role="status").
import { h } from "./dom.js";

/** How long the outcome stays beside the button. */
const FEEDBACK_MS = 4000;

/**
 * @param {() => string} text what to copy, read when clicked
 * @param {HTMLElement} source the element showing the text, selected when the clipboard is refused
 * @param {{ label: string, name: string }} words the button's words and its accessible name
 */
export function copyButton(text, source, words) {
  const feedback = h("span", { class: "copy-feedback", role: "status" });
  /** @type {number | undefined} */
  let clearing;
  const button = h(
    "button",
    {
      type: "button",
      class: "button small",
      "aria-label": words.name,
      onClick: async () => {
        try {
          await navigator.clipboard.writeText(text());
          feedback.textContent = "✓ Copied";
          feedback.dataset["outcome"] = "copied";
        } catch {
          // The clipboard needs a secure context and the page's focus: where it is refused,
          // selecting the text leaves one key press to the user.
          const range = document.createRange();
          range.selectNodeContents(source);
          window.getSelection()?.removeAllRanges();
          window.getSelection()?.addRange(range);
          feedback.textContent = "Selected: press Control+C to copy";
          feedback.dataset["outcome"] = "selected";
        }
        window.clearTimeout(clearing);
        clearing = window.setTimeout(() => {
          feedback.textContent = "";
          delete feedback.dataset["outcome"];
        }, FEEDBACK_MS);
      },
    },
    words.label,
  );
  return h("span", { class: "copy-control" }, button, feedback);
}
