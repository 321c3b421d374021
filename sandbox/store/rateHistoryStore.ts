import type { DatabaseSync } from "node:sqlite";

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

/** A source's rates in the order they took effect; empty for a key never in the catalog. */
export function listRateHistory(db: DatabaseSync, positionKey: string): RatePeriodStart[] {
  return (
    db
      .prepare(
        "SELECT seq, rate_bps, effective_from FROM rate_history WHERE position_key = ? ORDER BY effective_from, seq",
      )
      .all(positionKey) as unknown as { seq: number; rate_bps: number; effective_from: string }[]
  ).map((row) => ({ seq: row.seq, rateBps: row.rate_bps, effectiveFromMs: Date.parse(row.effective_from) }));
}
