import { z } from "zod";
import { AllocationSchema, canonicalAllocation } from "../sdk/contract/allocation.ts";
import { TOTAL_WEIGHT_BPS, UuidSchema } from "../sdk/contract/common.ts";
import { CreateWebhookRegistrationRequestSchema } from "../sdk/contract/webhook.ts";
import { ON_DELETE_CHOICES } from "../sdk/resources/resourceTypes.ts";

/**
 * Resource inputs as `check()` validates them. They reuse the contract's request schemas, so a
 * value the service would reject is rejected here first, before any network call.
 */

export type { OnDelete } from "../sdk/resources/resourceTypes.ts";

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
}).extend({
  // A Pulumi input is left out rather than null, so the resource takes a string or nothing (the
  // service's body also takes null; spec 2.10).
  description: z.string().max(500, "must be at most 500 characters").optional(),
  resourceUrn: ResourceUrnSchema,
  enabled: z.boolean({ error: "must be true or false" }).optional(),
  disabledReason: z.string().max(500, "must be at most 500 characters").optional(),
});
export type WebhookRegistrationInputs = z.infer<typeof WebhookRegistrationInputsSchema>;

/** A target allocation in the form stored in state: only the used fields, sorted by positionKey. */
export type TargetPosition = { positionKey: string; targetWeightBps: number };

/**
 * The allocation as a map, `{ tbills: 5000, syrupUsdc: 5000 }`: the form checked inputs keep it in.
 * The engine's diff of a map names the yield source that changed
 * (`~ targetWeightsBps: { ~ tbills: 5000 => 3000 }`), where a diff of an array would show entries
 * shifting index; that name is what a reviewer needs in a pull request.
 */
export function targetWeightsByKey(positions: readonly TargetPosition[]): Record<string, number> {
  return Object.fromEntries(canonicalAllocation(positions).map((p) => [p.positionKey, p.targetWeightBps]));
}

const CheckedWeightsSchema = z.record(z.string().min(1), z.number().int().positive().max(TOTAL_WEIGHT_BPS));

/**
 * The target allocation of inputs, canonical: from `targetWeightsBps` once check() has run (what
 * the engine passes to create, update and diff), or from the program's `positions` before.
 */
export function targetAllocationOf(inputs: Record<string, unknown>): TargetPosition[] {
  if (inputs["targetWeightsBps"] !== undefined) {
    return positionsOf(CheckedWeightsSchema.parse(inputs["targetWeightsBps"]));
  }
  return canonicalAllocation(AllocationSchema.parse(inputs["positions"]));
}

/** The program's form of an allocation map: `positions`, sorted by positionKey. */
export function positionsOf(targetWeightsBps: Record<string, number>): TargetPosition[] {
  return canonicalAllocation(
    Object.entries(targetWeightsBps).map(([positionKey, targetWeightBps]) => ({
      positionKey,
      targetWeightBps,
    })),
  );
}

/** The inputs check() hands on: the program's `positions` array replaced by its map form. */
export function withoutPositions(inputs: Record<string, unknown>): Record<string, unknown> {
  const { positions: _positions, ...rest } = inputs;
  return rest;
}
