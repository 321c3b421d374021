// @ts-check
// /ids/{id}: an object's own page, for every kind of object the service or the sandbox makes (a
// deposit, withdrawal, strategy update, signing activity, webhook registration or delivery): its
// whole id, one timeline (the request that made it, its state changes, its webhook events with
// each delivery's attempts), the objects it relates to, and its JSON as the API answers it. A
// wallet has its page already (/wallets/{id}), where its id leads; a request's id leads to what it
// made, or to the Events page showing that request.
import { copyButton } from "../copy.js";
import { breakable, card, facts, fillIfChanged, h, statusPill, timeOf } from "../dom.js";
import { usd } from "../format.js";
import { readId, wholeId } from "./ids.js";
import { consolePaths } from "../paths.js";
import { failure, link, loading, notFoundView, pageHeader } from "./common.js";
import { KIND_WORDS, nothingOf, objectPath, readFound } from "./itemLinks.js";
import { allocationText } from "./walletStrategy.js";

/** @typedef {import("../payloads.js").ObjectPage} ObjectPage */
/** @typedef {import("../payloads.js").TimelineStep} TimelineStep */

/** A page's title for each kind. */
const TITLES = /** @type {Record<string, string>} */ ({
  deposit: "Deposit",
  withdrawal: "Withdrawal",
  strategy_update: "Strategy update",
  signing_activity: "Signing activity",
  webhook_registration: "Webhook registration",
  webhook_delivery: "Webhook delivery",
});

/** Which clock a step's time is on, in the words the page uses everywhere. */
const CLOCK_WORDS = { sandbox: "sandbox time", wall: "wall clock" };

/**
 * Where the object also shows in its list (a wallet's tab, Approvals, Webhooks).
 * @param {ObjectPage} page
 */
function listPlace(page) {
  const id = encodeURIComponent(page.id);
  const wallet = page.walletId === null ? null : `/wallets/${encodeURIComponent(page.walletId)}`;
  switch (page.kind) {
    case "deposit":
      return { path: `${wallet}/deposits/${id}`, words: "the wallet's deposits" };
    case "withdrawal":
      return { path: `${wallet}/withdrawals/${id}`, words: "the wallet's withdrawals" };
    case "strategy_update":
      return { path: `${wallet}/strategy/${id}`, words: "the wallet's strategy updates" };
    case "signing_activity":
      return { path: `/approvals/${id}`, words: "Approvals" };
    case "webhook_delivery":
      return { path: `/webhooks/deliveries/${id}`, words: "Webhooks, its detail open" };
    default:
      return { path: "/webhooks", words: "Webhooks" };
  }
}

/**
 * The figures a reader looks for first, per kind; the JSON below has every field.
 * @param {ObjectPage} page
 * @returns {[string, import("../dom.js").Children][]}
 */
function summaryOf(page) {
  const object = /** @type {Record<string, any>} */ (page.object ?? {});
  /** @type {[string, import("../dom.js").Children][]} */
  const status = [["Status", statusPill(String(object["status"] ?? "unknown"))]];
  switch (page.kind) {
    case "deposit":
      return [
        ...status,
        ["Amount", usd(object["amountUsd"])],
        ["Chain", String(object["chain"])],
        ["Transaction", wholeId(String(object["txHash"]), "transaction hash")],
        ["Detected", timeOf(object["createdAt"])],
      ];
    case "withdrawal":
      return [
        ...status,
        ["Amount", usd(object["withdrawalAmount"])],
        ["To", `${String(object["destinationToken"])} on ${String(object["destinationChain"])}`],
        ["Address", wholeId(String(object["destinationAddress"]), "destination address")],
        ["Requested", timeOf(object["createdAt"])],
      ];
    case "strategy_update":
      return [
        ...status,
        ["Target allocation", allocationText(Array.isArray(object["positions"]) ? object["positions"] : [])],
        ["Requested", timeOf(object["createdAt"])],
      ];
    case "signing_activity":
      return [
        ...status,
        ["Approvals", `${String(object["approvals"])} of ${String(object["requiredApprovals"])}`],
        ["Created", timeOf(object["createdAt"])],
      ];
    case "webhook_registration":
      return [
        ...status,
        ["URL", h("span", { class: "mono break" }, String(object["url"]))],
        ["Event types", (Array.isArray(object["eventTypes"]) ? object["eventTypes"] : []).join(", ")],
        ["Registered", timeOf(object["createdAt"])],
      ];
    case "webhook_delivery":
      return [
        ...status,
        ["Event", h("code", { class: "break-at-separators" }, breakable(String(object["eventType"])))],
        ["Attempts", String(object["attempts"])],
        [
          "Last answer",
          object["lastResponseStatus"] === null ? "none yet" : String(object["lastResponseStatus"]),
        ],
        ["URL", h("span", { class: "mono break" }, String(object["url"]))],
      ];
    default:
      return status;
  }
}

/**
 * A step of the timeline: its time and clock, what happened, and for an event its deliveries.
 * @param {TimelineStep} step
 */
function timelineStep(step) {
  return h(
    "li",
    { class: "object-step", "data-step": step.what, "data-clock": step.clock },
    h(
      "div",
      { class: "object-step-head" },
      timeOf(step.at),
      h("span", { class: "muted small" }, ` (${CLOCK_WORDS[step.clock]})`),
    ),
    h(
      "p",
      { class: "object-step-text break-at-separators" },
      step.what === "request" && step.requestId !== undefined
        ? [
            "Made by ",
            link(`/events?requestId=${encodeURIComponent(step.requestId)}`, step.text, {
              "data-made-by": step.requestId,
            }),
            ", request ",
            wholeId(step.requestId, "request id"),
          ]
        : step.text,
      step.dueAt === undefined ? null : [", due ", timeOf(step.dueAt)],
    ),
    step.deliveries === undefined || step.deliveries.length === 0
      ? null
      : h(
          "ul",
          { class: "plain object-deliveries" },
          step.deliveries.map((delivery) =>
            h(
              "li",
              { "data-delivery-id": delivery.id },
              "Delivery ",
              link(objectPath({ kind: "webhook_delivery", id: delivery.id }), delivery.url, {
                class: "mono break",
                "aria-label": `Delivery ${delivery.id} to ${delivery.url}`,
              }),
              " ",
              statusPill(delivery.status),
              ` ${delivery.attempts} attempt${delivery.attempts === 1 ? "" : "s"}`,
              delivery.lastResponseStatus === null ? "" : `, last answered ${delivery.lastResponseStatus}`,
            ),
          ),
        ),
  );
}

/**
 * @param {ObjectPage} page
 */
function relatedList(page) {
  if (page.related.length === 0) return h("p", { class: "muted" }, "Nothing related.");
  return h(
    "ul",
    { class: "plain object-related" },
    page.related.map((item) =>
      h(
        "li",
        { "data-related-kind": item.kind, "data-related-id": item.id },
        h("span", { class: "muted" }, `${item.relation}: `),
        `${KIND_WORDS[item.kind] ?? item.kind} `,
        item.exists
          ? wholeId(item.id, `${KIND_WORDS[item.kind] ?? item.kind} id`, { path: objectPath(item) })
          : [
              wholeId(item.id, `${KIND_WORDS[item.kind] ?? item.kind} id`),
              h("span", { class: "muted" }, " (deleted)"),
            ],
      ),
    ),
  );
}

/** @type {import("./common.js").ViewFactory} */
export function objectPageView(main, ctx, params) {
  const typed = params[0] ?? "";
  const read = readId(typed);
  if (read.problem !== undefined) return notFoundView(main, "Not an id", read.problem);
  const id = read.id;
  main.replaceChildren(pageHeader("Find an id"), loading(`Looking for ${id}…`));
  const heading = h("div", {});
  const summary = h("div", { class: "region" });
  const timeline = h("div", { class: "region" });
  const related = h("div", { class: "region" });
  const json = h("div", { class: "region" });
  let drawn = false;
  let gone = false;
  let title = "Find an id";

  /** @param {ObjectPage} page */
  function draw(page) {
    if (!drawn) {
      drawn = true;
      title = `${TITLES[page.kind] ?? page.kind} ${page.id}`;
      document.title = `${title} · Sandbox console`;
      main.replaceChildren(
        h(
          "div",
          { class: "object-page", "data-object-kind": page.kind, "data-object-id": page.id },
          heading,
          h(
            "div",
            { class: "stack-lg" },
            card("Summary", summary, { id: "object-summary-heading" }),
            card("Timeline", timeline, { id: "object-timeline-heading" }),
            card("Related", related, { id: "object-related-heading" }),
            card("JSON", json, { id: "object-json-heading" }),
          ),
        ),
      );
    }
    const place = listPlace(page);
    fillIfChanged(heading, JSON.stringify([page.kind, page.id, page.walletId]), () =>
      pageHeader(TITLES[page.kind] ?? page.kind, {
        kicker:
          page.walletId === null
            ? link("/events", "Events")
            : link(`/wallets/${page.walletId}`, "Its wallet"),
        sub: h(
          "span",
          { class: "meta-line" },
          wholeId(page.id, `${KIND_WORDS[page.kind] ?? page.kind} id`),
          h("span", {}, "Also in ", link(place.path, place.words)),
        ),
      }),
    );
    fillIfChanged(summary, JSON.stringify(page.object), () => facts(summaryOf(page)));
    fillIfChanged(timeline, JSON.stringify(page.timeline), () =>
      h(
        "div",
        {},
        h(
          "p",
          { class: "hint card-hint" },
          "Oldest first. The request and delivery attempts are on the wall clock; the object's own changes and its events on the sandbox's, which moves when time is advanced.",
          page.madeBy === null && page.kind !== "webhook_delivery"
            ? " The request that made it is no longer in the request log (it keeps the last 500), or it was made by the sandbox itself."
            : "",
        ),
        h("ol", { class: "object-timeline" }, page.timeline.map(timelineStep)),
      ),
    );
    fillIfChanged(related, JSON.stringify(page.related), () => relatedList(page));
    fillIfChanged(json, JSON.stringify(page.object), () => {
      const text = JSON.stringify(page.object, null, 2);
      const code = h(
        "pre",
        { class: "code", tabindex: 0, "aria-label": "The object as JSON" },
        h("code", {}, text),
      );
      return h(
        "div",
        { class: "stack" },
        h("div", { class: "card-control" }, copyButton({ text: () => text, selectable: code, what: "JSON" })),
        code,
      );
    });
  }

  return {
    get title() {
      return title;
    },
    async refresh() {
      if (gone) return;
      /** @type {ObjectPage | null} */
      let page;
      try {
        page = await readFound(consolePaths.objectPage(id));
      } catch (error) {
        if (!drawn) main.replaceChildren(pageHeader("Find an id"), failure(error));
        throw error;
      }
      if (page === null) {
        gone = true;
        notFoundView(main, "Not found", nothingOf(id));
        return;
      }
      if (page.kind === "wallet") return ctx.navigate(objectPath(page), { replace: true });
      if (page.kind === "request") {
        // A request is shown by what it made; one that made nothing, on the Events page.
        const made = page.related.find((item) => item.relation === "made by this request" && item.exists);
        gone = true;
        ctx.navigate(made === undefined ? `/events?requestId=${encodeURIComponent(id)}` : objectPath(made), {
          replace: true,
        });
        return;
      }
      // Found by a client's requestId: the object's own address.
      if (page.id !== id) {
        gone = true;
        ctx.navigate(objectPath(page), { replace: true });
        return;
      }
      draw(page);
    },
  };
}
