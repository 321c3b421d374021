import type { DatabaseSync } from "node:sqlite";
import type { YieldSource } from "../../sdk/nodejs/contract/index.ts";
import { inTransaction } from "./connection.ts";
import { listOrganizationCurrentRates } from "./rateHistoryStore.ts";
import { rebuildSourceAccrualsBehindRate } from "./sourceAccrualStore.ts";

interface CatalogRow {
  position_key: string;
  asset: string;
  strategy_type: string;
  max_processing_time: string;
  current_rate_bps: number;
  rate_updated_at: string;
  display_name: string | null;
}

function toYieldSource(row: CatalogRow): YieldSource {
  return {
    positionKey: row.position_key,
    asset: row.asset,
    strategyType: row.strategy_type,
    maxProcessingTime: row.max_processing_time,
    currentRateBps: row.current_rate_bps,
    rateUpdatedAt: row.rate_updated_at,
    ...(row.display_name === null ? {} : { displayName: row.display_name }),
  };
}

/**
 * The catalog in its configured order: the shared one, or with `organizationId` as that
 * organization sees it (its own current rates, and when each took effect on its clock, where it
 * has them: docs/sandbox.md "Rates per organization").
 */
export function listCatalog(db: DatabaseSync, organizationId?: string): YieldSource[] {
  const rows = db
    .prepare("SELECT * FROM catalog_entries ORDER BY sort_order")
    .all() as unknown as CatalogRow[];
  const shared = rows.map(toYieldSource);
  if (organizationId === undefined) return shared;
  const own = listOrganizationCurrentRates(db, organizationId);
  if (own.size === 0) return shared;
  return shared.map((entry) => {
    const rate = own.get(entry.positionKey);
    return rate === undefined
      ? entry
      : { ...entry, currentRateBps: rate.rateBps, rateUpdatedAt: rate.effectiveFrom };
  });
}

export function countCatalog(db: DatabaseSync): number {
  const row = db.prepare("SELECT COUNT(*) AS n FROM catalog_entries").get() as { n: number };
  return row.n;
}

/** Replaces the whole catalog (startup with `--catalog`, or seeding a new data directory). */
export function replaceCatalog(db: DatabaseSync, entries: readonly YieldSource[]): void {
  inTransaction(db, () => {
    db.exec("DELETE FROM catalog_entries");
    const insert = db.prepare(
      `INSERT INTO catalog_entries
         (position_key, asset, strategy_type, max_processing_time, current_rate_bps, rate_updated_at, display_name, sort_order)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?)`,
    );
    entries.forEach((entry, index) => {
      insert.run(
        entry.positionKey,
        entry.asset,
        entry.strategyType,
        entry.maxProcessingTime,
        entry.currentRateBps,
        entry.rateUpdatedAt,
        entry.displayName ?? null,
        index,
      );
      rebuildSourceAccrualsBehindRate(db, entry.positionKey);
    });
  });
}

/** Sets one source's rate; returns false when the positionKey is not in the catalog. */
export function updateCatalogRate(
  db: DatabaseSync,
  positionKey: string,
  rateBps: number,
  at: string,
): boolean {
  return inTransaction(db, () => {
    const result = db
      .prepare("UPDATE catalog_entries SET current_rate_bps = ?, rate_updated_at = ? WHERE position_key = ?")
      .run(rateBps, at, positionKey);
    rebuildSourceAccrualsBehindRate(db, positionKey);
    return Number(result.changes) > 0;
  });
}
