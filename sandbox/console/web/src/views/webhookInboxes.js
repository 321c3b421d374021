// @ts-check
// Webhook inboxes: receivers the sandbox hosts for tests (docs/sandbox.md "Webhook inboxes"). The
// Webhooks page lists them and makes new ones; each has its own page (/webhooks/inboxes/{name})
// with its URL to register, the answer it gives (to test retries), and every delivery it received:
// headers, body, the signature checked against the registration's secret, the answer given.
import { ApiError, request } from "../api.js";
import { breakable, card, facts, fill, fillIfChanged, h, table, timeOf } from "../dom.js";
import { confirmAction } from "../confirm.js";
import { copyButton } from "../copy.js";
import { requestLog, runLogged } from "../requestLog.js";
import { inboxPaths } from "../paths.js";
import { failure, link, loading, pageHeader } from "./common.js";
import { actionForm, field } from "./controls/forms.js";
import { testMark } from "./webhookDelivery.js";

/** @typedef {import("../payloads.js").WebhookInbox} WebhookInbox */
/** @typedef {import("../payloads.js").InboxDelivery} InboxDelivery */

const TEST_ONLY =
  "Test only: a receiver inside this sandbox, for seeing what your registrations are sent without a server of your own. A real service has none.";

/** @param {import("../payloads.js").InboxAnswer} answer */
const answerWords = (answer) =>
  answer.delayMs === 0 ? `${answer.status} at once` : `${answer.status} after ${answer.delayMs} ms`;

/** @param {WebhookInbox} inbox */
function inboxUrl(inbox) {
  const text = h("code", { class: "mono break-at-separators" }, breakable(inbox.url));
  return h(
    "span",
    { class: "stacked" },
    text,
    copyButton({ text: () => inbox.url, selectable: text, what: `URL of inbox ${inbox.name}` }),
  );
}

/**
 * The Webhooks page's card of inboxes: each with its URL (copy it into a registration) and a
 * link to its page, and a form that makes one.
 * @param {() => void} after reads the page again
 */
export function inboxesCard(after) {
  const list = h("div", { class: "region" }, loading("Reading the inboxes…"));
  const name = h("input", {
    name: "name",
    "data-api-field": "name",
    autocomplete: "off",
    spellcheck: "false",
    placeholder: "ci",
  });
  const form = actionForm(
    "Make inbox",
    [
      field(
        "inbox-name",
        "Inbox name",
        name,
        "Lowercase letters, digits and hyphens. Registering its URL makes it too.",
      ),
    ],
    async (current, call) => {
      const { body } = await call(request("PUT", inboxPaths.inbox(name.value.trim()), { body: {} }));
      current.reset();
      return `Inbox ${body?.name} is ready: register ${body?.url} to see what is delivered there.`;
    },
    after,
    "inbox-form",
  );
  const element = card(
    "Inboxes",
    [h("p", { class: "hint card-hint" }, TEST_ONLY), list, h("div", { class: "card-hint" }, form)],
    { id: "inboxes-heading", className: "flush" },
  );

  async function refresh() {
    const { body } = await request("GET", inboxPaths.inboxes);
    /** @type {WebhookInbox[]} */
    const inboxes = Array.isArray(body?.data) ? body.data : [];
    fillIfChanged(list, JSON.stringify(inboxes), () =>
      inboxes.length === 0
        ? h(
            "div",
            { class: "empty" },
            h("p", {}, "No inboxes yet. Make one below, or register a URL of this sandbox's inboxes."),
          )
        : table({
            caption: "Webhook inboxes",
            captionHidden: true,
            columns: ["Inbox", "URL to register", "Answers", "Deliveries kept"],
            rows: inboxes.map((inbox) => [
              link(`/webhooks/inboxes/${encodeURIComponent(inbox.name)}`, inbox.name, {
                "aria-label": `Open inbox ${inbox.name}`,
              }),
              inboxUrl(inbox),
              answerWords(inbox.answer),
              h("span", { class: "num" }, `${inbox.deliveriesKept} of ${inbox.capacity}`),
            ]),
            rowAttrs: (index) => ({ "data-inbox": inboxes[index]?.name }),
          }),
    );
  }

  return { element, refresh };
}

/**
 * A delivery the inbox received, in detail.
 * @param {InboxDelivery} delivery
 */
function deliveryDetail(delivery) {
  let body = delivery.body;
  try {
    body = JSON.stringify(JSON.parse(delivery.body), null, 2);
  } catch {
    // Shown as received: the inbox keeps whatever bytes were sent.
  }
  return h(
    "div",
    { "data-inbox-delivery-id": delivery.id },
    facts([
      ["Event", h("code", { class: "break-at-separators" }, breakable(delivery.eventType))],
      ["Event id", h("code", { class: "break-at-separators" }, breakable(delivery.eventId))],
      ["Delivery id", h("code", { class: "break-at-separators" }, breakable(delivery.deliveryId))],
      ["Registration id", h("code", { class: "break-at-separators" }, breakable(delivery.registrationId))],
      ["Attempt", String(delivery.attempt)],
      ["Received (real time)", timeOf(delivery.receivedAt)],
      ["Signature", signatureWords(delivery)],
      ["Answered", answerWords(delivery.answer)],
    ]),
    h("h3", {}, "Headers received"),
    h(
      "dl",
      { class: "header-list" },
      delivery.headers.map((header) =>
        h(
          "div",
          {},
          h("dt", {}, h("code", {}, header.name)),
          h("dd", { class: "break-at-separators" }, breakable(header.value)),
        ),
      ),
    ),
    h("h3", {}, "Body received"),
    h("pre", { class: "code", tabindex: 0, "aria-label": "The body received" }, h("code", {}, body)),
  );
}

/** @param {InboxDelivery} delivery */
function signatureWords(delivery) {
  return delivery.signature.valid
    ? h(
        "span",
        { class: "stacked", "data-signature": "valid" },
        h("span", { class: "pill pill-good" }, "verified"),
        h("span", { class: "muted small" }, "matches the registration's secret"),
      )
    : h(
        "span",
        { class: "stacked", "data-signature": "invalid" },
        h("span", { class: "pill pill-bad" }, "not verified"),
        h("span", { class: "small error-text" }, delivery.signature.reason ?? ""),
      );
}

/** @param {InboxDelivery} delivery */
const isTestEvent = (delivery) => {
  try {
    return JSON.parse(delivery.body)?.test === true;
  } catch {
    return false;
  }
};

/** @type {import("./common.js").ViewFactory} */
export function inboxView(main, ctx, params) {
  const name = decodeURIComponent(params[0] ?? "");
  const about = h("div", { class: "region" }, loading("Reading the inbox…"));
  const deliveries = h("div", { class: "region" }, loading("Reading what it received…"));
  const detailBody = h("div", { class: "region" });
  const detail = card("Delivery received", detailBody, {
    id: "inbox-delivery-heading",
    className: "delivery-detail",
  });
  detail.hidden = true;
  /** @type {string | null} */
  let shown = null;
  /** @type {InboxDelivery[]} */
  let received = [];

  const status = h("input", {
    name: "status",
    type: "number",
    min: 200,
    max: 599,
    step: 1,
    value: 200,
    "data-api-field": "status",
  });
  const delayMs = h("input", {
    name: "delayMs",
    type: "number",
    min: 0,
    max: 60000,
    step: 1,
    value: 0,
    "data-api-field": "delayMs",
  });
  let answerShown = false;
  const answerForm = actionForm(
    "Save answer",
    [
      field(
        "inbox-status",
        "Status code",
        status,
        "200–599: a 2xx ends a delivery, anything else makes it retry.",
      ),
      field(
        "inbox-delay",
        "Delay (ms)",
        delayMs,
        "Waited before answering; longer than the sandbox's attempt timeout (5 s by default) is a timeout.",
      ),
    ],
    async (_form, call) => {
      const { body } = await call(
        request("PUT", inboxPaths.inbox(name), {
          body: { status: Number(status.value), delayMs: Number(delayMs.value) },
        }),
      );
      return `Inbox ${name} now answers ${answerWords(body.answer)}.`;
    },
    () => ctx.refreshNow(),
    "inbox-answer-form",
  );
  const clearLog = requestLog("Forget the deliveries: result");
  const clear = h("button", { type: "button", class: "button danger" }, "Forget the deliveries");
  clear.addEventListener("click", async () => {
    const confirmed = await confirmAction({
      title: `Forget what inbox ${name} received?`,
      message: h(
        "p",
        {},
        "Every delivery it keeps goes; its answer stays. The deliveries' own records stay on the Webhooks page.",
      ),
      confirmLabel: "Forget them",
      danger: true,
    });
    if (confirmed === null) return;
    await runLogged(clearLog, async (call) => {
      await call(request("DELETE", inboxPaths.deliveries(name, {})));
      return `Inbox ${name} keeps no deliveries now.`;
    });
    shown = null;
    detail.hidden = true;
    ctx.refreshNow();
  });

  main.replaceChildren(
    pageHeader(`Inbox ${name}`, {
      kicker: "Webhook inbox",
      sub: TEST_ONLY,
      actions: link("/webhooks", "All webhooks", { class: "button" }),
    }),
    h(
      "div",
      { class: "stack-lg" },
      card("Inbox", about, { id: "inbox-heading" }),
      card(
        "Answer",
        [
          h("p", { class: "hint" }, "What the inbox answers every delivery, to test how retries go."),
          answerForm,
        ],
        { id: "inbox-answer-heading" },
      ),
      card(
        "Deliveries received",
        [
          h(
            "p",
            { class: "hint card-hint" },
            "Newest first; each attempt of a delivery is one row. Times are real time: signatures are checked against the wall clock.",
          ),
          deliveries,
          h("div", { class: "card-hint" }, h("div", { class: "form-actions" }, clear), clearLog.element),
        ],
        { id: "inbox-deliveries-heading", className: "flush" },
      ),
      detail,
    ),
  );

  /** @param {InboxDelivery} delivery */
  function inspect(delivery) {
    shown = delivery.id;
    detail.hidden = false;
    fill(detailBody, deliveryDetail(delivery));
    detail.scrollIntoView({ block: "nearest" });
  }

  async function refresh() {
    /** @type {WebhookInbox} */
    let inbox;
    try {
      ({ body: inbox } = await request("GET", inboxPaths.inbox(name)));
    } catch (error) {
      if (error instanceof ApiError && (error.status === 404 || error.status === 400)) {
        fillIfChanged(about, "not-found", () =>
          h(
            "p",
            { class: "notice notice-bad", role: "alert", "data-not-found": true },
            `This organization has no inbox named ${JSON.stringify(name)}. Make it on the Webhooks page, or register a URL naming it.`,
          ),
        );
        fill(deliveries);
        return;
      }
      fill(about, failure(error));
      throw error;
    }
    if (!answerShown) {
      answerShown = true;
      status.value = String(inbox.answer.status);
      delayMs.value = String(inbox.answer.delayMs);
    }
    fillIfChanged(about, JSON.stringify(inbox), () =>
      facts([
        ["URL to register", inboxUrl(inbox)],
        ["Answers", answerWords(inbox.answer)],
        ["Deliveries kept", `${inbox.deliveriesKept} (the newest ${inbox.capacity} are kept)`],
      ]),
    );
    const { body } = await request("GET", inboxPaths.deliveries(name, { limit: 100 }));
    received = Array.isArray(body?.data) ? body.data : [];
    fillIfChanged(deliveries, JSON.stringify(received), () =>
      received.length === 0
        ? h(
            "div",
            { class: "empty" },
            h(
              "p",
              {},
              "Nothing received yet. Register this inbox's URL for some event types, then make something happen (or send a test event).",
            ),
          )
        : table({
            caption: `Deliveries received by inbox ${name}, newest first`,
            captionHidden: true,
            columns: ["Event", "Signature", "Attempt", "Answered", "Received", ""],
            rows: received.map((delivery) => [
              h(
                "span",
                { class: "break-at-separators" },
                breakable(delivery.eventType),
                testMark({ test: isTestEvent(delivery) }),
              ),
              signatureWords(delivery),
              h("span", { class: "num" }, String(delivery.attempt)),
              answerWords(delivery.answer),
              timeOf(delivery.receivedAt),
              h(
                "button",
                {
                  type: "button",
                  class: "button small",
                  "aria-label": `Inspect the ${delivery.eventType} delivery received at attempt ${delivery.attempt}`,
                  onClick: () => inspect(delivery),
                },
                "Inspect",
              ),
            ]),
            rowAttrs: (index) => ({
              "data-inbox-delivery-id": received[index]?.id,
              "data-event-id": received[index]?.eventId,
              "data-signature": received[index]?.signature.valid ? "valid" : "invalid",
            }),
          }),
    );
    if (shown !== null && !received.some((delivery) => delivery.id === shown)) {
      shown = null;
      detail.hidden = true;
    }
  }

  return { title: `Inbox ${name}`, refresh };
}
