// The arithmetic of accrual over a yield source's rates: pure functions of numbers, no rows. The
// store reads the rate history (store/rateHistoryStore.ts); the money rules (accrual.ts) and the
// organizations' yield sums (sourceAccrualSums.ts) integrate over it with these.

/** One rate of a yield source and the moment it took effect (see moneySchema.ts triggers). */
export interface RatePeriodStart {
  /** The rate_history row: later rows of one instant win (they were written later). */
  seq: number;
  rateBps: number;
  effectiveFromMs: number;
}

/** Simple interest on ACT/365: a position at r bps earns value × r / 10000 × days / 365. */
const YEAR_MS = 365 * 24 * 60 * 60 * 1000;
/** Rates are integrated to 1/10000 of a bp, so fractional catalog rates are kept. */
const RATE_SCALE = 10_000;
/**
 * One micro of yield, in units of (micro × bps × RATE_SCALE × ms): a position of v micros at
 * rateUnits(r) earns v × rateUnits(r) × ms / ACCRUAL_DENOMINATOR micros. Accrual remainders and
 * the organizations' source aggregates count in 1 / ACCRUAL_DENOMINATOR micro.
 */
export const ACCRUAL_DENOMINATOR = 10_000n * BigInt(RATE_SCALE) * BigInt(YEAR_MS);

/** A rate in bps as the integer accrual integrates: bps × RATE_SCALE. */
export const rateUnits = (rateBps: number): bigint => BigInt(Math.round(rateBps * RATE_SCALE));

/**
 * The index in `history` of the rate in force at `atMs`: the last entry that took effect at or
 * before it, the first entry's before any took effect; -1 for a key with no history.
 */
export function rateInForceIndex(history: readonly RatePeriodStart[], atMs: number): number {
  let index = history.length > 0 ? 0 : -1;
  for (let i = 1; i < history.length && (history[i] as RatePeriodStart).effectiveFromMs <= atMs; i += 1)
    index = i;
  return index;
}
