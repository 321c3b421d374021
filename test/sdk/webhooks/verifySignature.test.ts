import { createHmac } from "node:crypto";
import { describe, expect, test } from "vitest";
import {
  WEBHOOK_EVENT_ID_HEADER,
  WEBHOOK_SIGNATURE_HEADER,
  WEBHOOK_TIMESTAMP_HEADER,
} from "../../../sdk/nodejs/contract/index.ts";
import {
  InvalidWebhookPayloadError,
  parseWebhookEvent,
  verifyWebhookSignature,
} from "../../../sdk/nodejs/index.ts";

const SECRET = "whsec_test-secret";
const NOW_MS = Date.parse("2026-03-01T12:00:00Z");
const TIMESTAMP = String(NOW_MS / 1000);
const EVENT = {
  id: "3f1c2a9e-8b7d-4c1e-9f0a-2b3c4d5e6f70",
  type: "portfolio_wallet.balance.updated",
  createdAt: "2026-03-01T12:00:00.000Z",
  organizationId: "org",
  data: {
    portfolioWalletId: "3f1c2a9e-8b7d-4c1e-9f0a-2b3c4d5e6f71",
    totalBalanceUsd: 10,
    instantWithdrawableUsd: 0,
    pendingAllocationsUsd: 10,
  },
};
const BODY = JSON.stringify(EVENT);
const sign = (body: string, timestamp = TIMESTAMP, secret = SECRET) =>
  `v1=${createHmac("sha256", secret).update(`${timestamp}.${body}`).digest("hex")}`;
const headers = (signature = sign(BODY), timestamp = TIMESTAMP) => ({
  [WEBHOOK_SIGNATURE_HEADER]: signature,
  [WEBHOOK_TIMESTAMP_HEADER]: timestamp,
  [WEBHOOK_EVENT_ID_HEADER]: EVENT.id,
});
const verify = (overrides: Partial<Parameters<typeof verifyWebhookSignature>[0]> = {}) =>
  verifyWebhookSignature({ payload: BODY, headers: headers(), secret: SECRET, now: NOW_MS, ...overrides });

describe("verifyWebhookSignature", () => {
  test("accepts the signature of the exact body, from a plain object, Headers or bytes", () => {
    expect(verify()).toBe(true);
    expect(verify({ headers: new Headers(headers()) })).toBe(true);
    expect(verify({ payload: new TextEncoder().encode(BODY) })).toBe(true);
    const upper = Object.fromEntries(Object.entries(headers()).map(([k, v]) => [k.toUpperCase(), v]));
    expect(verify({ headers: upper })).toBe(true);
  });

  test("rejects a tampered body, another secret, a missing or malformed header", () => {
    expect(verify({ payload: BODY.replace('"totalBalanceUsd":10', '"totalBalanceUsd":11') })).toBe(false);
    expect(verify({ payload: `${BODY} ` })).toBe(false);
    expect(verify({ secret: "whsec_other" })).toBe(false);
    expect(verify({ headers: { [WEBHOOK_TIMESTAMP_HEADER]: TIMESTAMP } })).toBe(false);
    expect(verify({ headers: { [WEBHOOK_SIGNATURE_HEADER]: sign(BODY) } })).toBe(false);
    expect(verify({ headers: headers(sign(BODY).replace("v1=", "v0=")) })).toBe(false);
    expect(verify({ headers: headers("v1=abc") })).toBe(false);
    expect(verify({ headers: headers(sign(BODY), "soon") })).toBe(false);
    // A signature made for another timestamp does not carry over to this one.
    expect(verify({ headers: headers(sign(BODY, String(Number(TIMESTAMP) - 1))) })).toBe(false);
  });

  test("enforces the timestamp tolerance both ways (default 300 s)", () => {
    expect(verify({ now: NOW_MS + 300_000 })).toBe(true);
    expect(verify({ now: NOW_MS + 301_000 })).toBe(false);
    expect(verify({ now: NOW_MS - 301_000 })).toBe(false);
    expect(verify({ now: NOW_MS + 301_000, toleranceSeconds: 400 })).toBe(true);
  });

  test("accepts any one of several listed signatures (secret rotation)", () => {
    const both = `${sign(BODY, TIMESTAMP, "whsec_old")}, ${sign(BODY)}`;
    expect(verify({ headers: headers(both) })).toBe(true);
    expect(verify({ headers: headers(`${sign(BODY, TIMESTAMP, "whsec_old")},v1=${"0".repeat(64)}`) })).toBe(
      false,
    );
  });
});

describe("parseWebhookEvent", () => {
  test("parses a known event into its typed shape", () => {
    const event = parseWebhookEvent(BODY);
    expect(event.type).toBe("portfolio_wallet.balance.updated");
    expect(event.data).toEqual(EVENT.data);
  });

  test("passes an unknown event type through, and rejects a known type with a bad shape or non-JSON", () => {
    const future = parseWebhookEvent(
      JSON.stringify({ ...EVENT, type: "portfolio_wallet.something.new", data: { x: 1 } }),
    );
    expect(future.type).toBe("portfolio_wallet.something.new");
    expect(() =>
      parseWebhookEvent(JSON.stringify({ ...EVENT, data: { portfolioWalletId: "nope" } })),
    ).toThrow(InvalidWebhookPayloadError);
    expect(() => parseWebhookEvent("{not json")).toThrow(/not JSON/);
  });
});
