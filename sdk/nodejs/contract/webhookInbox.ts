import { z } from "zod";
import { DateTimeSchema } from "./common.ts";

/**
 * A webhook inbox: a receiver the sandbox hosts itself, for tests (docs/sandbox.md "Webhook
 * inboxes"). Not part of the service. Each belongs to one organization and is named in its URL,
 * `<sandbox>/_sandbox/inboxes/<name>`; what it records and answers is read and set through these shapes.
 */

/** Where inboxes live on a sandbox: the receiver URL and the API share it. */
export const INBOX_PATH_PREFIX = "/_sandbox/inboxes";

export const INBOX_NAME_RULE =
  "must be 1 to 63 lowercase letters, digits and hyphens, starting with a letter or digit";
export const InboxNameSchema = z.string().regex(/^[a-z0-9][a-z0-9-]{0,62}$/, INBOX_NAME_RULE);

/** The most an inbox waits before it answers (the sender's own timeout is usually shorter). */
export const MAX_INBOX_DELAY_MS = 60_000;

/** What an inbox answers every delivery: a status code after a delay. */
export const InboxAnswerSchema = z.object({
  status: z
    .number({ error: "must be a status code from 200 to 599" })
    .int("must be a status code from 200 to 599")
    .min(200, "must be a status code from 200 to 599")
    .max(599, "must be a status code from 200 to 599"),
  delayMs: z
    .number({ error: `must be a whole number of milliseconds from 0 to ${MAX_INBOX_DELAY_MS}` })
    .int(`must be a whole number of milliseconds from 0 to ${MAX_INBOX_DELAY_MS}`)
    .min(0, `must be a whole number of milliseconds from 0 to ${MAX_INBOX_DELAY_MS}`)
    .max(MAX_INBOX_DELAY_MS, `must be a whole number of milliseconds from 0 to ${MAX_INBOX_DELAY_MS}`),
});
export type InboxAnswer = z.infer<typeof InboxAnswerSchema>;

/** PUT /_sandbox/inboxes/{name}: makes the inbox, or changes its answer; a field left out stays (200 and 0 for a new inbox). */
export const ConfigureInboxRequestSchema = InboxAnswerSchema.partial().strict();
export type ConfigureInboxRequest = z.infer<typeof ConfigureInboxRequestSchema>;

export const WebhookInboxSchema = z.object({
  name: z.string(),
  /** The URL to register: deliveries of the organization's registrations to it land here. */
  url: z.string(),
  answer: InboxAnswerSchema,
  /** Deliveries kept now, and the most kept (the oldest goes first). */
  deliveriesKept: z.number().int(),
  capacity: z.number().int(),
  createdAt: DateTimeSchema,
  updatedAt: DateTimeSchema,
});
export type WebhookInbox = z.infer<typeof WebhookInboxSchema>;

export const WebhookInboxListSchema = z.object({ data: z.array(WebhookInboxSchema) });
export type WebhookInboxList = z.infer<typeof WebhookInboxListSchema>;

/** One delivery attempt as the inbox received it. */
export const InboxDeliverySchema = z.object({
  id: z.string(),
  /** Real time (the signature's timestamp is checked against it). */
  receivedAt: DateTimeSchema,
  eventId: z.string(),
  eventType: z.string(),
  registrationId: z.string(),
  /** The delivery (`GET /_sandbox/webhook-deliveries`) and which of its attempts this was, from 1. */
  deliveryId: z.string(),
  attempt: z.number().int(),
  headers: z.array(z.object({ name: z.string(), value: z.string() })),
  /** The body exactly as sent. */
  body: z.string(),
  /** The signature checked against the registration's secret, as a receiver would (the secret itself is never kept). */
  signature: z.object({ valid: z.boolean(), reason: z.string().nullable() }),
  /** What the inbox answered. */
  answer: InboxAnswerSchema,
});
export type InboxDelivery = z.infer<typeof InboxDeliverySchema>;

export const INBOX_DELIVERY_LIMIT_RULE = "must be a whole number from 1 to 200";
export const InboxDeliveryQuerySchema = z.object({
  eventType: z.string().min(1).max(200).optional(),
  limit: z.coerce
    .number({ error: INBOX_DELIVERY_LIMIT_RULE })
    .int(INBOX_DELIVERY_LIMIT_RULE)
    .min(1, INBOX_DELIVERY_LIMIT_RULE)
    .max(200, INBOX_DELIVERY_LIMIT_RULE)
    .default(50),
});
export const InboxDeliveryListSchema = z.object({ data: z.array(InboxDeliverySchema) });
export type InboxDeliveryList = z.infer<typeof InboxDeliveryListSchema>;
