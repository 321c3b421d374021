// @ts-check
// Registering a webhook: URL, event types and a description (POST /webhooks/registrations). The
// URL policy's refusals (a private address, a scheme other than http(s)) show at the URL field.
// The event types come from the contract through the console API's session, not a copy here.
// A registration is made once per filled form: the button is off while the request is out, the
// form is cleared once it is made, and registering what an active registration already receives
// (the same URL and event types, so every event twice) is asked about first.
import { request } from "../api.js";
import { confirmAction } from "../confirm.js";
import { copyButton } from "../copy.js";
import { fieldValue, h } from "../dom.js";
import { when } from "../format.js";
import { servicePaths } from "../paths.js";
import { requestLog, runLogged } from "../requestLog.js";

/** @typedef {import("../payloads.js").WebhookRegistration} WebhookRegistration */

/**
 * Checkboxes of the event types, as a fieldset whose refusals show on it.
 * @param {string[]} eventTypes every type a registration may list
 * @param {(type: string, index: number) => boolean} checked which start checked
 */
export function eventTypeChoices(eventTypes, checked) {
  return [
    h("legend", {}, "Event types"),
    ...eventTypes.map((type, index) =>
      h(
        "label",
        { class: "check" },
        h("input", {
          type: "checkbox",
          name: "eventTypes",
          value: type,
          checked: checked(type, index),
          "data-api-field": "eventTypes",
        }),
        " ",
        h("code", {}, type),
      ),
    ),
  ];
}

/**
 * The event types checked in a form.
 * @param {HTMLFormElement} form
 */
export function checkedEventTypes(form) {
  return [...form.querySelectorAll('input[name="eventTypes"]:checked')].map(
    (box) => /** @type {HTMLInputElement} */ (box).value,
  );
}

/** @param {string[]} types */
const typeSet = (types) => JSON.stringify([...types].sort());

/**
 * The organization's active registration that already sends these event types to this URL, if any.
 * An organization holds at most 100 registrations (docs/webhooks.md), one page of the list.
 * @param {string} url
 * @param {string[]} eventTypes
 * @returns {Promise<WebhookRegistration | null>}
 */
async function activeTwin(url, eventTypes) {
  const { body } = await request("GET", servicePaths.webhookRegistrations({ pageSize: 100 }));
  /** @type {WebhookRegistration[]} */
  const items = Array.isArray(body?.data) ? body.data : [];
  return (
    items.find(
      (item) =>
        item.status === "active" && item.url === url && typeSet(item.eventTypes) === typeSet(eventTypes),
    ) ?? null
  );
}

/**
 * The signing secret of a registration just made, in a box of its own, with a Copy button: the
 * sandbox answers it this once, so the box stays until the user says it is kept.
 * @param {string} url
 * @param {string} secret
 */
function secretBox(url, secret) {
  const value = h("code", { id: "webhook-secret", class: "mono secret-value" }, secret);
  const box = h(
    "section",
    {
      class: "secret-box",
      "aria-labelledby": "webhook-secret-heading",
      tabindex: -1,
      "data-secret-box": true,
    },
    h("h3", { id: "webhook-secret-heading" }, "Signing secret: shown once"),
    h(
      "p",
      {},
      "Copy it now and keep it where your receiver can read it: it verifies the ",
      h("code", {}, "x-portfolio-signature"),
      " header of every event sent to ",
      h("code", { class: "mono break" }, url),
      ". The sandbox never shows it again; if it is lost, register the URL again and delete this registration.",
    ),
    h(
      "div",
      { class: "secret-row" },
      value,
      copyButton({ text: () => secret, selectable: value, what: "signing secret" }),
    ),
  );
  const done = h(
    "button",
    { type: "button", class: "button", onClick: () => box.remove() },
    "I have kept it: hide the secret",
  );
  box.append(h("div", { class: "form-actions" }, done));
  return box;
}

/**
 * @param {() => void} after reads the page again
 */
export function webhookCreateForm(after) {
  const log = requestLog("Registration result");
  const types = h("fieldset", { class: "event-types", "data-field-error-slot": "eventTypes" });
  const submit = h("button", { type: "submit", class: "button primary" }, "Register webhook");
  /**
   * Where the secret of the registration just made shows: at the top of the page, above the
   * registrations, so the new registration's row appearing does not push it out of view.
   */
  const reveal = h("div", { class: "secret-slot" });
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
        "Where the sandbox POSTs each event, signed. Private-network addresses only when the sandbox allows them (--allow-private-webhook-urls); an inbox of this sandbox (Inboxes, below) always.",
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
    types.replaceChildren(...eventTypeChoices(eventTypes, (_, index) => index === 0));
  }

  // One registration at a time: a second submit while one is out (a double click, Enter) is dropped.
  let inFlight = false;
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    if (inFlight) return;
    inFlight = true;
    submit.disabled = true;
    try {
      await register();
    } finally {
      inFlight = false;
      submit.disabled = false;
    }
  });

  async function register() {
    const url = fieldValue(form, "url");
    const eventTypes = checkedEventTypes(form);
    const description = fieldValue(form, "description");
    const twin = await activeTwin(url, eventTypes).catch(() => null);
    if (twin !== null) {
      const confirmed = await confirmAction({
        title: "Register this URL a second time?",
        message: h(
          "p",
          {},
          "An active registration made ",
          when(twin.createdAt),
          " already sends these event types to ",
          h("code", { class: "mono break" }, url),
          ". A second one would deliver every event twice, each signed with its own secret.",
        ),
        confirmLabel: "Register a second one",
      });
      if (confirmed === null) return;
    }
    /** @type {string | null} */
    let secret = null;
    const ok = await runLogged(
      log,
      async (call) => {
        const { body } = await call(
          request("POST", servicePaths.createWebhookRegistration, {
            body: { url, eventTypes, ...(description === "" ? {} : { description }) },
          }),
        );
        secret = typeof body?.secret === "string" ? body.secret : null;
        // The answer below shows where the secret is rather than the secret: one place to copy it
        // from, in view, not at the end of a JSON body.
        if (secret !== null && body !== null && typeof body === "object")
          body.secret = "(shown once, in the box above)";
        return `Registered ${String(body?.url ?? url)}.`;
      },
      { form },
    );
    if (!ok) return;
    form.reset();
    if (secret !== null) {
      const box = secretBox(url, secret);
      reveal.replaceChildren(box);
      box.focus();
    }
    after();
  }

  return {
    reveal,
    form,
    offer,
  };
}
