// @ts-check
// What every sandbox control's form shares: labelled fields, and a submission that shows the
// requests it sent and their answers below the form (the page teaches the admin API).
import { h } from "../../dom.js";
import { requestLog, runLogged } from "../../requestLog.js";

/** @typedef {(answer: Promise<import("../../api.js").Answer>) => Promise<import("../../api.js").Answer>} Call */

/**
 * A labelled control.
 * @param {string} id
 * @param {string} label
 * @param {HTMLElement} control
 * @param {string} [hint]
 */
export function field(id, label, control, hint) {
  control.id = id;
  if (hint) control.setAttribute("aria-describedby", `${id}-hint`);
  return h(
    "div",
    { class: "field" },
    h("label", { for: id }, label),
    control,
    hint ? h("p", { id: `${id}-hint`, class: "hint" }, hint) : null,
  );
}

/**
 * A form whose submission runs `run` and shows its requests in a log below it; the fields a
 * refusal names are marked at their controls (`data-api-field`).
 * @param {string} submitLabel
 * @param {HTMLElement[]} fields
 * @param {(form: HTMLFormElement, call: Call) => Promise<string>} run
 * @param {() => void} after
 * @param {string} [id] the form's id, which its fields' error messages start with
 */
export function actionForm(submitLabel, fields, run, after, id) {
  const log = requestLog(`${submitLabel}: result`);
  const submit = h("button", { type: "submit", class: "button primary" }, submitLabel);
  const form = h(
    "form",
    { class: "form-grid", id: id ?? null },
    fields,
    h("div", { class: "form-actions span-all" }, submit),
    h("div", { class: "span-all" }, log.element),
  );
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    submit.disabled = true;
    await runLogged(log, (call) => run(form, call), { form });
    submit.disabled = false;
    after();
  });
  return form;
}
