// @ts-check
// One webhook delivery in detail (GET /_console/api/webhook-deliveries/{id}): its attempts, the
// event's body, the headers each attempt sends and how a receiver verifies the signature; and
// Redeliver (POST …/redeliver), a new delivery of the same event.
import { ApiError, request } from "../api.js";
import { BASE } from "./common.js";
import { nothingOf, objectPath } from "./itemLinks.js";
import { wholeId } from "./ids.js";
import { breakable, card, facts, fill, h, statusPill, timeOf } from "../dom.js";
import { requestLog, runLogged } from "../requestLog.js";
import { consolePaths } from "../paths.js";

const VERIFY_EXAMPLE = `import { parseWebhookEvent, verifyWebhookSignature } from "@portfolio-wallet/pulumi";

// rawBody: the request's body bytes as received (never re-serialized JSON)
if (!verifyWebhookSignature({ payload: rawBody, headers: req.headers, secret, toleranceSeconds: 300 }))
  return res.writeHead(400).end();
const event = parseWebhookEvent(rawBody);
res.writeHead(204).end(); // then process it, idempotently by event.id`;

/**
 * The mark of a test event (sent from "Send test event", `"test": true` in its body) in a list of
 * deliveries, so it is not taken for something that happened to a wallet.
 * @param {{ test?: boolean }} delivery
 */
export function testMark(delivery) {
  return delivery.test ? h("span", { class: "pill test-mark", "data-test-event": true }, "test event") : null;
}

/**
 * @param {() => void} after reads the page again
 */
export function deliveryInspector(after) {
  const body = h("div", { class: "region" });
  const log = requestLog("Redelivery result");
  const element = card("Delivery", [body, log.element], {
    id: "delivery-heading",
    className: "delivery-detail",
  });
  element.hidden = true;
  /** @type {string | null} */
  let shown = null;

  /** @param {string} id */
  async function show(id) {
    shown = id;
    element.hidden = false;
    log.clear();
    /** @type {import("../payloads.js").DeliveryDetail} */
    let detail;
    // The page's address names the delivery shown, so it can be bookmarked and shared.
    window.history.replaceState(null, "", `${BASE}/webhooks/deliveries/${encodeURIComponent(id)}`);
    try {
      ({ body: detail } = await request("GET", consolePaths.webhookDelivery(id)));
    } catch (error) {
      // Another organization's delivery is a 404 like an unknown id: the same words for both.
      const notHere = error instanceof ApiError && (error.status === 404 || error.status === 400);
      fill(
        body,
        h(
          "p",
          { class: "notice notice-bad", role: "alert", "data-not-found": notHere ? true : null },
          notHere ? nothingOf(id) : error instanceof Error ? error.message : String(error),
        ),
      );
      element.scrollIntoView({ block: "nearest" });
      return;
    }
    const redeliver = h("button", { type: "button", class: "button" }, "Redeliver");
    redeliver.addEventListener("click", async () => {
      redeliver.disabled = true;
      await runLogged(log, async (call) => {
        const { body: created } = await call(request("POST", consolePaths.redeliver(id)));
        return `Sent again as a new delivery, ${String(created?.id ?? "")}: the same event id and body, attempted now.`;
      });
      redeliver.disabled = false;
      after();
    });
    const close = h("button", { type: "button", class: "button" }, "Close");
    close.addEventListener("click", () => {
      shown = null;
      element.hidden = true;
      window.history.replaceState(null, "", `${BASE}/webhooks`);
    });
    fill(
      body,
      h(
        "div",
        { "data-delivery-id": detail.id },
        facts([
          ["Event", h("code", { class: "break-at-separators" }, breakable(detail.eventType))],
          [
            "Delivery",
            wholeId(detail.id, "delivery id", {
              path: objectPath({ kind: "webhook_delivery", id: detail.id }),
            }),
          ],
          ["Event id", wholeId(detail.eventId, "event id")],
          ["Status", statusPill(detail.status)],
          ["Attempts", String(detail.attempts)],
          ["Last status code", detail.lastResponseStatus === null ? "—" : String(detail.lastResponseStatus)],
          ["Last attempt (wall clock)", timeOf(detail.lastAttemptAt)],
          ["Last error", detail.lastError ?? "—"],
          ["URL", h("code", { class: "break-at-separators" }, breakable(detail.url))],
        ]),
        h("h3", {}, "Headers of each attempt"),
        h(
          "dl",
          { class: "header-list" },
          (detail.headers ?? []).map((/** @type {{ name: string, value: string }} */ header) =>
            h(
              "div",
              {},
              h("dt", {}, h("code", {}, header.name)),
              h("dd", { class: "break-at-separators" }, breakable(header.value)),
            ),
          ),
        ),
        h("h3", {}, "Body"),
        h(
          "pre",
          { class: "code", tabindex: 0, "aria-label": "The event's body" },
          h("code", {}, JSON.stringify(detail.payload, null, 2)),
        ),
        h("h3", {}, "Verifying the signature"),
        h(
          "p",
          { class: "hint" },
          "Recompute HMAC-SHA256 with the registration's secret over the timestamp header, a dot and the raw body; compare it in constant time with the v1= value, and reject a timestamp far from now. The SDK does it (docs/webhooks.md):",
        ),
        h(
          "pre",
          { class: "code", tabindex: 0, "aria-label": "Verifying a delivery with the SDK" },
          h("code", {}, VERIFY_EXAMPLE),
        ),
        h("div", { class: "form-actions" }, redeliver, close),
      ),
    );
    element.scrollIntoView({ block: "nearest" });
  }

  return {
    element,
    show,
    /** The delivery shown now, if any. */
    shown: () => shown,
  };
}
