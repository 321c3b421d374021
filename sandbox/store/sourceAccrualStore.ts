import type { DatabaseSync } from "node:sqlite";
import { ACCRUAL_DENOMINATOR, type RatePeriodStart } from "../domain/money/arithmetic/accrualRates.ts";
import {
  addPosition,
  emptySourceAccrual,
  withSourceAccrualChanges,
  type PositionUnits,
  type SourceAccrual,
  type SourceAccrualChange,
} from "../domain/money/arithmetic/sourceAccrualSums.ts";
import { iterateAccrualHoldings } from "./holdingsStore.ts";
import { addToWithdrawnHistory } from "./ledgerStore.ts";
import { listRateHistory } from "./rateHistoryStore.ts";

/**
 * The rows of the running accrual aggregates per organization and yield source: one per
 * (organization, source, time of a change), so the organization's yield generated up to any past
 * time is read from the row in force then. Their arithmetic (what the sums are, how a change and a
 * rate change move them) is the money rules' (domain/money/arithmetic/sourceAccrualSums.ts); here
 * they are read, written and built again from the wallets and ledger.
 */

interface Row {
  as_of: string;
  rate_seq: number;
  positions: string;
  held_micros: string;
  value_units: string;
  weighted_units: string;
  credited_micros: string;
}

const toState = (row: Row): SourceAccrual => ({
  asOfMs: Date.parse(row.as_of),
  rateSeq: row.rate_seq,
  positions: BigInt(row.positions),
  heldMicros: BigInt(row.held_micros),
  valueUnits: BigInt(row.value_units),
  weightedUnits: BigInt(row.weighted_units),
  creditedMicros: BigInt(row.credited_micros),
});

/** The organization's row for the source in force at `atMs` (the latest at or before it); null before any. */
export function readSourceAccrual(
  db: DatabaseSync,
  organizationId: string,
  positionKey: string,
  atMs: number = Number.POSITIVE_INFINITY,
): SourceAccrual | null {
  const row = (
    atMs === Number.POSITIVE_INFINITY
      ? db
          .prepare(
            `SELECT * FROM organization_source_accruals WHERE organization_id = ? AND position_key = ?
             ORDER BY as_of DESC LIMIT 1`,
          )
          .get(organizationId, positionKey)
      : db
          .prepare(
            `SELECT * FROM organization_source_accruals
             WHERE organization_id = ? AND position_key = ? AND as_of <= ?
             ORDER BY as_of DESC LIMIT 1`,
          )
          .get(organizationId, positionKey, new Date(atMs).toISOString())
  ) as Row | undefined;
  return row === undefined ? null : toState(row);
}

export function writeSourceAccrual(
  db: DatabaseSync,
  organizationId: string,
  positionKey: string,
  state: SourceAccrual,
): void {
  db.prepare("INSERT OR IGNORE INTO organization_sources (organization_id, position_key) VALUES (?, ?)").run(
    organizationId,
    positionKey,
  );
  db.prepare(
    `INSERT INTO organization_source_accruals
       (organization_id, position_key, as_of, rate_seq, positions, held_micros, value_units, weighted_units, credited_micros)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)
     ON CONFLICT (organization_id, position_key, as_of) DO UPDATE SET
       rate_seq = excluded.rate_seq, positions = excluded.positions, held_micros = excluded.held_micros,
       value_units = excluded.value_units, weighted_units = excluded.weighted_units,
       credited_micros = excluded.credited_micros`,
  ).run(
    organizationId,
    positionKey,
    new Date(state.asOfMs).toISOString(),
    state.rateSeq,
    state.positions.toString(),
    state.heldMicros.toString(),
    state.valueUnits.toString(),
    state.weightedUnits.toString(),
    state.creditedMicros.toString(),
  );
}

/**
 * Applies changes to the organization's positions in a source at `atIso`, in the transaction of
 * the movement that makes them: the row is read, the changes applied to its sums
 * (withSourceAccrualChanges) and the result written as the row of its time.
 */
export function applySourceAccrualChanges(
  db: DatabaseSync,
  organizationId: string,
  positionKey: string,
  changes: readonly SourceAccrualChange[],
  atIso: string,
  history: readonly RatePeriodStart[] = listRateHistory(db, positionKey, organizationId),
): void {
  const latest = readSourceAccrual(db, organizationId, positionKey);
  writeSourceAccrual(
    db,
    organizationId,
    positionKey,
    withSourceAccrualChanges(history, latest, changes, Date.parse(atIso)),
  );
}

/**
 * Builds the organization's aggregates from its wallets and ledger (replacing any rows it had):
 * per source, a row at the latest settlement with every position, and before it a row of yield
 * credited at each instant an accrual entry ended: the migration for a data file written before
 * them, and for files filled by copying rows. Reads every wallet of the organization once.
 */
export function rebuildSourceAccruals(db: DatabaseSync, organizationId: string): void {
  const positionsByKey = new Map<string, { held: bigint; position: PositionUnits }[]>();
  let asOfMs = Number.NEGATIVE_INFINITY;
  for (const holdings of iterateAccrualHoldings(db, organizationId)) {
    if (holdings.state === null) continue;
    const sinceMs = Date.parse(holdings.state.accruedThrough);
    for (const [key, held] of holdings.positions) {
      if (held <= 0n) continue;
      const units = held * ACCRUAL_DENOMINATOR + (holdings.remainders.get(key) ?? 0n);
      const positions = positionsByKey.get(key) ?? [];
      positions.push({ held, position: { units, sinceMs } });
      positionsByKey.set(key, positions);
      asOfMs = Math.max(asOfMs, sinceMs);
    }
  }
  // Yield credited per source and per instant an accrual entry ends.
  const creditedAt = new Map<string, Map<string, bigint>>();
  const entries = db
    .prepare(
      `SELECT position_key, CAST(amount_micros AS TEXT) AS amount, at FROM ledger_entries
       WHERE organization_id = ? AND kind = 'accrual'`,
    )
    .iterate(organizationId) as Iterable<{ position_key: string | null; amount: string; at: string }>;
  for (const entry of entries) {
    if (entry.position_key === null) continue;
    const byInstant = creditedAt.get(entry.position_key) ?? new Map<string, bigint>();
    byInstant.set(entry.at, (byInstant.get(entry.at) ?? 0n) + BigInt(entry.amount));
    creditedAt.set(entry.position_key, byInstant);
    asOfMs = Math.max(asOfMs, Date.parse(entry.at));
  }
  db.prepare("DELETE FROM organization_source_accruals WHERE organization_id = ?").run(organizationId);
  db.prepare("DELETE FROM organization_sources WHERE organization_id = ?").run(organizationId);
  if (asOfMs === Number.NEGATIVE_INFINITY) return;
  for (const key of new Set([...positionsByKey.keys(), ...creditedAt.keys()])) {
    const history = listRateHistory(db, key, organizationId);
    // What the file tells of the past: the yield credited by each settlement, counted from its
    // instant (what was held between settlements is not kept, so earlier periods count yield
    // when it was settled). From the latest settlement on, the sums are exact.
    let credited = 0n;
    for (const [at, micros] of [...(creditedAt.get(key) ?? [])].sort(([a], [b]) => (a < b ? -1 : 1))) {
      credited += micros;
      if (Date.parse(at) < asOfMs)
        writeSourceAccrual(db, organizationId, key, emptySourceAccrual(history, Date.parse(at), credited));
    }
    const state = emptySourceAccrual(history, asOfMs, credited);
    for (const { held, position } of positionsByKey.get(key) ?? []) {
      addPosition(history, state, position, 1n);
      state.heldMicros += held;
    }
    writeSourceAccrual(db, organizationId, key, state);
  }
}

/**
 * Builds an organization's yield aggregates (its sums per source and its withdrawn history) from
 * its wallets and ledger, replacing any it had: the migration to schema version 4
 * (migrations.ts), and a data file filled by copying rows (test/support/storeSeeding.ts).
 */
export function rebuildYieldAggregates(db: DatabaseSync, organizationId: string): void {
  rebuildSourceAccruals(db, organizationId);
  db.prepare("DELETE FROM organization_withdrawn_history WHERE organization_id = ?").run(organizationId);
  const payouts = db
    .prepare(
      `SELECT at, CAST(yield_micros AS TEXT) AS yield FROM ledger_entries
       WHERE organization_id = ? AND kind = 'payout_completed' ORDER BY at, seq`,
    )
    .all(organizationId) as { at: string; yield: string }[];
  for (const payout of payouts) {
    if (BigInt(payout.yield) !== 0n)
      addToWithdrawnHistory(db, organizationId, payout.at, BigInt(payout.yield));
  }
}

/**
 * After a rate of `positionKey` was recorded: a rate that took effect before some organization's
 * sums were last written (a catalog loaded at startup with an older rateUpdatedAt, after money had
 * moved later than it) changes what positions settled before it have earned since, which the
 * sums, rolled forward only, cannot take back. Those organizations' sums are built again from
 * their wallets (rare: a rate set through the admin API takes effect now, after every row).
 */
export function rebuildSourceAccrualsBehindRate(db: DatabaseSync, positionKey: string): void {
  const latest = db
    .prepare(
      `SELECT effective_from FROM rate_history
       WHERE seq = (SELECT MAX(seq) FROM rate_history WHERE organization_id = '' AND position_key = ?)`,
    )
    .get(positionKey) as { effective_from: string } | undefined;
  if (latest === undefined) return;
  // A shared rate counts only for organizations without rates or a clock of their own: the others
  // get it as a row of their own, on their clock, never behind their sums (catalog.ts setRate).
  const behind = db
    .prepare(
      `SELECT organization_id FROM organization_source_accruals WHERE position_key = ? AND as_of > ?
       AND organization_id NOT IN (SELECT organization_id FROM organization_clocks)`,
    )
    .all(positionKey, latest.effective_from) as { organization_id: string }[];
  for (const organizationId of new Set(behind.map((row) => row.organization_id))) {
    rebuildSourceAccruals(db, organizationId);
  }
}

/**
 * After the organization's own rate of `positionKey` was recorded from `effectiveFrom`: as
 * rebuildSourceAccrualsBehindRate, for that organization only (a catalog file loaded at startup,
 * whose rateUpdatedAt it reads on its own clock; a rate set through the admin API takes effect at
 * its now, after every row).
 */
export function rebuildOrganizationSourceAccrualsBehindRate(
  db: DatabaseSync,
  organizationId: string,
  positionKey: string,
  effectiveFrom: string,
): void {
  const behind = db
    .prepare(
      `SELECT 1 FROM organization_source_accruals
       WHERE organization_id = ? AND position_key = ? AND as_of > ? LIMIT 1`,
    )
    .get(organizationId, positionKey, effectiveFrom);
  if (behind !== undefined) rebuildSourceAccruals(db, organizationId);
}

/** The yield sources the organization's sums have rows for. */
export function listOrganizationSourceKeys(db: DatabaseSync, organizationId: string): string[] {
  return (
    db
      .prepare("SELECT position_key FROM organization_sources WHERE organization_id = ?")
      .all(organizationId) as {
      position_key: string;
    }[]
  ).map((row) => row.position_key);
}
