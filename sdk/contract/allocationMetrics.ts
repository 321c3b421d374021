import type { StrategyCatalogEntry } from "./catalog.ts";
import { TOTAL_WEIGHT_BPS } from "./common.ts";

/**
 * What an allocation means, read against the strategy catalog: its blended rate, and how much of
 * it can be withdrawn within a processing time. Pure functions of target weights and catalog
 * entries, shared by the pull-request report and the policy pack. A key the catalog does not know
 * is reported, never guessed: it counts neither towards the rate nor towards liquidity.
 */

/** Target weights in basis points by positionKey, `{ tbills: 6000, syrupUsdc: 4000 }`. */
export type TargetWeights = Readonly<Record<string, number>>;

const DURATION =
  /^P(?:(\d+(?:[.,]\d+)?)Y)?(?:(\d+(?:[.,]\d+)?)M)?(?:(\d+(?:[.,]\d+)?)W)?(?:(\d+(?:[.,]\d+)?)D)?(?:T(?:(\d+(?:[.,]\d+)?)H)?(?:(\d+(?:[.,]\d+)?)M)?(?:(\d+(?:[.,]\d+)?)S)?)?$/;
const SECONDS = [365 * 86_400, 30 * 86_400, 7 * 86_400, 86_400, 3_600, 60, 1];

/**
 * Seconds in an ISO 8601 duration (`PT0H` → 0, `PT24H` → 86400, `P1D`; a year counts 365 days, a
 * month 30), or null when the text is not one. An unparseable processing time is never counted as
 * liquid: overstating what can be withdrawn is the mistake that costs money.
 */
export function durationSeconds(duration: string): number | null {
  const match = DURATION.exec(duration);
  if (match === null || duration === "P" || duration.endsWith("T")) return null;
  return SECONDS.reduce((total, unit, index) => {
    const amount = match[index + 1];
    return amount === undefined ? total : total + Number(amount.replace(",", ".")) * unit;
  }, 0);
}

function catalogByKey(catalog: readonly StrategyCatalogEntry[]): Map<string, StrategyCatalogEntry> {
  return new Map(catalog.map((entry) => [entry.positionKey, entry]));
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
  const bound = durationSeconds(within);
  if (bound === null) throw new Error(`"${within}" is not an ISO 8601 duration such as PT0H or PT24H`);
  const known = catalogByKey(catalog);
  let share = 0;
  for (const [key, weight] of Object.entries(weights)) {
    const seconds = durationSeconds(known.get(key)?.maxProcessingTime ?? "");
    if (seconds !== null && seconds <= bound) share += weight;
  }
  return share;
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
