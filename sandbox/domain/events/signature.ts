import { createHmac } from "node:crypto";

/** Version prefix of a signature value, so the scheme can change without breaking receivers. */
export const SIGNATURE_VERSION = "v1";

/**
 * The signature of one delivery attempt: HMAC-SHA256, keyed with the registration's secret (its
 * UTF-8 bytes, `whsec_` prefix included), over `${timestamp}.${body}`, hex encoded and sent as
 * `v1=<hex>`. The timestamp (unix seconds) is signed too, so a captured request cannot be replayed
 * later with a fresh timestamp. See docs/webhooks.md; sdk/nodejs/webhooks verifies it.
 */
export function signDelivery(secret: string, timestampSeconds: number, body: string): string {
  const digest = createHmac("sha256", secret).update(`${timestampSeconds}.${body}`).digest("hex");
  return `${SIGNATURE_VERSION}=${digest}`;
}
