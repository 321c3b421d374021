import { createHmac, timingSafeEqual } from "node:crypto";
import {
  WEBHOOK_SIGNATURE_HEADER,
  WEBHOOK_TIMESTAMP_HEADER,
  WebhookEventSchema,
  describeFieldProblems,
  fieldProblemsOf,
  type WebhookEvent,
} from "../contract/index.ts";

/** Headers as a fetch `Headers`, or a plain object such as Node's `req.headers` (any case). */
export type WebhookHeaders = Headers | Readonly<Record<string, string | readonly string[] | undefined>>;

/** Input of `verifyWebhookSignature`. */
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

function header(headers: WebhookHeaders, name: string): string | undefined {
  if (headers instanceof Headers) return headers.get(name) ?? undefined;
  const key = Object.keys(headers).find((k) => k.toLowerCase() === name);
  const value = key === undefined ? undefined : headers[key];
  return typeof value === "string" ? value : value?.[0];
}

/**
 * Whether a webhook delivery is authentic and fresh: its `x-portfolio-signature` holds
 * `v1=<hex HMAC-SHA256 of "${timestamp}.${payload}" keyed with the secret>` (several values may be
 * listed, comma-separated, while a secret is rotated) and its `x-portfolio-timestamp` (unix
 * seconds) is within `toleranceSeconds` of now, so a captured request cannot be replayed later.
 * The comparison is constant-time. Returns false for anything missing or malformed; never throws.
 *
 * @example
 * const body = await request.text();
 * if (!verifyWebhookSignature({ payload: body, headers: request.headers, secret })) return new Response(null, { status: 400 });
 * const event = parseWebhookEvent(body);
 */
export function verifyWebhookSignature(input: VerifyWebhookSignatureInput): boolean {
  const timestampText = header(input.headers, WEBHOOK_TIMESTAMP_HEADER)?.trim();
  const signatures = header(input.headers, WEBHOOK_SIGNATURE_HEADER);
  if (timestampText === undefined || !/^\d{1,12}$/.test(timestampText) || signatures === undefined)
    return false;
  const nowMs =
    input.now === undefined ? Date.now() : typeof input.now === "number" ? input.now : input.now.getTime();
  const tolerance = input.toleranceSeconds ?? DEFAULT_WEBHOOK_TOLERANCE_SECONDS;
  if (Math.abs(nowMs / 1000 - Number(timestampText)) > tolerance) return false;
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
  return matched;
}

/** A webhook body that is not JSON, or not an event of the contract's shape. */
export class InvalidWebhookPayloadError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "InvalidWebhookPayloadError";
  }
}

/**
 * Parses a (verified) webhook body into a typed event with `WebhookEventSchema`. Known event
 * types are checked against their schema; event types this SDK does not know yet are returned as
 * they are (`{ id, type, createdAt, data }`), never rejected, so a new event type cannot break a
 * receiver. Throws `InvalidWebhookPayloadError` for anything else.
 */
export function parseWebhookEvent(payload: string | Uint8Array): WebhookEvent {
  const text = typeof payload === "string" ? payload : new TextDecoder().decode(payload);
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    throw new InvalidWebhookPayloadError(`the webhook body is not JSON: ${(error as Error).message}`);
  }
  const result = WebhookEventSchema.safeParse(json);
  if (!result.success) {
    throw new InvalidWebhookPayloadError(
      `the webhook body is not a valid event: ${describeFieldProblems(fieldProblemsOf(result.error))}`,
    );
  }
  return result.data;
}
