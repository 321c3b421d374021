// @ts-check
// What the console does to one registration besides enabling and disabling it: send it a test
// event, edit its URL, event types and description (console operations: the service shows none,
// docs/spec-gaps.md), and delete it (DELETE /webhooks/registrations/{id}). Each opens a modal
// <dialog>: Escape cancels, and a refusal shows at its field inside the dialog, which stays open.
import { request } from "../api.js";
import { confirmAction } from "../confirm.js";
import { h } from "../dom.js";
import { consolePaths, servicePaths } from "../paths.js";
import { requestLog, runLogged } from "../requestLog.js";
import { checkedEventTypes, eventTypeChoices } from "./webhookCreate.js";

/** @typedef {import("../payloads.js").WebhookRegistration} WebhookRegistration */
/** @typedef {ReturnType<typeof requestLog>} RequestLog */

/**
 * A modal form: `send` runs on submit with the dialog's own log; the dialog closes when it succeeds.
 * @param {{ id: string, title: string, fields: import("../dom.js").Children, confirmLabel: string,
 *   send: (form: HTMLFormElement, log: RequestLog) => Promise<boolean> }} spec
 * @returns {Promise<boolean>} whether it was sent and succeeded
 */
function formDialog(spec) {
  const log = requestLog(`${spec.title}: result`);
  const confirm = h("button", { type: "submit", class: "button primary" }, spec.confirmLabel);
  const cancel = h("button", { type: "button", class: "button" }, "Cancel");
  const titleId = `${spec.id}-title`;
  const form = h(
    "form",
    { class: "stack", id: spec.id },
    h("h2", { id: titleId }, spec.title),
    spec.fields,
    h("div", { class: "form-actions" }, confirm, cancel),
    log.element,
  );
  const dialog = h("dialog", { class: "confirm-dialog form-dialog", "aria-labelledby": titleId }, form);
  document.body.append(dialog);
  return new Promise((resolve) => {
    let succeeded = false;
    cancel.addEventListener("click", () => dialog.close());
    form.addEventListener("submit", async (event) => {
      event.preventDefault();
      if (confirm.disabled) return;
      confirm.disabled = true;
      succeeded = await spec.send(form, log);
      confirm.disabled = false;
      if (succeeded) dialog.close();
    });
    dialog.addEventListener("close", () => {
      dialog.remove();
      resolve(succeeded);
    });
    dialog.showModal();
    /** @type {HTMLElement | null} */ (form.querySelector("input, select"))?.focus();
  });
}

/**
 * @param {RequestLog} pageLog where the outcome shows on the page
 * @param {() => void} after reads the page again
 */
export function registrationActions(pageLog, after) {
  /** @param {WebhookRegistration} registration */
  async function sendTestEvent(registration) {
    const select = h(
      "select",
      { id: "test-event-type", name: "eventType", "data-api-field": "eventType" },
      registration.eventTypes.map((type) => h("option", { value: type }, type)),
    );
    let said = "";
    const sent = await formDialog({
      id: "test-event-form",
      title: "Send a test event",
      confirmLabel: "Send test event",
      fields: [
        h(
          "p",
          {},
          "An event of this type goes to ",
          h("code", { class: "mono break" }, registration.url),
          ' only, signed with its secret as every event, with made-up ids and "test": true in its body.',
        ),
        h("div", { class: "field" }, h("label", { for: "test-event-type" }, "Event type"), select),
      ],
      send: (form, log) =>
        runLogged(
          log,
          async (call) => {
            const { body } = await call(
              request("POST", consolePaths.webhookTestEvents(registration.id), {
                body: { eventType: select.value },
              }),
            );
            said = `Test ${String(body?.eventType ?? select.value)} event queued for ${registration.url}: it shows in Recent deliveries.`;
            return said;
          },
          { form },
        ),
    });
    if (sent) pageLog.show({ ok: true, message: said, exchanges: [] });
    after();
  }

  /**
   * @param {WebhookRegistration} registration
   * @param {string[]} eventTypes every type a registration may list
   */
  async function edit(registration, eventTypes) {
    const url = h("input", {
      id: "edit-webhook-url",
      name: "url",
      type: "text",
      inputmode: "url",
      spellcheck: "false",
      autocomplete: "off",
      required: true,
      "data-api-field": "url",
    });
    url.value = registration.url;
    const description = h("input", {
      id: "edit-webhook-description",
      name: "description",
      type: "text",
      maxlength: 500,
      autocomplete: "off",
      "data-api-field": "description",
    });
    description.value = registration.description ?? "";
    const saved = await formDialog({
      id: "edit-webhook-form",
      title: "Edit this webhook",
      confirmLabel: "Save changes",
      fields: [
        h("div", { class: "field" }, h("label", { for: "edit-webhook-url" }, "URL"), url),
        h(
          "fieldset",
          { class: "event-types", "data-field-error-slot": "eventTypes" },
          eventTypeChoices(eventTypes, (type) => registration.eventTypes.includes(type)),
        ),
        h(
          "div",
          { class: "field" },
          h(
            "label",
            { for: "edit-webhook-description" },
            "Description ",
            h("span", { class: "muted" }, "(optional)"),
          ),
          description,
        ),
        h(
          "p",
          { class: "hint" },
          "Its signing secret stays the same. Deliveries already queued go to the new URL.",
        ),
      ],
      send: (form, log) =>
        runLogged(
          log,
          async (call) => {
            const text = description.value.trim();
            await call(
              request("PATCH", consolePaths.webhookRegistration(registration.id), {
                body: {
                  url: url.value.trim(),
                  eventTypes: checkedEventTypes(form),
                  description: text === "" ? null : text,
                },
              }),
            );
            return "Saved.";
          },
          { form },
        ),
    });
    if (saved)
      pageLog.show({ ok: true, message: `Saved the changes to ${url.value.trim()}.`, exchanges: [] });
    after();
  }

  /** @param {WebhookRegistration} registration */
  async function remove(registration) {
    const confirmed = await confirmAction({
      title: "Delete this webhook?",
      message: h(
        "p",
        {},
        h("code", { class: "mono break" }, registration.url),
        " receives no more events, deliveries waiting for a retry are cancelled, and its secret is forgotten. This cannot be undone: registering the URL again makes a new secret.",
      ),
      confirmLabel: "Delete",
      danger: true,
    });
    if (confirmed === null) return;
    await runLogged(pageLog, async (call) => {
      await call(request("DELETE", servicePaths.webhookRegistration(registration.id)));
      return `Deleted the registration of ${registration.url}.`;
    });
    after();
  }

  return { sendTestEvent, edit, remove };
}
