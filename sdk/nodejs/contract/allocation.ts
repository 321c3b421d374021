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

/**
 * The canonical form of an allocation: only the fields the service uses, sorted by positionKey.
 * Two allocations are the same target exactly when their canonical forms are equal.
 */
export function canonicalAllocation(
  positions: readonly { positionKey: string; targetWeightBps: number }[],
): { positionKey: string; targetWeightBps: number }[] {
  return positions
    .map((p) => ({ positionKey: p.positionKey, targetWeightBps: p.targetWeightBps }))
    .sort((a, b) => (a.positionKey < b.positionKey ? -1 : a.positionKey > b.positionKey ? 1 : 0));
}

export function sameAllocation(
  a: readonly { positionKey: string; targetWeightBps: number }[],
  b: readonly { positionKey: string; targetWeightBps: number }[],
): boolean {
  return JSON.stringify(canonicalAllocation(a)) === JSON.stringify(canonicalAllocation(b));
}
