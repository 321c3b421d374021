import { z } from "zod";
import { AllocationSchema, canonicalAllocation } from "../sdk/contract/allocation.ts";
import { UuidSchema } from "../sdk/contract/common.ts";
import { CreateWebhookRegistrationRequestSchema } from "../sdk/contract/webhook.ts";

/**
 * Resource inputs as `check()` validates them. They reuse the contract's request schemas, so a
 * value the service would reject is rejected here first, before any network call.
 */

/** What `pulumi destroy` does with a wallet (the service has no wallet delete). */
export const ON_DELETE_CHOICES = ["fail-if-funded", "retain"] as const;
export type OnDelete = (typeof ON_DELETE_CHOICES)[number];

const ResourceUrnSchema = z.string().min(1, "is set by the resource class; do not pass it yourself");

export const PortfolioWalletInputsSchema = z.object({
  resourceUrn: ResourceUrnSchema,
  positions: AllocationSchema,
  label: z.string().max(200, "must be at most 200 characters").optional(),
  onDelete: z
    .enum(ON_DELETE_CHOICES, { error: 'must be "fail-if-funded" (the default) or "retain"' })
    .optional(),
  adoptWalletId: UuidSchema.optional(),
});
export type PortfolioWalletInputs = z.infer<typeof PortfolioWalletInputsSchema>;

export const WalletStrategyInputsSchema = z.object({
  resourceUrn: ResourceUrnSchema,
  walletId: UuidSchema,
  positions: AllocationSchema,
});
export type WalletStrategyInputs = z.infer<typeof WalletStrategyInputsSchema>;

export const WebhookRegistrationInputsSchema = CreateWebhookRegistrationRequestSchema.pick({
  url: true,
  eventTypes: true,
  description: true,
}).extend({
  resourceUrn: ResourceUrnSchema,
  enabled: z.boolean({ error: "must be true or false" }).optional(),
  disabledReason: z.string().max(500, "must be at most 500 characters").optional(),
});
export type WebhookRegistrationInputs = z.infer<typeof WebhookRegistrationInputsSchema>;

/** A target allocation in the form stored in state: only the used fields, sorted by positionKey. */
export type TargetPosition = { positionKey: string; targetWeightBps: number };

/**
 * The allocation as a map, `{ tbills: 5000, syrupUsdc: 5000 }`. It is stored beside `positions`
 * because the engine's diff of a map names the yield source that changed
 * (`~ targetWeightsBps: { ~ tbills: 5000 => 3000 }`), which is what a reviewer needs in a pull request.
 */
export function targetWeightsByKey(positions: readonly TargetPosition[]): Record<string, number> {
  return Object.fromEntries(canonicalAllocation(positions).map((p) => [p.positionKey, p.targetWeightBps]));
}
