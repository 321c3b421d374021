import { liquidityBounds, type TargetWeights } from "./allocationMetrics.ts";
import type { StrategyCatalogEntry } from "./catalog.ts";
import { TOTAL_WEIGHT_BPS } from "./basisPoints.ts";
import { compareLiquidity, isWithdrawableWithin } from "./duration.ts";
import { splitByWeights, sumMicros, usdToMicros, type Micros } from "./money.ts";

/**
 * What a change of target allocation does to a wallet's money, in exact micros: one computation,
 * used by the pull-request report, the policy pack's money rules and approvals.
 *
 * Definitions (docs/cli.md, "Dollars"):
 * - The wallet's invested balance is the sum of its positions' `valueUsd`. Money received but not
 *   yet allocated (`pendingAllocationsUsd`) is not in any source: it is reported beside, never moved.
 * - USD now per source is that position's `valueUsd`; USD at the new target is balance × weight /
 *   10000, split by largest remainder (`splitByWeights`, the sandbox's own rebalance rule) over the
 *   target's sources in positionKey order, so the per-source amounts sum exactly to the balance.
 * - Moved = the sum of the increases = the sum of the decreases (both sides sum to the balance).
 * - Yearly yield = Σ USD × the catalog's `currentRateBps` / 10000, rounded to the micro per source:
 *   a projection at today's rates, not a forecast (rates change; the service may rebalance later).
 * - Withdrawable within a time = Σ USD of sources whose catalog `maxProcessingTime` is no longer.
 * - A key the catalog does not list has no rate and no processing time: it is reported in
 *   `keysMissingFromCatalog` and counts neither towards yield nor liquidity (never guessed).
 */

/** What the computation reads of a wallet (spec 2.4): the positions' USD values. */
export interface WalletHoldings {
  positions: readonly { positionKey: string; valueUsd: number }[];
  pendingAllocationsUsd?: number;
}

export interface SourceImpact {
  positionKey: string;
  nowMicros: Micros;
  afterMicros: Micros;
  /** after − now: positive where money arrives, negative where it leaves. */
  deltaMicros: Micros;
  /** The catalog's current rate, or null for a key it does not list. */
  rateBps: number | null;
  /** The catalog's liquidity limit, or null for a key it does not list. */
  maxProcessingTime: string | null;
}

export interface BeforeAfterMicros {
  nowMicros: Micros;
  afterMicros: Micros;
  deltaMicros: Micros;
}

export interface WithdrawableWithin extends BeforeAfterMicros {
  /** An ISO 8601 duration: `PT0H` (at once), then each processing time of the catalog. */
  within: string;
}

export interface MoneyImpact {
  /** Σ valueUsd of the positions: the money a change of target moves. */
  balanceMicros: Micros;
  /** Received but not yet allocated: goes to whatever target is current when allocated. */
  pendingMicros: Micros;
  /** False when the wallet holds nothing in any source: the change then moves $0. */
  funded: boolean;
  /** Every source held now or targeted after, by positionKey. */
  sources: SourceImpact[];
  movedMicros: Micros;
  /** At the catalog's current rates, a year: a projection, not a forecast. */
  yearlyYield: BeforeAfterMicros;
  /** `PT0H` first, then each distinct catalog processing time, fastest first. */
  withdrawable: WithdrawableWithin[];
  /**
   * The longest `maxProcessingTime` among the sources money leaves (how long it can be in
   * flight); null when no money leaves a source; `unknown` when one of them is not in the catalog.
   */
  longestExit: string | null;
  keysMissingFromCatalog: string[];
}

/** round(a × b / c), halves away from zero; c > 0. */
function mulDivRound(a: bigint, b: bigint, c: bigint): bigint {
  const product = a * b;
  const sign = product < 0n ? -1n : 1n;
  const magnitude = product < 0n ? -product : product;
  return sign * ((2n * magnitude + c) / (2n * c));
}

/** A rate in bps (a catalog number, possibly fractional) as whole millionths of a bp. */
const rateMillionths = (rateBps: number): bigint => usdToMicros(rateBps);
const YIELD_DIVISOR = BigInt(TOTAL_WEIGHT_BPS) * 1_000_000n;

/** A year's yield of `micros` at `rateBps`, to the nearest micro. */
export function yearlyYieldMicros(micros: Micros, rateBps: number): Micros {
  return mulDivRound(micros, rateMillionths(rateBps), YIELD_DIVISOR);
}

const byKey = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

/**
 * The money impact of putting `wallet` on `target` (weights in bps summing to 10000), read
 * against `catalog`. Pure: no I/O, exact to the micro.
 */
export function moneyImpact(
  wallet: WalletHoldings,
  target: TargetWeights,
  catalog: readonly StrategyCatalogEntry[],
): MoneyImpact {
  const entries = new Map(catalog.map((entry) => [entry.positionKey, entry]));
  const now = new Map<string, Micros>();
  for (const position of wallet.positions) {
    now.set(position.positionKey, (now.get(position.positionKey) ?? 0n) + usdToMicros(position.valueUsd));
  }
  const balanceMicros = sumMicros(now.values());
  const targetKeys = Object.keys(target).sort(byKey);
  const split = splitByWeights(
    balanceMicros,
    targetKeys.map((key) => target[key] ?? 0),
  );
  const after = new Map(targetKeys.map((key, index) => [key, split[index] ?? 0n]));
  const keys = [...new Set([...now.keys(), ...targetKeys])].sort(byKey);
  const sources = keys.map((positionKey): SourceImpact => {
    const nowMicros = now.get(positionKey) ?? 0n;
    const afterMicros = after.get(positionKey) ?? 0n;
    const entry = entries.get(positionKey);
    return {
      positionKey,
      nowMicros,
      afterMicros,
      deltaMicros: afterMicros - nowMicros,
      rateBps: entry?.currentRateBps ?? null,
      maxProcessingTime: entry?.maxProcessingTime ?? null,
    };
  });
  const beforeAfter = (measure: (source: SourceImpact, micros: Micros) => Micros): BeforeAfterMicros => {
    const nowMicros = sumMicros(sources.map((source) => measure(source, source.nowMicros)));
    const afterMicros = sumMicros(sources.map((source) => measure(source, source.afterMicros)));
    return { nowMicros, afterMicros, deltaMicros: afterMicros - nowMicros };
  };
  const leaving = sources.filter((source) => source.deltaMicros < 0n);
  const exitTimes = leaving.map((source) => source.maxProcessingTime);
  return {
    balanceMicros,
    pendingMicros: usdToMicros(wallet.pendingAllocationsUsd ?? 0),
    funded: balanceMicros > 0n,
    sources,
    movedMicros: sumMicros(sources.filter((s) => s.deltaMicros > 0n).map((s) => s.deltaMicros)),
    yearlyYield: beforeAfter((source, micros) =>
      source.rateBps === null ? 0n : yearlyYieldMicros(micros, source.rateBps),
    ),
    withdrawable: liquidityBounds(catalog).map((within) => ({
      within,
      ...beforeAfter((source, micros) =>
        source.maxProcessingTime !== null && isWithdrawableWithin(source.maxProcessingTime, within)
          ? micros
          : 0n,
      ),
    })),
    longestExit: exitTimes.includes(null)
      ? "unknown"
      : ((exitTimes as string[]).sort(compareLiquidity).at(-1) ?? null),
    keysMissingFromCatalog: keys.filter((key) => !entries.has(key)),
  };
}

/** Per source, over the wallets of a stack: money arriving, money leaving, and the two netted. */
export interface SourceFlow {
  positionKey: string;
  inMicros: Micros;
  outMicros: Micros;
  /** in − out: what the source gains (positive) or loses over the stack's wallets together. */
  netMicros: Micros;
}

export interface StackMoneyImpact {
  wallets: number;
  fundedWallets: number;
  balanceMicros: Micros;
  movedMicros: Micros;
  flows: SourceFlow[];
  yearlyYield: BeforeAfterMicros;
  withdrawable: WithdrawableWithin[];
  longestExit: string | null;
  keysMissingFromCatalog: string[];
}

/** The totals of a stack's wallets (each impact computed against the same catalog). */
export function stackMoneyImpact(impacts: readonly MoneyImpact[]): StackMoneyImpact {
  const flows = new Map<string, SourceFlow>();
  for (const source of impacts.flatMap((impact) => impact.sources)) {
    const flow = flows.get(source.positionKey) ?? {
      positionKey: source.positionKey,
      inMicros: 0n,
      outMicros: 0n,
      netMicros: 0n,
    };
    if (source.deltaMicros > 0n) flow.inMicros += source.deltaMicros;
    else flow.outMicros -= source.deltaMicros;
    flow.netMicros += source.deltaMicros;
    flows.set(source.positionKey, flow);
  }
  const total = (pick: (impact: MoneyImpact) => BeforeAfterMicros): BeforeAfterMicros => {
    const nowMicros = sumMicros(impacts.map((impact) => pick(impact).nowMicros));
    const afterMicros = sumMicros(impacts.map((impact) => pick(impact).afterMicros));
    return { nowMicros, afterMicros, deltaMicros: afterMicros - nowMicros };
  };
  const bounds = [...new Set(impacts.flatMap((impact) => impact.withdrawable.map((w) => w.within)))].sort(
    compareLiquidity,
  );
  const exits = impacts.map((impact) => impact.longestExit).filter((exit) => exit !== null);
  return {
    wallets: impacts.length,
    fundedWallets: impacts.filter((impact) => impact.funded).length,
    balanceMicros: sumMicros(impacts.map((impact) => impact.balanceMicros)),
    movedMicros: sumMicros(impacts.map((impact) => impact.movedMicros)),
    flows: [...flows.values()]
      .filter((flow) => flow.inMicros !== 0n || flow.outMicros !== 0n)
      .sort((a, b) => byKey(a.positionKey, b.positionKey)),
    yearlyYield: total((impact) => impact.yearlyYield),
    withdrawable: bounds.map((within) => ({
      within,
      ...total(
        (impact) =>
          impact.withdrawable.find((w) => w.within === within) ?? {
            nowMicros: 0n,
            afterMicros: 0n,
            deltaMicros: 0n,
          },
      ),
    })),
    longestExit: exits.includes("unknown") ? "unknown" : (exits.sort(compareLiquidity).at(-1) ?? null),
    keysMissingFromCatalog: [...new Set(impacts.flatMap((impact) => impact.keysMissingFromCatalog))].sort(),
  };
}
