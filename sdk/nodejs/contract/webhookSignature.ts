import { createHmac, timingSafeEqual } from "node:crypto";
import { WEBHOOK_SIGNATURE_HEADER, WEBHOOK_TIMESTAMP_HEADER } from "./webhook.ts";

// Not re-exported by index.ts: it needs node:crypto, and the console's browser bundle imports
// the contract's other rules.

/** Headers as a fetch `Headers`, or a plain object such as Node's `req.headers` (any case). */
export type WebhookHeaders = Headers | Readonly<Record<string, string | readonly string[] | undefined>>;

/** Input of a signature check. */
export interface VerifyWebhookSignatureInput {
  /** The request body exactly as received (raw bytes or text): never re-serialized JSON. */
  payload: string | Uint8Array;
  /** The request's headers; the signature and timestamp headers are read from them. */
  headers: WebhookHeaders;
  /** The registration's secret (`whsec_...`), as answered when the registration was created. */
  secret: string;
  /** How far the signed timestamp may be from now, in seconds, either way. Default 300. */
  toleranceSeconds?: number;
  /** The current time, for tests. Default `Date.now()`. */
  now?: Date | number;
}

/** Default tolerance between the delivery's timestamp and the receiver's clock. */
export const DEFAULT_WEBHOOK_TOLERANCE_SECONDS = 300;

/** A signature check's outcome; `reason` says what failed, in words a receiver's log can show. */
export type WebhookSignatureCheck = { valid: true } | { valid: false; reason: string };

function header(headers: WebhookHeaders, name: string): string | undefined {
  if (headers instanceof Headers) return headers.get(name) ?? undefined;
  const key = Object.keys(headers).find((k) => k.toLowerCase() === name);
  const value = key === undefined ? undefined : headers[key];
  return typeof value === "string" ? value : value?.[0];
}

/**
 * Checks a delivery's `x-portfolio-signature` (`v1=<hex HMAC-SHA256 of "${timestamp}.${payload}"
 * keyed with the secret>`, several comma-separated while a secret is rotated) and that its
 * `x-portfolio-timestamp` is within the tolerance of now. Constant-time; never throws. The SDK's
 * `verifyWebhookSignature` answers its `valid`; the sandbox's webhook inboxes record its reason.
 */
export function checkWebhookSignature(input: VerifyWebhookSignatureInput): WebhookSignatureCheck {
  const timestampText = header(input.headers, WEBHOOK_TIMESTAMP_HEADER)?.trim();
  const signatures = header(input.headers, WEBHOOK_SIGNATURE_HEADER);
  if (timestampText === undefined || !/^\d{1,12}$/.test(timestampText))
    return { valid: false, reason: `no unix-seconds ${WEBHOOK_TIMESTAMP_HEADER} header` };
  if (signatures === undefined) return { valid: false, reason: `no ${WEBHOOK_SIGNATURE_HEADER} header` };
  const nowMs =
    input.now === undefined ? Date.now() : typeof input.now === "number" ? input.now : input.now.getTime();
  const tolerance = input.toleranceSeconds ?? DEFAULT_WEBHOOK_TOLERANCE_SECONDS;
  const skewSeconds = Math.abs(nowMs / 1000 - Number(timestampText));
  if (skewSeconds > tolerance)
    return {
      valid: false,
      reason: `the timestamp is ${Math.round(skewSeconds)} s from now, more than the ${tolerance} s allowed`,
    };
  const payload =
    typeof input.payload === "string" ? Buffer.from(input.payload, "utf8") : Buffer.from(input.payload);
  const expected = createHmac("sha256", input.secret).update(`${timestampText}.`).update(payload).digest();
  let matched = false;
  for (const part of signatures.split(",")) {
    const [version, hex] = part.trim().split("=", 2);
    if (version !== "v1" || hex === undefined || !/^[0-9a-fA-F]{64}$/.test(hex)) continue;
    // Every candidate is compared, in constant time, so timing says nothing about which matched.
    if (timingSafeEqual(Buffer.from(hex, "hex"), expected)) matched = true;
  }
  return matched
    ? { valid: true }
    : {
        valid: false,
        reason: "no v1 signature matches the registration's secret over this timestamp and body",
      };
}
