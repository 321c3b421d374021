import { z } from "zod";
import { TOTAL_WEIGHT_BPS } from "./common.ts";
import { quoteValue } from "./errors.ts";

/**
 * One position of a requested allocation. Only `positionKey` and `targetWeightBps` are used;
 * extra fields (such as a quote option's `currentApy` or `maxProcessingTime`) are accepted and
 * ignored (spec 4.4), so a quote option's positions can be passed as they are.
 */
export const PositionInputSchema = z.looseObject({
  positionKey: z
    .string({ error: "must be a yield-source positionKey string, for example tbills" })
    .min(1, "must not be empty; use a positionKey from GET /v2/portfolio-wallets/strategies"),
  targetWeightBps: z
    .number({ error: "must be a number of basis points (10000 = 100%)" })
    .int("must be a whole number of basis points")
    .positive("must be greater than 0; remove the position instead of giving it weight 0")
    .max(TOTAL_WEIGHT_BPS, `must be at most ${TOTAL_WEIGHT_BPS}`),
});
export type PositionInput = z.infer<typeof PositionInputSchema>;

/**
 * A whole target allocation, with the rules that span positions: weights sum to exactly
 * 10000 bps and each positionKey appears once. Every problem is reported, not just the first.
 */
export const AllocationSchema = z
  .array(z.unknown(), { error: "must be an array of { positionKey, targetWeightBps }" })
  .min(1, "must hold at least one position")
  // One refinement judges the positions and the rules that span them, so every problem is
  // reported at once (zod would skip an array-level rule once a single position has failed).
  .superRefine((items, ctx) => {
    const positions: PositionInput[] = [];
    items.forEach((item, index) => {
      const parsed = PositionInputSchema.safeParse(item);
      if (parsed.success) positions.push(parsed.data);
      else
        for (const issue of parsed.error.issues)
          ctx.addIssue({ code: "custom", path: [index, ...issue.path], message: issue.message });
    });
    const seen = new Map<string, number>();
    items.forEach((item, index) => {
      const key: unknown = (item as { positionKey?: unknown } | null)?.positionKey;
      if (typeof key !== "string") return;
      const first = seen.get(key);
      if (first !== undefined) {
        ctx.addIssue({
          code: "custom",
          path: [index, "positionKey"],
          message: `duplicate positionKey ${quoteValue(key)} (also at positions[${first}]); list each yield source once`,
        });
      } else {
        seen.set(key, index);
      }
    });
    const weights = items.map((item) => (item as { targetWeightBps?: unknown } | null)?.targetWeightBps);
    // A sum is only meaningful when every weight is a number; a non-numeric one is reported above.
    if (!weights.every((w): w is number => typeof w === "number" && Number.isFinite(w))) return;
    const total = weights.reduce((sum, w) => sum + w, 0);
    if (total !== TOTAL_WEIGHT_BPS) {
      ctx.addIssue({
        code: "custom",
        path: [],
        message: `target weights sum to ${total} bps; they must sum to exactly ${TOTAL_WEIGHT_BPS} (100%)`,
      });
    }
  })
  .transform((items) => items.map((item) => PositionInputSchema.parse(item)));
export type Allocation = z.infer<typeof AllocationSchema>;

/** One position of a target allocation, as the service uses it (spec 4.4): the key and its weight. */
export type TargetPosition = { positionKey: string; targetWeightBps: number };

/** An allocation as a map, `{ tbills: 6000, syrupUsdc: 4000 }`: weights in bps by positionKey. */
export type WeightsByKey = Record<string, number>;

const byPositionKey = (a: TargetPosition, b: TargetPosition) =>
  a.positionKey < b.positionKey ? -1 : a.positionKey > b.positionKey ? 1 : 0;

/**
 * The canonical form of an allocation: only the fields the service uses, sorted by positionKey.
 * Two allocations are the same target exactly when their canonical forms are equal.
 */
export function canonicalAllocation(positions: readonly TargetPosition[]): TargetPosition[] {
  return positions
    .map((p) => ({ positionKey: p.positionKey, targetWeightBps: p.targetWeightBps }))
    .sort(byPositionKey);
}

/**
 * The map of positions in the order they are listed (a later duplicate key wins): a tolerant
 * reader's view of positions nothing has checked yet (a preview's, a recorded change's).
 */
export function weightsByKeyOf(positions: readonly TargetPosition[]): WeightsByKey {
  return Object.fromEntries(positions.map((p) => [p.positionKey, p.targetWeightBps]));
}

/**
 * The map of positions in the order they are listed, a repeated key's weights added: the policy
 * pack's view of positions nothing has checked yet. check() refuses a repeated key, so this and
 * weightsByKeyOf differ on no allocation that passes it.
 */
export function summedWeightsByKeyOf(positions: readonly TargetPosition[]): WeightsByKey {
  const weights: WeightsByKey = {};
  for (const p of positions) weights[p.positionKey] = (weights[p.positionKey] ?? 0) + p.targetWeightBps;
  return weights;
}

/**
 * The weight of `positionKey` in a map, 0 where the map has none. Only the map's own keys count:
 * a key named as one of every object's members (`constructor`, `toString`) reads 0 where the map
 * lacks it, not the member.
 */
export function weightOf(weights: Readonly<WeightsByKey>, positionKey: string): number {
  return Object.hasOwn(weights, positionKey) ? weights[positionKey]! : 0;
}

/** The positions of a map, in the map's order (canonical only when the map is). */
export function positionsOfWeights(weights: Readonly<WeightsByKey>): TargetPosition[] {
  return Object.entries(weights).map(([positionKey, targetWeightBps]) => ({ positionKey, targetWeightBps }));
}

/**
 * A target allocation, canonical once (only the fields the service uses, sorted by positionKey),
 * in the two forms it is used in: `positions`, what the service is sent and the strategy change
 * records, and `weightsBps`, the map state keeps and diffs show (`~ tbills: 5000 => 3000` names
 * the yield source, where a diff of an array would show entries shifting index). The provider
 * makes it once from the checked inputs and hands it on; nothing converts between the forms by hand.
 */
export class TargetAllocation {
  /** The positions, canonical. */
  readonly positions: readonly TargetPosition[];

  private constructor(canonical: TargetPosition[]) {
    this.positions = canonical;
  }

  /** From positions in any order (extra fields, such as a quote option's, are dropped). */
  static ofPositions(positions: readonly TargetPosition[]): TargetAllocation {
    return new TargetAllocation(canonicalAllocation(positions));
  }

  /** From the map form (checked inputs, state's `targetWeightsBps`). */
  static ofWeights(weights: Readonly<WeightsByKey>): TargetAllocation {
    return new TargetAllocation(positionsOfWeights(weights).sort(byPositionKey));
  }

  /** The map form, sorted by positionKey: what state keeps and the diff shows. */
  get weightsBps(): WeightsByKey {
    return weightsByKeyOf(this.positions);
  }

  /** The positions as a fresh array, for a request body or a record in state. */
  toPositions(): TargetPosition[] {
    return this.positions.map((p) => ({ ...p }));
  }

  /** Whether `other` is the same target (a TargetAllocation, or positions in any order). */
  same(other: AllocationLike): boolean {
    return sameAllocation(this, other);
  }
}

/** An allocation as a TargetAllocation, or as positions in any order (a wallet's strategyConfig). */
export type AllocationLike = TargetAllocation | readonly TargetPosition[];

const canonicalOf = (allocation: AllocationLike) =>
  allocation instanceof TargetAllocation ? allocation.positions : canonicalAllocation(allocation);

/** The positions of an allocation, as a fresh array: a TargetAllocation's canonical ones, or positions as given. */
export function positionsIn(allocation: AllocationLike): TargetPosition[] {
  return allocation instanceof TargetAllocation ? allocation.toPositions() : [...allocation];
}

/** Whether two allocations are the same target; an allocation already canonical is not sorted again. */
export function sameAllocation(a: AllocationLike, b: AllocationLike): boolean {
  return JSON.stringify(canonicalOf(a)) === JSON.stringify(canonicalOf(b));
}

/** Whether two maps are the same target, whatever their key order. */
export function sameWeights(a: Readonly<WeightsByKey>, b: Readonly<WeightsByKey>): boolean {
  return TargetAllocation.ofWeights(a).same(TargetAllocation.ofWeights(b));
}

/**
 * A checked allocation in its map form, as check() hands it on (`targetWeightsBps`), read into the
 * one value: what create, update and diff receive.
 */
export const CheckedWeightsSchema = z
  .record(z.string().min(1), z.number().int().positive().max(TOTAL_WEIGHT_BPS))
  .transform((weights) => TargetAllocation.ofWeights(weights));
