import { ACCRUAL_DENOMINATOR, rateInForceIndex, rateUnits, type RatePeriodStart } from "./accrualRates.ts";

/**
 * The arithmetic of the running accrual aggregates per organization and yield source (their rows
 * are read and written by store/sourceAccrualStore.ts): what the organization's positions
 * in one source hold and have earned, kept as a few sums so that the organization's yield at any
 * time is read in O(1), never by visiting its wallets (docs/sandbox.md, "Yield metrics").
 *
 * A position counts as `units` = held × D + remainder (D = ACCRUAL_DENOMINATOR; the remainder is
 * the fraction of a micro accrual carried), invested since its wallet's last settlement t. Within
 * one rate period its exact value at time T is units × (1 + R × (T − t) / D) (R: the rate in
 * rateUnits; simple interest), so over the organization's positions in the source it is
 *   S0 + R × (T × S0 − S1) / D,  with S0 = Σ units and S1 = Σ units × t,
 * two integer sums. At a rate change τ each position is valued as if settled then (the closed form
 * per wallet does the same: it compounds at rate changes), which for the sums is
 *   S0 ← S0 + ⌊R × (τ × S0 − S1) / D⌋,  S1 ← S0 × τ.
 * A rate change writes nothing here: the sums are rolled through the rate changes since they were
 * written when they are next read or written (a few rows of rate history, never a wallet).
 *
 * Exactness. S0 and S1 are bigints, so adding and removing a position is exact; the one rounding
 * is the floor at a rate change, less than 1/D micro (D ≈ 3.2e18) per roll, and it never makes the
 * sums smaller than the positions' own values rolled one by one. When the last position leaves,
 * the sums are set back to 0, so no residue outlives the positions that left it. The values are the
 * exact (unrounded) ones: each wallet's figures are rounded down to the micro at each rate change
 * with the remainder carried, so Σ wallets ≤ the aggregate's figure < Σ wallets + one micro per
 * position holding money, times its growth since its last settlement (docs/sandbox.md).
 *
 * Rows are history: one per (organization, source, time of a change), so the organization's
 * yield generated up to any past time is read from the row in force then (periods).
 */
export interface SourceAccrual {
  /** When the row was written (every position's `since` is at or before it). */
  asOfMs: number;
  /** The rate_history row in force after the last roll (see rateInForceIndex). */
  rateSeq: number;
  /** Positions holding money in the source. */
  positions: bigint;
  /** Σ held micros. */
  heldMicros: bigint;
  /** S0 = Σ units, in 1/D micro. */
  valueUnits: bigint;
  /** S1 = Σ units × since (ms). */
  weightedUnits: bigint;
  /** Yield credited to the source's positions by settlements, in all, in micros. */
  creditedMicros: bigint;
}

/** A position's money for the sums: `units` (held × D + remainder) earning since `sinceMs`. */
export interface PositionUnits {
  units: bigint;
  sinceMs: number;
}

/** One position's change: what it counted before (null: nothing), what it counts after. */
export interface SourceAccrualChange {
  before: PositionUnits | null;
  after: PositionUnits | null;
  heldDelta: bigint;
  creditedDelta: bigint;
}

export const seqAt = (history: readonly RatePeriodStart[], atMs: number) =>
  history[rateInForceIndex(history, atMs)]?.seq ?? 0;

/** Where the row's rate stands in `history` (the rate in force at its time if its row is unknown). */
function rateIndexOf(history: readonly RatePeriodStart[], state: SourceAccrual): number {
  const index = history.findIndex((entry) => entry.seq === state.rateSeq);
  return index >= 0 ? index : rateInForceIndex(history, state.asOfMs);
}

/**
 * One position's units rolled through the rate changes in (sinceMs, toMs], as the sums roll them:
 * what it counts for in S0 (units) and S1 (units × the returned sinceMs).
 */
export function rollPosition(
  history: readonly RatePeriodStart[],
  position: PositionUnits,
  toMs: number,
): PositionUnits {
  let index = rateInForceIndex(history, position.sinceMs);
  let { units, sinceMs } = position;
  if (index < 0) return position;
  for (let next = history[index + 1]; next !== undefined && next.effectiveFromMs <= toMs;) {
    const rate = rateUnits((history[index] as RatePeriodStart).rateBps);
    units += (rate * BigInt(next.effectiveFromMs - sinceMs) * units) / ACCRUAL_DENOMINATOR;
    sinceMs = next.effectiveFromMs;
    index += 1;
    next = history[index + 1];
  }
  return { units, sinceMs };
}

/** The sums rolled through the rate changes after their last one, up to `toMs` (nothing written). */
export function rollSourceAccrual(
  history: readonly RatePeriodStart[],
  state: SourceAccrual,
  toMs: number,
): SourceAccrual {
  let index = rateIndexOf(history, state);
  if (index < 0) return state;
  let { valueUnits, weightedUnits } = state;
  for (let next = history[index + 1]; next !== undefined && next.effectiveFromMs <= toMs;) {
    // A rate that took effect before the row was written (a catalog loaded with an older
    // rateUpdatedAt) is rolled at the row's time: no position's time is after it.
    const at = BigInt(Math.max(next.effectiveFromMs, state.asOfMs));
    const rate = rateUnits((history[index] as RatePeriodStart).rateBps);
    valueUnits += (rate * (at * valueUnits - weightedUnits)) / ACCRUAL_DENOMINATOR;
    weightedUnits = valueUnits * at;
    index += 1;
    next = history[index + 1];
  }
  return { ...state, valueUnits, weightedUnits, rateSeq: history[index]?.seq ?? state.rateSeq };
}

/**
 * The yield the source's positions of the organization had generated by `atMs` (credited, and
 * earned since their settlements, fractions included), as a numerator over D²: exact.
 */
export function yieldNumeratorAt(
  history: readonly RatePeriodStart[],
  state: SourceAccrual,
  atMs: number,
): bigint {
  const rolled = rollSourceAccrual(history, state, atMs);
  const entry = history[rateIndexOf(history, rolled)];
  const rate = entry === undefined ? 0n : rateUnits(entry.rateBps);
  const d = ACCRUAL_DENOMINATOR;
  const unsettled =
    (rolled.valueUnits - rolled.heldMicros * d) * d +
    rate * (BigInt(atMs) * rolled.valueUnits - rolled.weightedUnits);
  return rolled.creditedMicros * d * d + unsettled;
}

/** D², the denominator of yieldNumeratorAt. */
export const YIELD_NUMERATOR_DENOMINATOR = ACCRUAL_DENOMINATOR * ACCRUAL_DENOMINATOR;

/** A row with no position and `creditedMicros` credited, at `atMs` under the rate in force then. */
export function emptySourceAccrual(
  history: readonly RatePeriodStart[],
  atMs: number,
  creditedMicros = 0n,
): SourceAccrual {
  return {
    asOfMs: atMs,
    rateSeq: seqAt(history, atMs),
    positions: 0n,
    heldMicros: 0n,
    valueUnits: 0n,
    weightedUnits: 0n,
    creditedMicros,
  };
}

/**
 * `position` (rolled to the row's time) joining the sums (`sign` 1n) or leaving them (-1n), in
 * place: S0 gains its units, S1 its units × its time, and the count of positions one.
 */
export function addPosition(
  history: readonly RatePeriodStart[],
  state: SourceAccrual,
  position: PositionUnits,
  sign: 1n | -1n,
): void {
  const rolled = rollPosition(history, position, state.asOfMs);
  state.valueUnits += sign * rolled.units;
  state.weightedUnits += sign * rolled.units * BigInt(rolled.sinceMs);
  state.positions += sign;
}

/**
 * The sums after changes to the organization's positions in a source at `atMs`: `latest` (the row
 * before them, if any) rolled to the later of `atMs` and its own time, each position's old units
 * (rolled the same way) leaving it and its new ones joining.
 */
export function withSourceAccrualChanges(
  history: readonly RatePeriodStart[],
  latest: SourceAccrual | null,
  changes: readonly SourceAccrualChange[],
  atMs: number,
): SourceAccrual {
  const asOfMs = Math.max(atMs, latest?.asOfMs ?? atMs);
  const state = rollSourceAccrual(history, latest ?? emptySourceAccrual(history, asOfMs), asOfMs);
  state.asOfMs = asOfMs;
  for (const change of changes) {
    if (change.before !== null) addPosition(history, state, change.before, -1n);
    if (change.after !== null) addPosition(history, state, change.after, 1n);
    state.heldMicros += change.heldDelta;
    state.creditedMicros += change.creditedDelta;
  }
  if (state.positions === 0n) {
    // No position left: what remains is only the floors of rolls (never money), so start again at 0.
    state.valueUnits = 0n;
    state.weightedUnits = 0n;
  }
  return state;
}
