import type * as pulumi from "@pulumi/pulumi";
import { resourceClassOf } from "./packageResource.ts";
import { dynamicTypeToken, type ArgsOf } from "./resourceDescriptor.ts";
import type { webhookRegistrationInputs } from "./webhookRegistrationDescriptor.ts";
import { webhookRegistrationDescriptor } from "./webhookRegistrationDescriptor.ts";

export const WEBHOOK_REGISTRATION_TYPE = dynamicTypeToken(webhookRegistrationDescriptor);

/** Inputs of a {@link WebhookRegistration}; each is documented in webhookRegistrationDescriptor.ts. */
export type WebhookRegistrationArgs = ArgsOf<typeof webhookRegistrationInputs>;

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
