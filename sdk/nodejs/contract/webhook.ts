import { z } from "zod";
import { DateTimeSchema, UuidSchema, openEnum, pageOf } from "./common.ts";
import { EventTypeSchema } from "./events.ts";

export const WEBHOOK_STATUSES = ["active", "disabled"] as const;

/** A webhook registration (spec 2.10). */
export const WebhookRegistrationSchema = z.looseObject({
  id: z.string(),
  url: z.string(),
  status: openEnum(WEBHOOK_STATUSES),
  eventTypes: z.array(z.string()),
  description: z.string().nullish(),
  createdAt: DateTimeSchema,
  disabledAt: DateTimeSchema.nullish(),
  disabledReason: z.string().nullish(),
});
export type WebhookRegistration = z.infer<typeof WebhookRegistrationSchema>;

/**
 * The creation answer: the registration plus its signing secret, which is returned this once
 * and never again (see docs/spec-gaps.md and docs/webhooks.md).
 */
export const CreatedWebhookRegistrationSchema = WebhookRegistrationSchema.extend({
  secret: z.string(),
});
export type CreatedWebhookRegistration = z.infer<typeof CreatedWebhookRegistrationSchema>;

const httpUrl = z
  .url({
    protocol: /^https?$/,
    error: "must be an absolute http(s) URL, for example https://example.com/hooks",
  })
  .max(2048, "must be at most 2048 characters");

/**
 * POST /webhooks/registrations body (spec 4.13). `requestId` is optional and, when given, makes
 * the creation idempotent like a wallet's (a documented choice; see docs/spec-gaps.md).
 */
export const CreateWebhookRegistrationRequestSchema = z.looseObject({
  requestId: UuidSchema.optional(),
  url: httpUrl,
  eventTypes: z
    .array(EventTypeSchema, { error: "must be an array of event types" })
    .min(1, "must list at least one event type")
    .refine((types) => new Set(types).size === types.length, "must not list an event type twice"),
  /** Free text; null is the same as leaving it out (spec 2.10: "string or null"). */
  description: z
    .string({ error: "must be a string of at most 500 characters, or null" })
    .max(500, "must be at most 500 characters")
    .nullish(),
});
export type CreateWebhookRegistrationRequest = z.infer<typeof CreateWebhookRegistrationRequestSchema>;

/** PATCH /webhooks/registrations/{id}/status body (spec 4.13). */
export const WebhookStatusUpdateRequestSchema = z.looseObject({
  status: z.enum(WEBHOOK_STATUSES, { error: 'must be "active" or "disabled"' }),
  disabledReason: z.string().max(500, "must be at most 500 characters").optional(),
});
export type WebhookStatusUpdateRequest = z.infer<typeof WebhookStatusUpdateRequestSchema>;

/** GET /webhooks/registrations (not shown in the spec; same list shape as the others). */
export const WebhookRegistrationListSchema = pageOf(WebhookRegistrationSchema);
export type WebhookRegistrationList = z.infer<typeof WebhookRegistrationListSchema>;

/** Header names of a signed webhook delivery (scheme not shown in the spec; see docs/webhooks.md). */
export const WEBHOOK_SIGNATURE_HEADER = "x-portfolio-signature";
export const WEBHOOK_TIMESTAMP_HEADER = "x-portfolio-timestamp";
export const WEBHOOK_EVENT_ID_HEADER = "x-portfolio-event-id";
