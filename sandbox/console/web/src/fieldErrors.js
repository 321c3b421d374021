// @ts-check
// A refusal's fields shown at the controls that hold them. A control names the request field it
// fills with `data-api-field` ("destinationAddress"; "positions" on every weight of a target
// allocation); when the sandbox refuses that field, the control gets `aria-invalid` and the
// sandbox's reason right after it, tied to it by `aria-describedby`. Editing the control clears
// both: a message about a value that is no longer there only misleads.
import { h } from "./dom.js";
import { moneyInText } from "./format.js";

/**
 * The `{ field, reason }` details of a refusal body (the sandbox's `{ error: { details } }`).
 * @param {unknown} body
 * @returns {{ field: string, reason: string }[]}
 */
export function refusalDetails(body) {
  const details = /** @type {any} */ (body)?.error?.details;
  if (!Array.isArray(details)) return [];
  return details
    .filter((detail) => typeof detail?.field === "string" && typeof detail?.reason === "string")
    .map((detail) => ({ field: String(detail.field), reason: String(detail.reason) }));
}

/** "eventTypes[0]" and "positions.1.targetWeightBps" belong to the controls of "eventTypes" and "positions". */
const baseField = (/** @type {string} */ field) => field.split(/[.[]/)[0] ?? field;

/**
 * @param {HTMLFormElement} form
 * @param {string} field
 */
const controlsOf = (form, field) =>
  /** @type {HTMLElement[]} */ ([...form.querySelectorAll("[data-api-field]")]).filter(
    (control) => control.dataset["apiField"] === field,
  );

/**
 * Marks the controls the refusal names; answers how many fields it could place.
 * @param {HTMLFormElement} form
 * @param {{ field: string, reason: string }[]} details
 */
export function showFieldErrors(form, details) {
  clearFieldErrors(form);
  /** @type {Map<string, string[]>} */
  const reasons = new Map();
  for (const detail of details) {
    const field = baseField(detail.field);
    if (controlsOf(form, field).length === 0) continue;
    reasons.set(field, [...(reasons.get(field) ?? []), moneyInText(detail.reason)]);
  }
  for (const [field, texts] of reasons) {
    const controls = controlsOf(form, field);
    const id = `${form.id || "form"}-${field}-error`;
    const message = h("p", { id, class: "field-error", "data-error-for": field }, texts.join("; "));
    const slot = form.querySelector(`[data-field-error-slot="${field}"]`);
    if (slot !== null) slot.append(message);
    else (controls[0]?.closest(".field") ?? controls[0]?.parentElement)?.append(message);
    for (const control of controls) {
      control.setAttribute("aria-invalid", "true");
      const described = control.getAttribute("aria-describedby");
      control.dataset["describedByBefore"] = described ?? "";
      control.setAttribute("aria-describedby", described ? `${id} ${described}` : id);
    }
  }
  return reasons.size;
}

/**
 * Clears the marks of one field (the control just edited), or of every field.
 * @param {HTMLFormElement} form
 * @param {string} [field]
 */
export function clearFieldErrors(form, field) {
  for (const message of form.querySelectorAll(".field-error"))
    if (field === undefined || /** @type {HTMLElement} */ (message).dataset["errorFor"] === field)
      message.remove();
  for (const control of /** @type {HTMLElement[]} */ ([...form.querySelectorAll("[aria-invalid]")])) {
    if (field !== undefined && control.dataset["apiField"] !== field) continue;
    control.removeAttribute("aria-invalid");
    const before = control.dataset["describedByBefore"] ?? "";
    if (before === "") control.removeAttribute("aria-describedby");
    else control.setAttribute("aria-describedby", before);
    delete control.dataset["describedByBefore"];
  }
}

/**
 * What the user calls a control: its `data-field-name` (a group's, such as the weights'), else its
 * label's text, else the API's name for it.
 * @param {HTMLFormElement} form
 * @param {HTMLElement} control
 */
function nameOf(form, control) {
  const named = control.dataset["fieldName"];
  if (named !== undefined) return named;
  const label = control.id === "" ? null : form.querySelector(`label[for="${CSS.escape(control.id)}"]`);
  return label?.textContent?.trim() || (control.dataset["apiField"] ?? "");
}

/**
 * A refusal's fields in the form's own words ("Rate (bps): must be at most 100000 bps"), when the
 * form holds every field it names; null otherwise (the sandbox's message then says it best).
 * @param {HTMLFormElement} form
 * @param {{ field: string, reason: string }[]} details
 */
export function refusalInFormWords(form, details) {
  if (details.length === 0) return null;
  /** @type {string[]} */
  const parts = [];
  for (const detail of details) {
    const control = controlsOf(form, baseField(detail.field))[0];
    if (control === undefined) return null;
    parts.push(`${nameOf(form, control)}: ${moneyInText(detail.reason)}`);
  }
  return parts.join("; ");
}

/** Whether any control of the form is still marked invalid. */
export const hasFieldErrors = (/** @type {HTMLFormElement} */ form) =>
  form.querySelector("[aria-invalid]") !== null;
