// @ts-check
// Webhooks: the organization's registrations, enabled and disabled here through the API's status
// PATCH, sent a test event, edited and deleted (webhookActions.js), and the recent deliveries with
// their attempts, last status code and next retry.
import { request } from "../api.js";
import { breakable, card, fillIfChanged, h, statusPill, table, timeOf } from "../dom.js";
import { confirmAction } from "../confirm.js";
import { relative, when, whenUtc } from "../format.js";
import { requestLog, runLogged } from "../requestLog.js";
import { wholeId } from "./ids.js";
import { loading, pageHeader } from "./common.js";
import { objectPath } from "./itemLinks.js";
import { registrationActions } from "./webhookActions.js";
import { webhookCreateForm } from "./webhookCreate.js";
import { deliveryInspector, testMark } from "./webhookDelivery.js";
import { inboxesCard } from "./webhookInboxes.js";
import { consolePaths, servicePaths } from "../paths.js";

const DELIVERY_STATUSES = ["pending", "succeeded", "failed", "cancelled"];

/**
 * A recent real-world time: how long ago or ahead, the exact time on hover and for assistive technology.
 * @param {string} iso
 * @param {string} now
 */
function realTime(iso, now) {
  return h(
    "time",
    { datetime: iso, title: `${when(iso)} (${whenUtc(iso)})`, class: "nowrap" },
    relative(iso, now),
  );
}

/** @type {import("./common.js").ViewFactory} */
export function webhooksView(main, ctx, params) {
  // /webhooks/deliveries/{id}: the page with that delivery's detail open (itemLinks.js).
  const linkedDelivery = params[0] || null;
  let linkedShown = false;
  const registrations = h("div", { class: "region" }, loading("Reading the registrations…"));
  const deliveries = h("div", { class: "region" }, loading("Reading the deliveries…"));
  const log = requestLog("Registration change result");
  const create = webhookCreateForm(() => ctx.refreshNow());
  const inspector = deliveryInspector(() => ctx.refreshNow());
  const actions = registrationActions(log, () => ctx.refreshNow());
  const inboxes = inboxesCard(() => ctx.refreshNow());
  // Filters of the deliveries: what GET /_console/api/webhook-deliveries filters by.
  const statusFilter = h(
    "select",
    { id: "delivery-status", name: "status" },
    h("option", { value: "" }, "Any status"),
    DELIVERY_STATUSES.map((status) => h("option", { value: status }, status)),
  );
  const typeFilter = h(
    "select",
    { id: "delivery-type", name: "eventType" },
    h("option", { value: "" }, "Any event type"),
  );
  const filters = h(
    "form",
    { class: "inline-form card-hint", "aria-label": "Filter the deliveries" },
    h("div", { class: "field" }, h("label", { for: "delivery-status" }, "Status"), statusFilter),
    h("div", { class: "field" }, h("label", { for: "delivery-type" }, "Event type"), typeFilter),
  );
  filters.addEventListener("change", () => ctx.refreshNow());
  filters.addEventListener("submit", (event) => event.preventDefault());
  let typesOffered = false;
  /** @type {string[]} every event type a registration may list */
  let eventTypes = [];
  async function offerEventTypes() {
    if (typesOffered) return;
    const { body } = await request("GET", consolePaths.session);
    const types = Array.isArray(body?.eventTypes) ? body.eventTypes.map(String) : [];
    typesOffered = true;
    eventTypes = types;
    create.offer(types);
    typeFilter.append(...types.map((/** @type {string} */ type) => h("option", { value: type }, type)));
  }

  /**
   * @param {import("../payloads.js").WebhookRegistration} registration
   * @param {"active" | "disabled"} status
   */
  async function setStatus(registration, status) {
    /** @type {string | null} */
    let reason = null;
    if (status === "disabled") {
      reason = await confirmAction({
        title: "Disable this webhook?",
        message: h(
          "p",
          {},
          h("code", { class: "mono break" }, registration.url),
          " receives no events until it is enabled again; deliveries waiting for a retry are cancelled.",
        ),
        confirmLabel: "Disable",
        danger: true,
        reason: {
          label: "Reason",
          value: "disabled from the sandbox console",
          hint: "Kept on the registration as its disabledReason, for whoever enables it again.",
        },
      });
      if (reason === null) return;
    }
    await runLogged(log, async (call) => {
      await call(
        request("PATCH", servicePaths.webhookRegistrationStatus(registration.id), {
          body:
            status === "disabled" ? { status, ...(reason ? { disabledReason: reason } : {}) } : { status },
        }),
      );
      return status === "disabled"
        ? `Disabled ${registration.url}: it receives no events until enabled again.`
        : `Enabled ${registration.url}.`;
    });
    ctx.refreshNow();
  }

  main.replaceChildren(
    pageHeader("Webhooks", {
      sub: "Where the sandbox sends your organization's events, and how each delivery went. Deliveries retry with backoff (docs/webhooks.md).",
    }),
    h(
      "div",
      { class: "stack-lg" },
      create.reveal,
      card("Registrations", [log.element, registrations], {
        id: "registrations-heading",
        className: "flush",
      }),
      card("Register a webhook", create.form, { id: "register-heading" }),
      inboxes.element,
      card(
        "Recent deliveries",
        [
          h(
            "p",
            { class: "hint card-hint" },
            "Delivery times are real time, not the sandbox clock: retries wait on the wall clock, since a receiver checks signature times against its own.",
          ),
          filters,
          deliveries,
        ],
        { id: "deliveries-heading", className: "flush" },
      ),
      inspector.element,
    ),
  );

  async function refresh() {
    await Promise.all([readLists(), inboxes.refresh()]);
    // Opened once the lists above it are drawn, so it is scrolled to where it stays.
    if (linkedDelivery !== null && !linkedShown) {
      linkedShown = true;
      await inspector.show(linkedDelivery);
    }
  }

  async function readLists() {
    await offerEventTypes();
    /** @type {Record<string, string | number | undefined>} */
    const query = {
      limit: 25,
      status: statusFilter.value === "" ? undefined : statusFilter.value,
      eventType: typeFilter.value === "" ? undefined : typeFilter.value,
    };
    const [{ body: registrationPage }, { body: deliveryPage }] = await Promise.all([
      request("GET", servicePaths.webhookRegistrations({ pageSize: 100 })),
      request("GET", consolePaths.webhookDeliveries(query)),
    ]);
    /** @type {import("../payloads.js").WebhookRegistration[]} */
    const items = Array.isArray(registrationPage?.data) ? registrationPage.data : [];
    /** @type {Map<string, string>} */
    const urls = new Map(items.map((item) => [item.id, item.url]));
    fillIfChanged(registrations, JSON.stringify(items), () =>
      items.length === 0
        ? h(
            "div",
            { class: "empty" },
            h(
              "p",
              {},
              "No webhook registrations yet. Register one below, or with POST /webhooks/registrations or a WebhookRegistration resource.",
            ),
          )
        : table({
            caption: "Webhook registrations",
            captionHidden: true,
            columns: ["URL", "Events", "Status", "Created (sandbox time)", ""],
            rows: items.map((item) => [
              h(
                "span",
                { class: "stacked" },
                h("span", { class: "mono break" }, item.url),
                item.description ? h("span", { class: "muted small" }, item.description) : null,
                wholeId(item.id, "registration id", {
                  path: objectPath({ kind: "webhook_registration", id: item.id }),
                }),
              ),
              h(
                "ul",
                { class: "plain small" },
                (item.eventTypes ?? []).map((/** @type {string} */ type) =>
                  h("li", { class: "break-at-separators" }, breakable(type)),
                ),
              ),
              h(
                "span",
                { class: "stacked" },
                statusPill(item.status),
                item.status === "disabled" && item.disabledReason
                  ? h("span", { class: "muted small free-text" }, item.disabledReason)
                  : null,
              ),
              timeOf(item.createdAt),
              h(
                "div",
                { class: "row-actions" },
                item.status === "active"
                  ? h(
                      "button",
                      {
                        type: "button",
                        class: "button small",
                        onClick: () => void actions.sendTestEvent(item),
                        "aria-label": `Send test event to ${item.url}`,
                      },
                      "Send test event",
                    )
                  : null,
                h(
                  "button",
                  {
                    type: "button",
                    class: "button small",
                    onClick: () => void actions.edit(item, eventTypes),
                    "aria-label": `Edit ${item.url}`,
                  },
                  "Edit",
                ),
                item.status === "disabled"
                  ? h(
                      "button",
                      {
                        type: "button",
                        class: "button small",
                        onClick: () => void setStatus(item, "active"),
                        "aria-label": `Enable ${item.url}`,
                      },
                      "Enable",
                    )
                  : h(
                      "button",
                      {
                        type: "button",
                        class: "button small danger",
                        onClick: () => void setStatus(item, "disabled"),
                        "aria-label": `Disable ${item.url}`,
                      },
                      "Disable",
                    ),
                h(
                  "button",
                  {
                    type: "button",
                    class: "button small danger",
                    onClick: () => void actions.remove(item),
                    "aria-label": `Delete ${item.url}`,
                  },
                  "Delete",
                ),
              ),
            ]),
            rowAttrs: (index) => ({
              "data-registration-id": items[index]?.id,
              "data-status": items[index]?.status,
            }),
          }),
    );
    /** @type {import("../payloads.js").DeliveryView[]} */
    const list = Array.isArray(deliveryPage?.data) ? deliveryPage.data : [];
    const now = new Date().toISOString();
    fillIfChanged(deliveries, JSON.stringify([list, now.slice(0, 18), query.status, query.eventType]), () =>
      list.length === 0
        ? h(
            "div",
            { class: "empty" },
            h(
              "p",
              {},
              query.status !== undefined || query.eventType !== undefined
                ? "No deliveries match these filters."
                : "No deliveries yet: events are delivered to active registrations that subscribe to them.",
            ),
          )
        : table({
            caption: "Recent webhook deliveries, newest first",
            captionHidden: true,
            columns: [
              "Event",
              "Status",
              "Attempts",
              "Last status code",
              "Next retry (wall clock)",
              "Queued (wall clock)",
              "",
            ],
            rows: list.map((delivery) => [
              h(
                "span",
                { class: "stacked" },
                // Event types are long ("portfolio_wallet.withdrawal.payout.status_changed"): they
                // wrap at their dots and underscores rather than widen the table at 420 px.
                h(
                  "span",
                  { class: "break-at-separators" },
                  breakable(delivery.eventType),
                  testMark(delivery),
                ),
                h(
                  "span",
                  { class: "mono small muted break" },
                  urls.get(delivery.registrationId) ?? delivery.url,
                ),
                delivery.lastError ? h("span", { class: "small error-text" }, delivery.lastError) : null,
                wholeId(delivery.id, "delivery id", {
                  path: objectPath({ kind: "webhook_delivery", id: delivery.id }),
                }),
              ),
              statusPill(delivery.status),
              h("span", { class: "num" }, String(delivery.attempts)),
              delivery.lastResponseStatus === null
                ? h("span", { class: "muted" }, "—")
                : h("span", { class: "num" }, String(delivery.lastResponseStatus)),
              // Retries wait on the real clock (the receiver checks signature times against it).
              delivery.nextAttemptAt
                ? realTime(delivery.nextAttemptAt, now)
                : h("span", { class: "muted" }, "—"),
              realTime(delivery.createdAt, now),
              h(
                "button",
                {
                  type: "button",
                  class: "button small",
                  "aria-label": `Inspect the ${delivery.eventType} delivery of ${when(delivery.createdAt)}`,
                  onClick: () => void inspector.show(delivery.id),
                },
                "Inspect",
              ),
            ]),
            rowAttrs: (index) => ({
              "data-delivery-id": list[index]?.id,
              "data-status": list[index]?.status,
              "data-event-type": list[index]?.eventType,
            }),
          }),
    );
  }

  return { title: "Webhooks", refresh };
}
