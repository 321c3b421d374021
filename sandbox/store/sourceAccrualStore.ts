import type { DatabaseSync } from "node:sqlite";
import { iterateAccrualHoldings } from "./holdingsStore.ts";
import { addToWithdrawnHistory } from "./ledgerStore.ts";
import {
  ACCRUAL_DENOMINATOR,
  listRateHistory,
  rateInForceIndex,
  rateUnits,
  type RatePeriodStart,
} from "./rateHistoryStore.ts";

/**
 * Running accrual aggregates per organization and yield source: what the organization's positions
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

function writeSourceAccrual(
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

const seqAt = (history: readonly RatePeriodStart[], atMs: number) =>
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

/**
 * Applies changes to the organization's positions in a source at `atIso`, in the transaction of
 * the movement that makes them: the row is rolled to the later of `atIso` and its own time, each
 * position's old units (rolled the same way) leave it and its new ones join.
 */
export function applySourceAccrualChanges(
  db: DatabaseSync,
  organizationId: string,
  positionKey: string,
  changes: readonly SourceAccrualChange[],
  atIso: string,
  history: readonly RatePeriodStart[] = listRateHistory(db, positionKey, organizationId),
): void {
  const atMs = Date.parse(atIso);
  const latest = readSourceAccrual(db, organizationId, positionKey);
  const asOfMs = Math.max(atMs, latest?.asOfMs ?? atMs);
  const state = rollSourceAccrual(
    history,
    latest ?? {
      asOfMs,
      rateSeq: seqAt(history, asOfMs),
      positions: 0n,
      heldMicros: 0n,
      valueUnits: 0n,
      weightedUnits: 0n,
      creditedMicros: 0n,
    },
    asOfMs,
  );
  state.asOfMs = asOfMs;
  for (const change of changes) {
    for (const [position, sign] of [
      [change.before, -1n],
      [change.after, 1n],
    ] as const) {
      if (position === null) continue;
      const rolled = rollPosition(history, position, asOfMs);
      state.valueUnits += sign * rolled.units;
      state.weightedUnits += sign * rolled.units * BigInt(rolled.sinceMs);
      state.positions += sign;
    }
    state.heldMicros += change.heldDelta;
    state.creditedMicros += change.creditedDelta;
  }
  if (state.positions === 0n) {
    // No position left: what remains is only the floors of rolls (never money), so start again at 0.
    state.valueUnits = 0n;
    state.weightedUnits = 0n;
  }
  writeSourceAccrual(db, organizationId, positionKey, state);
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
    const empty = (atMs: number, creditedMicros: bigint): SourceAccrual => ({
      asOfMs: atMs,
      rateSeq: seqAt(history, atMs),
      positions: 0n,
      heldMicros: 0n,
      valueUnits: 0n,
      weightedUnits: 0n,
      creditedMicros,
    });
    // What the file tells of the past: the yield credited by each settlement, counted from its
    // instant (what was held between settlements is not kept, so earlier periods count yield
    // when it was settled). From the latest settlement on, the sums are exact.
    let credited = 0n;
    for (const [at, micros] of [...(creditedAt.get(key) ?? [])].sort(([a], [b]) => (a < b ? -1 : 1))) {
      credited += micros;
      if (Date.parse(at) < asOfMs)
        writeSourceAccrual(db, organizationId, key, empty(Date.parse(at), credited));
    }
    const state = empty(asOfMs, credited);
    for (const { held, position } of positionsByKey.get(key) ?? []) {
      const rolled = rollPosition(history, position, asOfMs);
      state.valueUnits += rolled.units;
      state.weightedUnits += rolled.units * BigInt(rolled.sinceMs);
      state.positions += 1n;
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

/**
 * The organization's yield generated by `atMs` over every source, exact, as a numerator over
 * YIELD_NUMERATOR_DENOMINATOR: one row per source (the row in force then), no wallet read.
 */
export function organizationYieldNumeratorAt(db: DatabaseSync, organizationId: string, atMs: number): bigint {
  let numerator = 0n;
  const keys = db
    .prepare("SELECT position_key FROM organization_sources WHERE organization_id = ?")
    .all(organizationId) as { position_key: string }[];
  for (const { position_key: key } of keys) {
    const state = readSourceAccrual(db, organizationId, key, atMs);
    if (state !== null) numerator += yieldNumeratorAt(listRateHistory(db, key, organizationId), state, atMs);
  }
  return numerator;
}
