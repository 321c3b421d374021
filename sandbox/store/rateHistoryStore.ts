import type { DatabaseSync } from "node:sqlite";
import type { RatePeriodStart } from "../domain/money/arithmetic/accrualRates.ts";

type RateRow = { seq: number; rate_bps: number; effective_from: string };
const toPeriodStart = (row: RateRow): RatePeriodStart => ({
  seq: row.seq,
  rateBps: row.rate_bps,
  effectiveFromMs: Date.parse(row.effective_from),
});

/** When the organization first had a clock or rates of its own (schema.ts organization_clocks); null: never. */
export function organizationForkedAt(db: DatabaseSync, organizationId: string): string | null {
  const row = db
    .prepare("SELECT forked_at FROM organization_clocks WHERE organization_id = ?")
    .get(organizationId) as { forked_at: string } | undefined;
  return row?.forked_at ?? null;
}

/**
 * A source's rates as `organizationId` sees them, in the order they took effect, on its clock;
 * empty for a key never in the catalog. Until the organization had a clock or rates of its own
 * (it "forked"), its time was the shared time and its rates the shared catalog's: those shared
 * rows count. From then on only its own rows do (shared rate changes set later were written for
 * it too, on its clock: catalogStore.ts). Every own row takes effect at or after the fork, so the
 * two lists, each read in order by index, follow each other.
 */
export function listRateHistory(
  db: DatabaseSync,
  positionKey: string,
  organizationId: string,
): RatePeriodStart[] {
  const forkedAt = organizationForkedAt(db, organizationId);
  const shared = (forkedAt === null
    ? db
        .prepare(
          `SELECT seq, rate_bps, effective_from FROM rate_history
             WHERE organization_id = '' AND position_key = ? ORDER BY effective_from, seq`,
        )
        .all(positionKey)
    : db
        .prepare(
          `SELECT seq, rate_bps, effective_from FROM rate_history
             WHERE organization_id = '' AND position_key = ? AND effective_from <= ? ORDER BY effective_from, seq`,
        )
        .all(positionKey, forkedAt)) as unknown as RateRow[];
  if (forkedAt === null) return shared.map(toPeriodStart);
  const own = db
    .prepare(
      `SELECT seq, rate_bps, effective_from FROM rate_history
       WHERE organization_id = ? AND position_key = ? ORDER BY effective_from, seq`,
    )
    .all(organizationId, positionKey) as unknown as RateRow[];
  return [...shared, ...own].map(toPeriodStart);
}

/** The organization's own current rate of each source it has one of: the latest row per key. */
export function listOrganizationCurrentRates(
  db: DatabaseSync,
  organizationId: string,
): Map<string, { rateBps: number; effectiveFrom: string }> {
  const rows = db
    .prepare(
      `SELECT position_key, rate_bps, effective_from FROM rate_history
       WHERE seq IN (SELECT MAX(seq) FROM rate_history WHERE organization_id = ? GROUP BY position_key)`,
    )
    .all(organizationId) as { position_key: string; rate_bps: number; effective_from: string }[];
  return new Map(
    rows.map((row) => [row.position_key, { rateBps: row.rate_bps, effectiveFrom: row.effective_from }]),
  );
}

/**
 * Records the organization's own rate of `positionKey` from `at` (its clock), never before its
 * last own rate of that key; forks the organization at `at` if it had no clock or rates of its own.
 */
export function insertOrganizationRate(
  db: DatabaseSync,
  organizationId: string,
  positionKey: string,
  rateBps: number,
  at: string,
): string {
  db.prepare(
    `INSERT INTO organization_clocks (organization_id, lead_ms, forked_at) VALUES (?, 0, ?)
     ON CONFLICT (organization_id) DO NOTHING`,
  ).run(organizationId, at);
  const last = db
    .prepare(
      "SELECT MAX(effective_from) AS at FROM rate_history WHERE organization_id = ? AND position_key = ?",
    )
    .get(organizationId, positionKey) as { at: string | null };
  const effectiveFrom = last.at !== null && last.at > at ? last.at : at;
  db.prepare(
    "INSERT INTO rate_history (position_key, rate_bps, effective_from, organization_id) VALUES (?, ?, ?, ?)",
  ).run(positionKey, rateBps, effectiveFrom, organizationId);
  return effectiveFrom;
}

/** The organizations with a clock or rates of their own (every shared rate change is written for each). */
export function listForkedOrganizations(db: DatabaseSync): string[] {
  return (
    db.prepare("SELECT organization_id FROM organization_clocks").all() as { organization_id: string }[]
  ).map((row) => row.organization_id);
}
