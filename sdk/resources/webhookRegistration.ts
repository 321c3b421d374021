import * as pulumi from "@pulumi/pulumi";
import type { EventType } from "../contract/events.ts";
import { typeTokenOf } from "./resourceTypes.ts";
import { PackageResource } from "./packageResource.ts";

export const WEBHOOK_REGISTRATION_TYPE = typeTokenOf("webhookRegistration");

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
export class WebhookRegistration extends PackageResource {
  /** The registration's id at the service (also the resource id). */
  declare readonly registrationId: pulumi.Output<string>;
  /** Absolute http(s) URL that receives the events. */
  declare readonly url: pulumi.Output<string>;
  /** Sorted event types. */
  declare readonly eventTypes: pulumi.Output<string[]>;
  /** Free description. */
  declare readonly description: pulumi.Output<string | undefined>;
  /** Whether events are delivered (the registration is `active`). */
  declare readonly enabled: pulumi.Output<boolean>;
  /** `active` or `disabled`. */
  declare readonly status: pulumi.Output<string>;
  /** When the registration was created (ISO 8601). */
  declare readonly createdAt: pulumi.Output<string>;
  /** When it was disabled (ISO 8601), or null while active. */
  declare readonly disabledAt: pulumi.Output<string | null>;
  /** Why it was disabled, when it is. */
  declare readonly disabledReason: pulumi.Output<string | undefined>;
  /** HMAC signing secret for verifying deliveries (see `verifyWebhookSignature`). A secret output. */
  declare readonly secret: pulumi.Output<string | null>;

  constructor(name: string, args: WebhookRegistrationArgs, opts?: pulumi.CustomResourceOptions) {
    super(
      "webhookRegistration",
      name,
      {
        ...args,
        registrationId: undefined,
        status: undefined,
        createdAt: undefined,
        disabledAt: undefined,
        secret: undefined,
      },
      pulumi.mergeOptions(opts, { additionalSecretOutputs: ["secret"] }),
    );
  }
}
