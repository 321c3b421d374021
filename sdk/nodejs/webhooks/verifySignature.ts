import {
  WebhookEventSchema,
  describeFieldProblems,
  fieldProblemsOf,
  type WebhookEvent,
} from "../contract/index.ts";
import { checkWebhookSignature, type VerifyWebhookSignatureInput } from "../contract/webhookSignature.ts";

export {
  DEFAULT_WEBHOOK_TOLERANCE_SECONDS,
  type VerifyWebhookSignatureInput,
  type WebhookHeaders,
} from "../contract/webhookSignature.ts";

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
  return checkWebhookSignature(input).valid;
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
