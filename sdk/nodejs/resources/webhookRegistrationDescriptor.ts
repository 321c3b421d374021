import { z } from "zod";
import { CreateWebhookRegistrationRequestSchema } from "../contract/webhook.ts";
import { describeResource, ResourceUrnSchema } from "./resourceDescriptor.ts";

/** WebhookRegistration, described once (resourceDescriptor.ts says what follows from it). */
export const webhookRegistrationDescriptor = describeResource({
  kind: "webhookRegistration",
  type: "WebhookRegistration",
  module: "webhookregistration",
  classFile: "sdk/nodejs/resources/webhookRegistration.ts",
  allocation: "none",
  serviceIdOutput: "registrationId",
  inputs: CreateWebhookRegistrationRequestSchema.pick({ url: true, eventTypes: true }).extend({
    // A Pulumi input is left out rather than null, so the resource takes a string or nothing (the
    // service's body also takes null; spec 2.10).
    description: z.string().max(500, "must be at most 500 characters").optional(),
    resourceUrn: ResourceUrnSchema,
    enabled: z.boolean({ error: "must be true or false" }).optional(),
    disabledReason: z.string().max(500, "must be at most 500 characters").optional(),
  }),
  outputs: z.object({
    /** The registration's id at the service (also the resource id). */
    registrationId: z.string(),
    /** Absolute http(s) URL that receives the events. */
    url: z.string(),
    /** Sorted event types. */
    eventTypes: z.array(z.string()),
    /** Free description. */
    description: z.string().optional(),
    /** Whether events are delivered (the registration is `active`). */
    enabled: z.boolean(),
    /** Why it was disabled, when it is. */
    disabledReason: z.string().optional(),
    /** `active` or `disabled`. */
    status: z.string(),
    /** When the registration was created (ISO 8601). */
    createdAt: z.string(),
    /** When it was disabled (ISO 8601), or null while active. */
    disabledAt: z.string().nullable(),
    /** HMAC signing secret for verifying deliveries (see `verifyWebhookSignature`). A secret output. */
    secret: z.string().nullable(),
  }),
  secretOutputs: ["secret"],
  secretCarriesOver: {},
});
