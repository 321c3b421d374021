import type { DatabaseSync } from "node:sqlite";
import { prepareReadingBigInts } from "./db.ts";

/**
 * Kinds of ledger entry. Every movement of money is one of these; `amountMicros` is positive
 * except for `rebalance`, whose entries of one rebalance sum to zero.
 * - `deposit_detected`: outside world → wallet's pending allocations.
 * - `deposit_allocated`: pending allocations → a position (positionKey).
 * - `accrual`: yield generated → a position, over [fromAt, at].
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

/** Entries of one kind for the organization that end after `after` (all when null), oldest first. */
export function listLedgerEntriesOfKind(
  db: DatabaseSync,
  organizationId: string,
  kind: LedgerKind,
  after: string | null,
): StoredLedgerEntry[] {
  return (
    prepareReadingBigInts(
      db,
      `SELECT * FROM ledger_entries WHERE organization_id = ? AND kind = ? AND (? IS NULL OR at > ?)
       ORDER BY seq`,
    ).all(organizationId, kind, after, after) as unknown as Row[]
  ).map(toEntry);
}

/** The newest entries of the organization (optionally one wallet's), newest first. */
export function listRecentLedgerEntries(
  db: DatabaseSync,
  organizationId: string,
  walletId: string | null,
  limit: number,
): StoredLedgerEntry[] {
  return (
    prepareReadingBigInts(
      db,
      `SELECT * FROM ledger_entries WHERE organization_id = ? AND (? IS NULL OR wallet_id = ?)
       ORDER BY seq DESC LIMIT ?`,
    ).all(organizationId, walletId, walletId, limit) as unknown as Row[]
  ).map(toEntry);
}
