import type { StrategyCatalogEntry } from "./catalog.ts";
import { TOTAL_WEIGHT_BPS } from "./basisPoints.ts";
import {
  DURATION_EXAMPLES,
  compareLiquidity,
  parseIsoDurationMs,
  readIsoDuration,
  shareWithdrawableWithin,
} from "./duration.ts";
import { usdToMicros } from "./money.ts";

/**
 * What an allocation means, read against the strategy catalog: its blended rate, and how much of
 * it can be withdrawn within a processing time. Pure functions of target weights and catalog
 * entries, shared by the pull-request report and the policy pack. A key the catalog does not know
 * is reported, never guessed: it counts neither towards the rate nor towards liquidity.
 */

/** Target weights in basis points by positionKey, `{ tbills: 6000, syrupUsdc: 4000 }`. */
export type TargetWeights = Readonly<Record<string, number>>;

function catalogByKey(catalog: readonly StrategyCatalogEntry[]): Map<string, StrategyCatalogEntry> {
  return new Map(catalog.map((entry) => [entry.positionKey, entry]));
}

/** The processing times liquidity is shown within: at once, then each of the catalog's, fastest first. */
export function liquidityBounds(catalog: readonly StrategyCatalogEntry[]): string[] {
  const times = [...new Set(catalog.map((entry) => entry.maxProcessingTime))]
    // A time that does not parse is never liquid within anything: no bound to show.
    .filter((time) => (parseIsoDurationMs(time) ?? 0) > 0)
    .sort(compareLiquidity);
  return ["PT0H", ...times];
}

/** Position keys of the weights that the catalog does not list. */
export function keysMissingFromCatalog(
  weights: TargetWeights,
  catalog: readonly StrategyCatalogEntry[],
): string[] {
  const known = catalogByKey(catalog);
  return Object.keys(weights)
    .filter((key) => !known.has(key))
    .sort();
}

/**
 * The blended rate of the weights at the catalog's current rates, in bps, to one decimal:
 * Σ weight × currentRateBps / 10000. Keys missing from the catalog contribute nothing.
 */
export function blendedRateBps(weights: TargetWeights, catalog: readonly StrategyCatalogEntry[]): number {
  const known = catalogByKey(catalog);
  let weighted = 0;
  for (const [key, weight] of Object.entries(weights)) {
    const entry = known.get(key);
    if (entry !== undefined) weighted += weight * entry.currentRateBps;
  }
  return Math.round((weighted / TOTAL_WEIGHT_BPS) * 10) / 10;
}

/**
 * The share of the weights (bps) whose yield source is withdrawable within `within` (an ISO 8601
 * duration: `PT0H` for at once). A source whose processing time does not parse, or that the
 * catalog does not list, is not counted.
 */
export function withdrawableShareBps(
  weights: TargetWeights,
  catalog: readonly StrategyCatalogEntry[],
  within: string,
): number {
  const { problem } = readIsoDuration(within);
  if (problem !== undefined) throw new Error(`"${within}" must be ${DURATION_EXAMPLES}; this one ${problem}`);
  const known = catalogByKey(catalog);
  // A key the catalog does not list has no processing time, which never counts as liquid.
  return shareWithdrawableWithin(
    Object.entries(weights).map(([key, weight]) => ({
      maxProcessingTime: known.get(key)?.maxProcessingTime ?? "",
      weight,
    })),
    within,
  );
}

/** The weights (bps) per strategy type; keys missing from the catalog are left out. */
export function weightByStrategyType(
  weights: TargetWeights,
  catalog: readonly StrategyCatalogEntry[],
): Record<string, number> {
  const known = catalogByKey(catalog);
  const byType: Record<string, number> = {};
  for (const [key, weight] of Object.entries(weights)) {
    const type = known.get(key)?.strategyType;
    if (type !== undefined) byType[type] = (byType[type] ?? 0) + weight;
  }
  return byType;
}

/**
 * Σ weight × currentRateBps, exact (rates as whole millionths of a bp): the blended rate without
 * its rounding, to compare two allocations. Keys missing from the catalog contribute nothing.
 */
function weightedRate(weights: TargetWeights, catalog: readonly StrategyCatalogEntry[]): bigint {
  const known = catalogByKey(catalog);
  let total = 0n;
  for (const [key, weight] of Object.entries(weights)) {
    const entry = known.get(key);
    if (entry !== undefined) total += BigInt(weight) * usdToMicros(entry.currentRateBps);
  }
  return total;
}

/** An allocation that beats a target: it earns more at the same or better liquidity, or as much and is more liquid. */
export interface DominatingAllocation {
  weights: Record<string, number>;
  blendedRateBps: number;
  /** The share withdrawable within each processing time (PT0H first), bps, of the option and of the target. */
  withdrawable: { within: string; optionBps: number; targetBps: number }[];
}

/**
 * The first of `candidates` (a quote's options) that dominates `target`, judged from the catalog
 * alone: a blended rate at least the target's and a withdrawable share at least the target's within
 * every processing time of the catalog, strictly better in one of them. Null when none does.
 */
export function dominatingAllocation(
  target: TargetWeights,
  candidates: readonly TargetWeights[],
  catalog: readonly StrategyCatalogEntry[],
): DominatingAllocation | null {
  // Only allocations of known sources are compared: an unknown key has no rate nor liquidity.
  if (keysMissingFromCatalog(target, catalog).length > 0) return null;
  const bounds = liquidityBounds(catalog);
  const targetRate = weightedRate(target, catalog);
  const targetShares = bounds.map((within) => withdrawableShareBps(target, catalog, within));
  for (const candidate of candidates) {
    if (keysMissingFromCatalog(candidate, catalog).length > 0) continue;
    const rate = weightedRate(candidate, catalog);
    const shares = bounds.map((within) => withdrawableShareBps(candidate, catalog, within));
    const noWorse = rate >= targetRate && shares.every((share, index) => share >= targetShares[index]!);
    const better = rate > targetRate || shares.some((share, index) => share > targetShares[index]!);
    if (noWorse && better) {
      return {
        weights: { ...candidate },
        blendedRateBps: blendedRateBps(candidate, catalog),
        withdrawable: bounds.map((within, index) => ({
          within,
          optionBps: shares[index]!,
          targetBps: targetShares[index]!,
        })),
      };
    }
  }
  return null;
}
