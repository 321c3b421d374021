// The sandbox's quote engine (spec 1.2, 2.6, 4.1): turns a minimum APY and liquidity constraints
// into a small set of Pareto-optimal allocations across the yield-source catalog.
//
// Why no linear programming: liquidity constraints are nested ("at least m bps withdrawable within
// t"), so once each source is reduced to (processing time, rate), only the sources on the
// speed/rate frontier matter and the optimal allocations have closed greedy forms. See the proof
// sketches in the JSDoc of `frontierOf` and `maxApyHonouringLiquidity`.
import type { StrategyCatalogEntry } from "../../sdk/nodejs/contract/catalog.ts";
import { TOTAL_WEIGHT_BPS } from "../../sdk/nodejs/contract/common.ts";
import { isWithdrawableWithin, liquidityDelayMs } from "../../sdk/nodejs/contract/duration.ts";
import type {
  LiquidityConstraint,
  QuoteOption,
  QuotePosition,
  QuoteRequest,
} from "../../sdk/nodejs/contract/quote.ts";

/** A catalog entry reduced to what the engine ranks by. */
type Source = {
  entry: StrategyCatalogEntry;
  /** `maxProcessingTime` in ms; `Infinity` when it does not parse (never liquid: sdk/nodejs/contract/duration.ts). */
  delayMs: number;
};

/** Weight in bps per source; the engine only builds allocations summing to 10000. */
type Allocation = ReadonlyMap<Source, number>;

/**
 * Whether the request excludes a catalog entry: by `strategyType` through `yieldSourceTypeExclusions`,
 * or by `positionKey` or `asset` through `yieldSourceExclusions` (spec 4.1). Exact, case-sensitive
 * match, since keys and assets are case-significant (`syrupUSDC`).
 */
export function isExcludedByRequest(entry: StrategyCatalogEntry, request: QuoteRequest): boolean {
  const byType = request.yieldSourceTypeExclusions ?? [];
  const byKeyOrAsset = request.yieldSourceExclusions ?? [];
  return (
    byType.includes(entry.strategyType) ||
    byKeyOrAsset.includes(entry.positionKey) ||
    byKeyOrAsset.includes(entry.asset)
  );
}

/**
 * The sources worth allocating to, fastest first, with strictly increasing rates. A source is
 * dropped when another is at least as fast and earns at least as much: moving weight to that one
 * never lowers the APY nor the share withdrawable within any duration, so every optimal
 * allocation (in APY or in liquidity) exists over this frontier. Ties keep the lowest positionKey,
 * so the result does not depend on catalog order.
 */
function frontierOf(sources: readonly Source[]): Source[] {
  const ranked = [...sources].sort(
    (a, b) =>
      a.delayMs - b.delayMs ||
      b.entry.currentRateBps - a.entry.currentRateBps ||
      compareText(a.entry.positionKey, b.entry.positionKey),
  );
  const frontier: Source[] = [];
  for (const source of ranked) {
    const last = frontier.at(-1);
    if (last === undefined || source.entry.currentRateBps > last.entry.currentRateBps) frontier.push(source);
  }
  return frontier;
}

/**
 * The highest-APY allocation that keeps every satisfiable liquidity constraint (a constraint is
 * unsatisfiable only when no eligible source is fast enough and it asks for more than 0 bps).
 * Over the frontier the constraints become lower bounds on prefix sums (weight in the j fastest
 * sources); since rates rise with j, APY = r_k·10000 − Σ_{j<k} prefix_j·(r_{j+1} − r_j) is
 * maximized by the smallest prefix sums the bounds allow, which are integers.
 */
function maxApyHonouringLiquidity(
  frontier: readonly Source[],
  constraints: readonly LiquidityConstraint[],
): Allocation {
  const minPrefix = frontier.map(() => 0);
  for (const constraint of constraints) {
    // The frontier is fastest first, so the sources within the limit are a prefix of it.
    const covered = frontier.filter((source) =>
      isWithdrawableWithin(source.entry.maxProcessingTime, constraint.maxProcessingTime),
    ).length;
    if (covered > 0) minPrefix[covered - 1] = Math.max(minPrefix[covered - 1] ?? 0, constraint.minWeightBps);
  }
  const allocation = new Map<Source, number>();
  let prefix = 0;
  frontier.forEach((source, index) => {
    const isLast = index === frontier.length - 1;
    // Prefix sums never decrease, so a bound on a faster prefix carries over to every slower one.
    const target = isLast
      ? TOTAL_WEIGHT_BPS
      : Math.min(TOTAL_WEIGHT_BPS, Math.max(prefix, minPrefix[index] ?? 0));
    allocation.set(source, target - prefix);
    prefix = target;
  });
  return allocation;
}

/**
 * The most liquid allocation whose blended rate reaches `minApyBps`, or `undefined` when even the
 * fastest-earning source falls short. "Most liquid" is lexicographic: the largest share in the
 * fastest source, then in the two fastest, and so on. Starting from everything in the
 * highest-rate source, each faster source in turn takes as much as the remaining APY slack pays for.
 */
function mostLiquidReachingApy(frontier: readonly Source[], minApyBps: number): Allocation | undefined {
  const slowest = frontier.at(-1);
  if (slowest === undefined || slowest.entry.currentRateBps < minApyBps) return undefined;
  const allocation = new Map<Source, number>(frontier.map((source) => [source, 0]));
  allocation.set(slowest, TOTAL_WEIGHT_BPS);
  for (const source of frontier.slice(0, -1)) {
    const costPerBps = slowest.entry.currentRateBps - source.entry.currentRateBps;
    let moved = Math.min(
      allocation.get(slowest) ?? 0,
      Math.floor((weightedRateSum(allocation) - minApyBps * TOTAL_WEIGHT_BPS) / costPerBps),
    );
    // Floating-point rates may round the floor up by one; never trade below the target.
    while (
      moved > 0 &&
      weightedRateSum(shift(allocation, slowest, source, moved)) < minApyBps * TOTAL_WEIGHT_BPS
    ) {
      moved -= 1;
    }
    if (moved > 0) allocation.set(slowest, (allocation.get(slowest) ?? 0) - moved).set(source, moved);
  }
  return allocation;
}

function shift(allocation: Allocation, from: Source, to: Source, bps: number): Allocation {
  return new Map(allocation)
    .set(from, (allocation.get(from) ?? 0) - bps)
    .set(to, (allocation.get(to) ?? 0) + bps);
}

function weightedRateSum(allocation: Allocation): number {
  let sum = 0;
  for (const [source, weightBps] of allocation) sum += weightBps * source.entry.currentRateBps;
  return sum;
}

function blendedRateBps(allocation: Allocation): number {
  return weightedRateSum(allocation) / TOTAL_WEIGHT_BPS;
}

/** Checks an allocation against every requested constraint, exactly as a client would read it. */
function meetsEveryConstraint(allocation: Allocation, request: QuoteRequest): boolean {
  if (request.minApyTargetBps !== undefined && blendedRateBps(allocation) < request.minApyTargetBps)
    return false;
  return (request.liquidityConstraints ?? []).every((constraint) => {
    let withinLimitBps = 0;
    for (const [source, weightBps] of allocation) {
      if (isWithdrawableWithin(source.entry.maxProcessingTime, constraint.maxProcessingTime))
        withinLimitBps += weightBps;
    }
    return withinLimitBps >= constraint.minWeightBps;
  });
}

function toQuoteOption(
  allocation: Allocation,
  request: QuoteRequest,
  optimizedFor?: "APY" | "LIQUIDITY" | "BALANCED",
): QuoteOption {
  const positions: QuotePosition[] = [...allocation]
    .filter(([, weightBps]) => weightBps > 0)
    .sort(([a], [b]) => a.delayMs - b.delayMs || compareText(a.entry.positionKey, b.entry.positionKey))
    .map(([source, targetWeightBps]) => ({
      positionKey: source.entry.positionKey,
      targetWeightBps,
      currentApy: source.entry.currentRateBps,
      maxProcessingTime: source.entry.maxProcessingTime,
    }));
  const option: QuoteOption = {
    strategyConfig: { positions },
    blendedRateBps: blendedRateBps(allocation),
    constraintsSatisfied: meetsEveryConstraint(allocation, request),
  };
  if (optimizedFor !== undefined) option.optimizedFor = optimizedFor;
  return option;
}

function allocationKey(allocation: Allocation): string {
  return [...allocation]
    .filter(([, weightBps]) => weightBps > 0)
    .map(([source, weightBps]) => `${source.entry.positionKey}=${weightBps}`)
    .sort()
    .join(",");
}

function compareText(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/**
 * Quote options for a request (spec 4.1), across the catalog entries the request does not exclude.
 *
 * Units: weights (`targetWeightBps`) are integer bps summing to exactly 10000, positions with
 * weight 0 are omitted; `currentApy` of a position is that source's `currentRateBps`, in bps per
 * year (500 = 5.00%); `blendedRateBps` is the weight-averaged `currentApy`, in the same unit, not
 * rounded.
 *
 * Liquidity of an allocation is its withdrawal profile: for every duration t, the bps of weight in
 * sources whose `maxProcessingTime` ≤ t. An option dominates another when its blended rate is at
 * least as high and its share is at least as high for every t, one of them strictly. Every option
 * returned uses only frontier sources (no other source is both at least as fast and as rewarding),
 * which makes each one Pareto-optimal against every possible allocation, not just the others.
 *
 * - When some allocation meets `minApyTargetBps` and every liquidity constraint: one option, the
 *   highest-APY one among them, `constraintsSatisfied: true`, no `optimizedFor`.
 * - Otherwise, sorted by blended rate, highest first, duplicates removed, each with an honest
 *   `constraintsSatisfied` (false here): `APY` (all in the highest-rate source), `BALANCED` the most
 *   liquid allocation reaching `minApyTargetBps` (when any can), `BALANCED` the highest-APY
 *   allocation keeping every satisfiable liquidity constraint, and `LIQUIDITY` (all in the fastest
 *   source, the best rate among equally fast ones). When only one source is worth holding, these
 *   collapse into a single `APY` option.
 * - When the request excludes every source: `[]`, answered as it is (200): spec 4.1 and 7.1 say
 *   the quote always answers an array of options, and here there is none to offer.
 *
 * Pure and deterministic; O(n log n + n·c) for n sources and c constraints.
 */
export function buildQuoteOptions(
  catalog: readonly StrategyCatalogEntry[],
  request: QuoteRequest,
): QuoteOption[] {
  const eligible: Source[] = catalog
    .filter((entry) => !isExcludedByRequest(entry, request))
    .map((entry) => ({ entry, delayMs: liquidityDelayMs(entry.maxProcessingTime) }));
  const frontier = frontierOf(eligible);
  const fastest = frontier[0];
  const highestRate = frontier.at(-1);
  if (fastest === undefined || highestRate === undefined) return [];

  const honouringLiquidity = maxApyHonouringLiquidity(frontier, request.liquidityConstraints ?? []);
  if (meetsEveryConstraint(honouringLiquidity, request)) return [toQuoteOption(honouringLiquidity, request)];

  const candidates: [Allocation, "APY" | "LIQUIDITY" | "BALANCED"][] = [
    [new Map([[highestRate, TOTAL_WEIGHT_BPS]]), "APY"],
    [new Map([[fastest, TOTAL_WEIGHT_BPS]]), "LIQUIDITY"],
    [honouringLiquidity, "BALANCED"],
  ];
  if (request.minApyTargetBps !== undefined) {
    const reachingApy = mostLiquidReachingApy(frontier, request.minApyTargetBps);
    if (reachingApy !== undefined) candidates.push([reachingApy, "BALANCED"]);
  }
  const seen = new Set<string>();
  const options: QuoteOption[] = [];
  for (const [allocation, optimizedFor] of candidates) {
    const key = allocationKey(allocation);
    if (seen.has(key)) continue;
    seen.add(key);
    options.push(toQuoteOption(allocation, request, optimizedFor));
  }
  // Stable sort: equal rates keep the candidate order above.
  return options.sort((a, b) => b.blendedRateBps - a.blendedRateBps);
}
