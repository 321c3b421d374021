import type { DatabaseSync } from "node:sqlite";
import { prepareReadingBigInts } from "./connection.ts";

/**
 * Kinds of ledger entry. Every movement of money is one of these; `amountMicros` is positive
 * except for `rebalance`, whose entries of one rebalance sum to zero.
 * - `deposit_detected`: outside world → wallet's pending allocations.
 * - `deposit_allocated`: pending allocations → a position (positionKey).
 * - `accrual`: yield generated → a position, over [fromAt, at]. The one kind an entry of which
 *   may grow after it is written (extendAccrualEntry): a position's accrual within one accrual
 *   period is one entry.
 * - `withdrawal_debited`: positions → in flight, one entry per payout leg (`yieldMicros` is the
 *   leg's yield share; `detail` lists the positions drawn from).
 * - `payout_completed`: in flight → paid out to the destination (one per leg).
 * - `payout_returned`: in flight → back to the positions it came from (a failed leg).
 * - `rebalance`: between positions (signed).
 */
export const LEDGER_KINDS = [
  "deposit_detected",
  "deposit_allocated",
  "accrual",
  "withdrawal_debited",
  "payout_completed",
  "payout_returned",
  "rebalance",
] as const;
export type LedgerKind = (typeof LEDGER_KINDS)[number];

export interface LedgerEntry {
  organizationId: string;
  walletId: string;
  kind: LedgerKind;
  positionKey: string | null;
  amountMicros: bigint;
  yieldMicros: bigint;
  /** The deposit, withdrawal or strategy update the movement belongs to. */
  refId: string | null;
  /** Free text: the payout leg key and sources, for example. */
  detail: string | null;
  fromAt: string | null;
  at: string;
}

export type StoredLedgerEntry = LedgerEntry & { seq: number };

interface Row {
  seq: bigint;
  organization_id: string;
  wallet_id: string;
  kind: LedgerKind;
  position_key: string | null;
  amount_micros: bigint;
  yield_micros: bigint;
  ref_id: string | null;
  detail: string | null;
  from_at: string | null;
  at: string;
}

const toEntry = (row: Row): StoredLedgerEntry => ({
  seq: Number(row.seq),
  organizationId: row.organization_id,
  walletId: row.wallet_id,
  kind: row.kind,
  positionKey: row.position_key,
  amountMicros: row.amount_micros,
  yieldMicros: row.yield_micros,
  refId: row.ref_id,
  detail: row.detail,
  fromAt: row.from_at,
  at: row.at,
});

/** The organization's yield withdrawn by `at` (payouts completed at or before it), in all. */
export function readWithdrawnThrough(db: DatabaseSync, organizationId: string, at: string): bigint {
  const row = db
    .prepare(
      `SELECT withdrawn_micros FROM organization_withdrawn_history WHERE organization_id = ? AND at <= ?
       ORDER BY at DESC LIMIT 1`,
    )
    .get(organizationId, at) as { withdrawn_micros: string } | undefined;
  return row === undefined ? 0n : BigInt(row.withdrawn_micros);
}

/**
 * Adds a payout's yield share at `at` to the withdrawn history: its row holds what was withdrawn
 * through then, and any later row (a payout recorded after one that completed later: legs
 * complete at their due times) is raised too, so each row stays the sum through its instant.
 */
export function addToWithdrawnHistory(
  db: DatabaseSync,
  organizationId: string,
  at: string,
  micros: bigint,
): void {
  const write = db.prepare(
    `INSERT INTO organization_withdrawn_history (organization_id, at, withdrawn_micros) VALUES (?, ?, ?)
     ON CONFLICT (organization_id, at) DO UPDATE SET withdrawn_micros = excluded.withdrawn_micros`,
  );
  const later = db
    .prepare(
      "SELECT at, withdrawn_micros FROM organization_withdrawn_history WHERE organization_id = ? AND at > ?",
    )
    .all(organizationId, at) as { at: string; withdrawn_micros: string }[];
  write.run(organizationId, at, (readWithdrawnThrough(db, organizationId, at) + micros).toString());
  for (const row of later)
    write.run(organizationId, row.at, (BigInt(row.withdrawn_micros) + micros).toString());
}

export function appendLedgerEntry(db: DatabaseSync, entry: LedgerEntry): void {
  db.prepare(
    `INSERT INTO ledger_entries
       (organization_id, wallet_id, kind, position_key, amount_micros, yield_micros, ref_id, detail, from_at, at)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
  ).run(
    entry.organizationId,
    entry.walletId,
    entry.kind,
    entry.positionKey,
    entry.amountMicros,
    entry.yieldMicros,
    entry.refId,
    entry.detail,
    entry.fromAt,
    entry.at,
  );
  // A completed payout's yield share is yield withdrawn, which the yield metrics read by instant.
  if (entry.kind === "payout_completed" && entry.yieldMicros !== 0n)
    addToWithdrawnHistory(db, entry.organizationId, entry.at, entry.yieldMicros);
}

/** A position's newest accrual entry, or null. */
export function findLatestAccrualEntry(
  db: DatabaseSync,
  walletId: string,
  positionKey: string,
): StoredLedgerEntry | null {
  const row = prepareReadingBigInts(
    db,
    `SELECT * FROM ledger_entries WHERE wallet_id = ? AND kind = 'accrual' AND position_key = ?
     ORDER BY at DESC LIMIT 1`,
  ).get(walletId, positionKey) as Row | undefined;
  return row === undefined ? null : toEntry(row);
}

/** Adds `micros` of yield to an accrual entry and moves its end to `at`. */
export function extendAccrualEntry(
  db: DatabaseSync,
  entry: StoredLedgerEntry,
  micros: bigint,
  at: string,
): void {
  db.prepare(
    `UPDATE ledger_entries SET amount_micros = amount_micros + ?, yield_micros = yield_micros + ?, at = ?
     WHERE seq = ? AND kind = 'accrual'`,
  ).run(micros, micros, at, entry.seq);
}

/**
 * Sums of amount and yield per wallet and kind, for the organization's wallets. Summed here in
 * bigint rather than by SQL SUM: a wallet's lifetime flows are not bounded by its balance, and
 * SQLite's 64-bit SUM would fail on overflow.
 */
export function ledgerSums(
  db: DatabaseSync,
  organizationId: string,
): { walletId: string; kind: LedgerKind; amountMicros: bigint; yieldMicros: bigint }[] {
  const sums = new Map<
    string,
    { walletId: string; kind: LedgerKind; amountMicros: bigint; yieldMicros: bigint }
  >();
  const rows = prepareReadingBigInts(
    db,
    "SELECT wallet_id, kind, amount_micros, yield_micros FROM ledger_entries WHERE organization_id = ?",
  ).iterate(organizationId) as Iterable<{
    wallet_id: string;
    kind: LedgerKind;
    amount_micros: bigint;
    yield_micros: bigint;
  }>;
  for (const row of rows) {
    const key = `${row.wallet_id}\u0000${row.kind}`;
    const sum = sums.get(key) ?? {
      walletId: row.wallet_id,
      kind: row.kind,
      amountMicros: 0n,
      yieldMicros: 0n,
    };
    sum.amountMicros += row.amount_micros;
    sum.yieldMicros += row.yield_micros;
    sums.set(key, sum);
  }
  return [...sums.values()];
}

/**
 * Entries of one kind, of the organization or of one wallet, that end after `after` (all when
 * null), in the order they end. Each reads its own index range: no other organization's rows.
 */
export function listLedgerEntriesOfKind(
  db: DatabaseSync,
  scope: { organizationId: string } | { walletId: string },
  kind: LedgerKind,
  after: string | null,
): StoredLedgerEntry[] {
  const [column, value] =
    "walletId" in scope ? ["wallet_id", scope.walletId] : ["organization_id", scope.organizationId];
  const rows =
    after === null
      ? prepareReadingBigInts(
          db,
          `SELECT * FROM ledger_entries WHERE ${column} = ? AND kind = ? ORDER BY at, seq`,
        ).all(value, kind)
      : prepareReadingBigInts(
          db,
          `SELECT * FROM ledger_entries WHERE ${column} = ? AND kind = ? AND at > ? ORDER BY at, seq`,
        ).all(value, kind, after);
  return (rows as unknown as Row[]).map(toEntry);
}

/** The newest entries of the organization (optionally one wallet's), newest first. */
export function listRecentLedgerEntries(
  db: DatabaseSync,
  organizationId: string,
  walletId: string | null,
  limit: number,
): StoredLedgerEntry[] {
  // Each from its own index range, newest first: a wallet's entries never by walking the organization's.
  const rows =
    walletId === null
      ? prepareReadingBigInts(
          db,
          "SELECT * FROM ledger_entries WHERE organization_id = ? ORDER BY seq DESC LIMIT ?",
        ).all(organizationId, limit)
      : prepareReadingBigInts(
          db,
          "SELECT * FROM ledger_entries WHERE wallet_id = ? AND organization_id = ? ORDER BY seq DESC LIMIT ?",
        ).all(walletId, organizationId, limit);
  return (rows as unknown as Row[]).map(toEntry);
}

/**
 * A wallet's entries in the order they were written (index ledger_by_wallet_seq), the oldest
 * `limit`: its history, for the console's charts over time.
 */
export function listWalletLedgerEntries(
  db: DatabaseSync,
  walletId: string,
  limit: number,
): StoredLedgerEntry[] {
  const rows = prepareReadingBigInts(
    db,
    "SELECT * FROM ledger_entries WHERE wallet_id = ? ORDER BY seq LIMIT ?",
  ).all(walletId, limit);
  return (rows as unknown as Row[]).map(toEntry);
}

/**
 * What one completed deposit allocated to each position: its `deposit_allocated` entries, all
 * written at its completion time, read from that one instant's range of ledger_by_wallet_kind
 * (never a scan of the wallet's growing ledger).
 */
export function listDepositAllocations(
  db: DatabaseSync,
  walletId: string,
  depositId: string,
  completedAt: string,
): { positionKey: string; amountMicros: bigint }[] {
  const rows = prepareReadingBigInts(
    db,
    `SELECT position_key, amount_micros FROM ledger_entries
     WHERE wallet_id = ? AND kind = 'deposit_allocated' AND at = ? AND ref_id = ? ORDER BY seq`,
  ).all(walletId, completedAt, depositId) as unknown as { position_key: string; amount_micros: bigint }[];
  return rows.map((row) => ({ positionKey: row.position_key, amountMicros: row.amount_micros }));
}

/** The entries of one deposit, withdrawal or strategy update of a wallet, in the order written. */
export function listLedgerEntriesOfRef(
  db: DatabaseSync,
  walletId: string,
  refId: string,
): StoredLedgerEntry[] {
  const rows = prepareReadingBigInts(
    db,
    "SELECT * FROM ledger_entries WHERE wallet_id = ? AND ref_id = ? ORDER BY seq",
  ).all(walletId, refId);
  return (rows as unknown as Row[]).map(toEntry);
}
