import type { DatabaseSync } from "node:sqlite";

/** One rate of a yield source and the moment it took effect (see moneySchema.ts triggers). */
export interface RatePeriodStart {
  rateBps: number;
  effectiveFromMs: number;
}

/** A source's rates in the order they took effect; empty for a key never in the catalog. */
export function listRateHistory(db: DatabaseSync, positionKey: string): RatePeriodStart[] {
  return (
    db
      .prepare(
        "SELECT rate_bps, effective_from FROM rate_history WHERE position_key = ? ORDER BY effective_from, seq",
      )
      .all(positionKey) as unknown as { rate_bps: number; effective_from: string }[]
  ).map((row) => ({ rateBps: row.rate_bps, effectiveFromMs: Date.parse(row.effective_from) }));
}
