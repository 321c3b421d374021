// @ts-check
// Events: what happened in the organization, newest first, on one page: the sandbox's request log
// (GET /_console/api/requests: method, path, status, time, request id, the wallet it was about;
// bodies, redacted, on demand) and the webhook events delivered to its registrations. The filters
// are kept in the page's address, so a filtered view can be linked and reloaded.
import { ApiError, request } from "../api.js";
import { card, fillIfChanged, h, statusPill, table, timeOf } from "../dom.js";
import { consolePaths } from "../paths.js";
import { BASE, link, loading, pageHeader } from "./common.js";
import { readId, wholeId } from "./ids.js";
import { nothingOf, objectPath } from "./itemLinks.js";
import { testMark } from "./webhookDelivery.js";

const METHODS = ["GET", "POST", "PUT", "PATCH", "DELETE"];
const STATUS_CLASSES = ["2xx", "4xx", "5xx"];
const DELIVERY_STATUSES = ["pending", "succeeded", "failed", "cancelled"];
/** The address's names of the filters, each also the name of its control. */
const FILTERS = ["method", "status", "walletId", "requestId", "eventType", "deliveryStatus"];

/**
 * @param {string} id
 * @param {string} label
 * @param {string} anyLabel
 * @param {string[]} values
 */
function selectFilter(id, label, anyLabel, values) {
  const select = h(
    "select",
    { id: `events-${id}`, name: id },
    h("option", { value: "" }, anyLabel),
    values.map((value) => h("option", { value }, value)),
  );
  return { select, field: h("div", { class: "field" }, h("label", { for: `events-${id}` }, label), select) };
}

/**
 * A field's refusal, said at the field: marked invalid, the reason right after it and tied to it.
 * @param {HTMLInputElement} input
 * @param {HTMLElement} message the field's message element (its id is in the input's aria-describedby)
 * @param {string} problem empty to clear
 */
function sayAtField(input, message, problem) {
  message.textContent = problem;
  message.hidden = problem === "";
  if (problem === "") input.removeAttribute("aria-invalid");
  else input.setAttribute("aria-invalid", "true");
}

/**
 * A box that takes any id the sandbox gives, in any form the console shows one, and opens its
 * page (objectPage.js): an object's, a request's (which leads to what it made), or the object a
 * client's requestId made. A form no id has is refused at the field, and nothing is sent.
 * @param {import("./common.js").ViewContext} ctx
 */
function idSearch(ctx) {
  const input = h("input", {
    id: "find-id",
    name: "id",
    type: "search",
    spellcheck: "false",
    autocomplete: "off",
    placeholder: "a wallet, deposit, withdrawal, delivery, activity or request id",
    "aria-describedby": "find-id-outcome",
  });
  const outcome = h("p", { id: "find-id-outcome", class: "field-error", hidden: true, role: "status" });
  const form = h(
    "form",
    {
      class: "inline-form",
      role: "search",
      "aria-label": "Search by id",
      id: "find-id-form",
      novalidate: true,
    },
    h("div", { class: "field" }, h("label", { for: "find-id" }, "Find any id"), input, outcome),
    h("div", { class: "form-actions" }, h("button", { type: "submit", class: "button" }, "Find")),
  );
  input.addEventListener("input", () => sayAtField(input, outcome, ""));
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    const read = readId(input.value);
    if (read.problem !== undefined) return sayAtField(input, outcome, read.problem);
    try {
      /** @type {{ body: import("./itemLinks.js").FoundItem }} */
      const { body } = await request("GET", consolePaths.findId(read.id));
      ctx.navigate(objectPath(body));
    } catch (error) {
      sayAtField(
        input,
        outcome,
        error instanceof ApiError && error.status === 404
          ? nothingOf(read.id)
          : String(error instanceof Error ? error.message : error),
      );
    }
  });
  return form;
}

/**
 * A filter field that takes an id: `value()` is the id, undefined when empty, or null while what is
 * typed is no id (said at the field: the lists are then not read, rather than shown unfiltered).
 * @param {string} name the address's and the control's name
 * @param {string} label
 * @param {string} placeholder
 */
function idFilter(name, label, placeholder) {
  const messageId = `events-${name}-error`;
  const input = h("input", {
    id: `events-${name}`,
    name,
    type: "text",
    spellcheck: "false",
    autocomplete: "off",
    placeholder,
    "aria-describedby": messageId,
  });
  const message = h("p", { id: messageId, class: "field-error", hidden: true });
  return {
    input,
    field: h("div", { class: "field" }, h("label", { for: `events-${name}` }, label), input, message),
    /** @returns {string | null | undefined} */
    value() {
      if (input.value.trim() === "") {
        sayAtField(input, message, "");
        return undefined;
      }
      const read = readId(input.value);
      sayAtField(input, message, read.problem ?? "");
      return read.id ?? null;
    },
  };
}

/** @type {import("./common.js").ViewFactory} */
export function eventsView(main, ctx, _params, query) {
  const requests = h("div", { class: "region" }, loading("Reading the request log…"));
  const deliveries = h("div", { class: "region" }, loading("Reading the webhook events…"));
  const bodies = h("div", { class: "region", id: "request-bodies" });
  const method = selectFilter("method", "Method", "Any method", METHODS);
  const status = selectFilter("status", "Status", "Any status", STATUS_CLASSES);
  const eventType = selectFilter("eventType", "Event type", "Any event type", []);
  const deliveryStatus = selectFilter("deliveryStatus", "Delivery", "Any delivery status", DELIVERY_STATUSES);
  const wallet = idFilter("walletId", "Wallet", "a wallet id");
  const requestFilter = idFilter("requestId", "Request id", "a request id");
  const filters = h(
    "form",
    { class: "inline-form card-hint", "aria-label": "Filter the events", id: "events-filters" },
    method.field,
    status.field,
    wallet.field,
    requestFilter.field,
    eventType.field,
    deliveryStatus.field,
  );
  /** @returns {Record<string, HTMLInputElement | HTMLSelectElement>} */
  const controls = () => ({
    method: method.select,
    status: status.select,
    walletId: wallet.input,
    requestId: requestFilter.input,
    eventType: eventType.select,
    deliveryStatus: deliveryStatus.select,
  });
  for (const name of FILTERS) {
    const value = query.get(name);
    const control = controls()[name];
    if (value !== null && control !== undefined) control.value = value;
  }
  /** @param {string} name */
  const chosen = (name) => {
    if (name === "walletId") return wallet.value() ?? undefined;
    if (name === "requestId") return requestFilter.value() ?? undefined;
    const value = controls()[name]?.value.trim() ?? "";
    return value === "" ? undefined : value;
  };
  // A filter changed: the address keeps it (replaced, not pushed: each change is no new page).
  filters.addEventListener("change", () => {
    const params = new URLSearchParams();
    for (const name of FILTERS) {
      const value = chosen(name);
      if (value !== undefined) params.set(name, value);
    }
    const search = params.toString();
    window.history.replaceState(null, "", `${BASE}/events${search === "" ? "" : `?${search}`}`);
    void refresh();
  });
  filters.addEventListener("submit", (event) => event.preventDefault());

  main.replaceChildren(
    pageHeader("Events", {
      sub: "What happened in this organization, newest first: its requests to the sandbox and the webhook events sent to its registrations.",
    }),
    h(
      "div",
      { class: "stack-lg" },
      idSearch(ctx),
      filters,
      card(
        "Requests",
        [
          h(
            "p",
            { class: "hint card-hint" },
            "The last 500 requests of this organization (the console's own reads are left out; the log is kept in memory and starts again when the sandbox restarts). Bodies are kept with secrets and tokens redacted.",
          ),
          requests,
          bodies,
        ],
        { id: "requests-heading", className: "flush" },
      ),
      card("Webhook events", deliveries, { id: "webhook-events-heading", className: "flush" }),
    ),
  );

  /** @param {string} requestId */
  async function showBodies(requestId) {
    const { body } = await request("GET", consolePaths.request(requestId));
    /** @param {unknown} text */
    const pretty = (text) => {
      if (typeof text !== "string") return "(none)";
      try {
        return JSON.stringify(JSON.parse(text), null, 2);
      } catch {
        return text;
      }
    };
    bodies.replaceChildren(
      h(
        "section",
        {
          class: "request-bodies",
          "aria-labelledby": "request-bodies-heading",
          "data-request-id": requestId,
        },
        h("h3", { id: "request-bodies-heading" }, `${String(body?.method)} ${String(body?.path)}`),
        h("p", { class: "exchange-label" }, "Request body"),
        h("pre", { class: "code", tabindex: 0 }, h("code", {}, pretty(body?.requestBody))),
        h("p", { class: "exchange-label" }, `Answer body (${String(body?.status)})`),
        h("pre", { class: "code", tabindex: 0 }, h("code", {}, pretty(body?.responseBody))),
      ),
    );
    bodies.querySelector("h3")?.setAttribute("tabindex", "-1");
    /** @type {HTMLElement | null} */ (bodies.querySelector("h3"))?.focus();
  }

  let typesOffered = false;
  async function refresh() {
    if (!typesOffered) {
      const { body } = await request("GET", consolePaths.session);
      const types = Array.isArray(body?.eventTypes) ? body.eventTypes.map(String) : [];
      eventType.select.append(
        ...types.map((/** @type {string} */ type) => h("option", { value: type }, type)),
      );
      typesOffered = true;
      const wanted = query.get("eventType");
      if (wanted !== null) eventType.select.value = wanted;
    }
    // A filter that is no id shows no rows (its field says why): the unfiltered rows under a
    // filter would read as the filtered ones.
    const walletId = wallet.value();
    const requestId = requestFilter.value();
    if (walletId === null || requestId === null) {
      const words = `No events shown: the ${walletId === null ? "wallet" : "request id"} filter above is no id.`;
      for (const region of [requests, deliveries])
        fillIfChanged(region, words, () =>
          h("div", { class: "empty", "data-filter-refused": true }, h("p", {}, words)),
        );
      return;
    }
    const [{ body: requestPage }, { body: deliveryPage }] = await Promise.all([
      request(
        "GET",
        consolePaths.requests({
          method: chosen("method"),
          status: chosen("status"),
          walletId,
          requestId,
          limit: 100,
        }),
      ),
      // Webhook events are not made by a request: filtered by one, none is listed.
      requestId !== undefined
        ? { body: { data: [] } }
        : request(
            "GET",
            consolePaths.webhookDeliveries({
              eventType: chosen("eventType"),
              status: chosen("deliveryStatus"),
              walletId,
              limit: 50,
            }),
          ),
    ]);
    /** @type {import("../../../../domain/requestLog.ts").LoggedRequestSummary[]} */
    const logged = Array.isArray(requestPage?.data) ? requestPage.data : [];
    fillIfChanged(requests, JSON.stringify(logged), () =>
      logged.length === 0
        ? h("div", { class: "empty" }, h("p", {}, "No requests match these filters yet."))
        : table({
            caption: "Requests, newest first",
            captionHidden: true,
            columns: ["Request", "Status", "Time (wall clock)", "Wallet", "Request id", ""],
            rows: logged.map((entry) => [
              h(
                "span",
                { class: "mono break" },
                h("span", { class: "method" }, entry.method),
                " ",
                entry.path,
                entry.query === "" ? null : `?${entry.query}`,
              ),
              h(
                "span",
                { class: `num ${entry.status >= 400 ? "error-text" : ""}`.trim() },
                String(entry.status),
              ),
              timeOf(entry.at),
              entry.walletId === null
                ? h("span", { class: "muted" }, "—")
                : wholeId(entry.walletId, "wallet id", { path: `/wallets/${entry.walletId}` }),
              wholeId(entry.requestId, "request id", {
                path: objectPath({ kind: "request", id: entry.requestId }),
              }),
              h(
                "button",
                {
                  type: "button",
                  class: "button small",
                  "aria-label": `Bodies of ${entry.method} ${entry.path} at ${entry.at}`,
                  onClick: () => void showBodies(entry.requestId),
                },
                "Bodies",
              ),
            ]),
            rowAttrs: (index) => ({
              "data-request-id": logged[index]?.requestId,
              "data-status": logged[index]?.status,
            }),
          }),
    );
    /** @type {import("../payloads.js").DeliveryView[]} */
    const sent = Array.isArray(deliveryPage?.data) ? deliveryPage.data : [];
    fillIfChanged(deliveries, JSON.stringify(sent), () =>
      sent.length === 0
        ? h(
            "div",
            { class: "empty" },
            h(
              "p",
              {},
              requestId !== undefined
                ? "Webhook events are not made by a request: clear the request id to see them."
                : "No webhook events match these filters yet.",
            ),
          )
        : table({
            caption: "Webhook events, newest first",
            captionHidden: true,
            columns: [
              "Event",
              "Delivery",
              "Attempts",
              "Queued (wall clock)",
              "Wallet",
              "Event id and delivery",
            ],
            rows: sent.map((delivery) => [
              h(
                "span",
                { class: "stacked" },
                h("span", { class: "break" }, delivery.eventType, testMark(delivery)),
                h("span", { class: "mono small muted break" }, delivery.url),
              ),
              statusPill(delivery.status),
              h("span", { class: "num" }, String(delivery.attempts)),
              timeOf(delivery.createdAt),
              // A test event's wallet is made up: no link to a wallet that is not there.
              delivery.walletId === null || delivery.walletId === undefined || delivery.test
                ? h("span", { class: "muted" }, "—")
                : wholeId(delivery.walletId, "wallet id", { path: `/wallets/${delivery.walletId}` }),
              h(
                "span",
                { class: "stacked" },
                link(
                  `/webhooks/deliveries/${encodeURIComponent(delivery.id)}`,
                  h("code", { class: "mono small break" }, delivery.eventId),
                  { "data-delivery-link": true },
                ),
                h("span", { class: "small muted" }, "delivery "),
                wholeId(delivery.id, "delivery id", {
                  path: objectPath({ kind: "webhook_delivery", id: delivery.id }),
                }),
              ),
            ]),
            rowAttrs: (index) => ({
              "data-delivery-id": sent[index]?.id,
              "data-event-type": sent[index]?.eventType,
              "data-wallet-id": sent[index]?.walletId,
            }),
          }),
    );
  }

  return { title: "Events", refresh };
}
