import { z } from "zod";
import { CreateWebhookRegistrationRequestSchema } from "../contract/webhook.ts";
import { describeResource, ResourceUrnSchema } from "./resourceDescriptor.ts";

/**
 * The inputs of a WebhookRegistration, each documented here: the class's `WebhookRegistrationArgs`
 * and the package schema read these docs (resourceDescriptor.ts's ArgsOf says why a shape of its own).
 */
export const webhookRegistrationInputs = {
  /** Absolute http(s) URL that receives the events. Changing it replaces the registration. */
  url: CreateWebhookRegistrationRequestSchema.shape.url,
  /** Event types to receive (spec 6). Changing them replaces the registration. */
  eventTypes: CreateWebhookRegistrationRequestSchema.shape.eventTypes,
  // A Pulumi input is left out rather than null, so the resource takes a string or nothing (the
  // service's body also takes null; spec 2.10).
  /** Free description. Changing it replaces the registration. */
  description: z.string().max(500, "must be at most 500 characters").optional(),
  resourceUrn: ResourceUrnSchema,
  /** False disables the registration (no events are delivered) without deleting it. Default true. */
  enabled: z.boolean({ error: "must be true or false" }).optional(),
  /** Why it is disabled; used only when `enabled` is false. */
  disabledReason: z.string().max(500, "must be at most 500 characters").optional(),
};

// The request schema's object keeps its own settings (what it does with unknown keys).
const webhookRegistrationInputsSchema = CreateWebhookRegistrationRequestSchema.pick({
  url: true,
  eventTypes: true,
}).extend(webhookRegistrationInputs);

/** WebhookRegistration, described once (resourceDescriptor.ts says what follows from it). */
export const webhookRegistrationDescriptor = describeResource({
  kind: "webhookRegistration",
  type: "WebhookRegistration",
  module: "webhookregistration",
  classFile: "sdk/nodejs/resources/webhookRegistration.ts",
  allocation: "none",
  serviceIdOutput: "registrationId",
  inputs: webhookRegistrationInputsSchema,
  /** check() hands the inputs on as they are, the event types sorted. */
  checkedInputs: webhookRegistrationInputsSchema,
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
