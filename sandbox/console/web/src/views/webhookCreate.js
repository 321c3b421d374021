// @ts-check
// Registering a webhook: URL, event types and a description (POST /webhooks/registrations). The
// URL policy's refusals (a private address, a scheme other than http(s)) show at the URL field.
// The event types come from the contract through the console API's session, not a copy here.
import { request } from "../api.js";
import { fieldValue, h } from "../dom.js";
import { requestLog, runLogged } from "../requestLog.js";

/**
 * @param {() => void} after reads the page again
 */
export function webhookCreateForm(after) {
  const log = requestLog("Registration result");
  const types = h("fieldset", { class: "event-types", "data-field-error-slot": "eventTypes" });
  const submit = h("button", { type: "submit", class: "button primary" }, "Register webhook");
  const form = h(
    "form",
    { class: "form-grid", id: "webhook-form" },
    h(
      "div",
      { class: "field span-all" },
      h("label", { for: "webhook-url" }, "URL"),
      h("input", {
        id: "webhook-url",
        name: "url",
        type: "text",
        inputmode: "url",
        spellcheck: "false",
        autocomplete: "off",
        required: true,
        placeholder: "https://example.com/hooks",
        "aria-describedby": "webhook-url-hint",
        "data-api-field": "url",
      }),
      h(
        "p",
        { id: "webhook-url-hint", class: "hint" },
        "Where the sandbox POSTs each event, signed. Private-network addresses only when the sandbox allows them (--allow-private-webhook-urls).",
      ),
    ),
    h("div", { class: "span-all" }, types),
    h(
      "div",
      { class: "field span-all" },
      h("label", { for: "webhook-description" }, "Description ", h("span", { class: "muted" }, "(optional)")),
      h("input", {
        id: "webhook-description",
        name: "description",
        type: "text",
        maxlength: 500,
        autocomplete: "off",
        "data-api-field": "description",
      }),
    ),
    h("div", { class: "form-actions span-all" }, submit),
    h("div", { class: "span-all" }, log.element),
  );

  /** @param {string[]} eventTypes */
  function offer(eventTypes) {
    types.replaceChildren(
      h("legend", {}, "Event types"),
      ...eventTypes.map((type, index) =>
        h(
          "label",
          { class: "check" },
          h("input", {
            type: "checkbox",
            name: "eventTypes",
            value: type,
            checked: index === 0,
            "data-api-field": "eventTypes",
          }),
          " ",
          h("code", {}, type),
        ),
      ),
    );
  }

  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    submit.disabled = true;
    const eventTypes = [...form.querySelectorAll('input[name="eventTypes"]:checked')].map(
      (box) => /** @type {HTMLInputElement} */ (box).value,
    );
    const description = fieldValue(form, "description");
    const ok = await runLogged(
      log,
      async (call) => {
        const { body } = await call(
          request("POST", "/webhooks/registrations", {
            body: {
              url: fieldValue(form, "url"),
              eventTypes,
              ...(description === "" ? {} : { description }),
            },
          }),
        );
        return `Registered ${String(body?.url ?? "")}. Its signing secret is in the answer below, shown this once: keep it to verify signatures.`;
      },
      { form },
    );
    submit.disabled = false;
    if (ok) after();
  });

  return {
    form,
    offer,
  };
}
