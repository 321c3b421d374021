// @ts-check
// A confirmation before an action that cannot be taken back (a rejection, disabling a webhook, a
// withdrawal): a modal <dialog>, which keeps focus inside it, closes on Escape and gives focus
// back to the button that opened it. Where the API takes a reason, the dialog asks for it.
import { h } from "./dom.js";

/**
 * @typedef {object} ConfirmSpec
 * @property {string} title
 * @property {import("./dom.js").Children} message what the action does, in figures
 * @property {string} confirmLabel the confirming button's words ("Reject", "Disable")
 * @property {boolean} [danger]
 * @property {{ label: string, value: string, hint?: string }} [reason] a reason to send with it
 */

/**
 * Asks; resolves with the reason given (or "" without a reason field) when confirmed, null when not.
 * @param {ConfirmSpec} spec
 * @returns {Promise<string | null>}
 */
export function confirmAction(spec) {
  const reason = spec.reason
    ? h("textarea", {
        id: "confirm-reason",
        name: "reason",
        rows: 2,
        maxlength: 500,
        required: true,
        "aria-describedby": spec.reason.hint ? "confirm-reason-hint" : null,
      })
    : null;
  if (reason !== null && spec.reason) reason.value = spec.reason.value;
  const cancel = h("button", { type: "button", class: "button", value: "cancel" }, "Cancel");
  const confirm = h(
    "button",
    { type: "submit", class: spec.danger ? "button danger-solid" : "button primary", value: "confirm" },
    spec.confirmLabel,
  );
  const form = h(
    "form",
    { method: "dialog", class: "stack" },
    h("h2", { id: "confirm-title" }, spec.title),
    h("div", { id: "confirm-message" }, spec.message),
    reason !== null && spec.reason
      ? h(
          "div",
          { class: "field" },
          h("label", { for: "confirm-reason" }, spec.reason.label),
          reason,
          spec.reason.hint ? h("p", { id: "confirm-reason-hint", class: "hint" }, spec.reason.hint) : null,
        )
      : null,
    h("div", { class: "form-actions" }, confirm, cancel),
  );
  const dialog = h(
    "dialog",
    { class: "confirm-dialog", "aria-labelledby": "confirm-title", "aria-describedby": "confirm-message" },
    form,
  );
  document.body.append(dialog);
  return new Promise((resolve) => {
    let confirmed = false;
    cancel.addEventListener("click", () => dialog.close());
    form.addEventListener("submit", () => (confirmed = true));
    dialog.addEventListener("close", () => {
      dialog.remove();
      resolve(confirmed ? (reason?.value.trim() ?? "") : null);
    });
    dialog.showModal();
    (reason ?? cancel).focus();
  });
}
