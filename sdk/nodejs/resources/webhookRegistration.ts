import type * as pulumi from "@pulumi/pulumi";
import type { EventType } from "../contract/events.ts";
import { resourceClassOf } from "./packageResource.ts";
import { dynamicTypeToken } from "./resourceDescriptor.ts";
import { webhookRegistrationDescriptor } from "./webhookRegistrationDescriptor.ts";

export const WEBHOOK_REGISTRATION_TYPE = dynamicTypeToken(webhookRegistrationDescriptor);

/** Inputs of a {@link WebhookRegistration}. */
export interface WebhookRegistrationArgs {
  /** Absolute http(s) URL that receives the events. Changing it replaces the registration. */
  url: pulumi.Input<string>;
  /** Event types to receive (spec 6). Changing them replaces the registration. */
  eventTypes: pulumi.Input<pulumi.Input<EventType>[]>;
  /** Free description. Changing it replaces the registration. */
  description?: pulumi.Input<string>;
  /** False disables the registration (no events are delivered) without deleting it. Default true. */
  enabled?: pulumi.Input<boolean>;
  /** Why it is disabled; used only when `enabled` is false. */
  disabledReason?: pulumi.Input<string>;
}

/**
 * A webhook registration. The signing secret the service returns at creation is exposed as the
 * Pulumi secret output `secret` (encrypted in state). The service cannot change the url, event
 * types or description in place, so changing them replaces the registration (a new secret).
 */
export class WebhookRegistration extends resourceClassOf(webhookRegistrationDescriptor) {
  // Its output properties, their types and docs: the descriptor's outputs (webhookRegistrationDescriptor.ts).
  constructor(name: string, args: WebhookRegistrationArgs, opts?: pulumi.CustomResourceOptions) {
    super(name, args, opts);
  }
}
