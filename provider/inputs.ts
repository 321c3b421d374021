import { z } from "zod";
import { AllocationSchema, canonicalAllocation } from "../sdk/nodejs/contract/allocation.ts";
import { TOTAL_WEIGHT_BPS } from "../sdk/nodejs/contract/common.ts";
import type { TargetPosition } from "../sdk/nodejs/resources/strategyChangeState.ts";

/**
 * The allocation inputs in their two forms: the program's `positions` array and the map checked
 * inputs keep (the inputs' schemas are the resources' descriptors, in sdk/nodejs/resources/).
 */

export type { OnDelete } from "../sdk/nodejs/resources/resourceTypes.ts";
export type { TargetPosition } from "../sdk/nodejs/resources/strategyChangeState.ts";

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
