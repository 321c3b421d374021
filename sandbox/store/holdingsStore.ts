import type { DatabaseSync } from "node:sqlite";
import { prepareReadingBigInts } from "./connection.ts";
import { idList, listBalances, setBalance } from "./walletStore.ts";

/**
 * What a wallet holds, in micro-units: position values, pending allocations and per-chain figures,
 * all whole micros in INTEGER columns. Sandbox prices are 1 unit = 1 USD.
 */

/** Position values in micros, in stored order (zero rows included). */
export function readPositionMicros(db: DatabaseSync, walletId: string): Map<string, bigint> {
  return new Map(listBalances(db, walletId).map((b) => [b.positionKey, b.valueMicros]));
}

export function writePositionMicros(
  db: DatabaseSync,
  walletId: string,
  positionKey: string,
  micros: bigint,
  at: string,
): void {
  setBalance(db, walletId, { positionKey, valueMicros: micros }, at);
}

export function readPendingMicros(db: DatabaseSync, walletId: string): bigint {
  const row = prepareReadingBigInts(
    db,
    "SELECT pending_allocations_micros AS p FROM wallets WHERE id = ?",
  ).get(walletId) as { p: bigint } | undefined;
  return row?.p ?? 0n;
}

/** Adds `deltaMicros` to the wallet's pending allocations and to those of `chain`'s entry. */
export function addPendingMicros(
  db: DatabaseSync,
  walletId: string,
  chain: string,
  deltaMicros: bigint,
): void {
  db.prepare(
    "UPDATE wallets SET pending_allocations_micros = pending_allocations_micros + ? WHERE id = ?",
  ).run(deltaMicros, walletId);
  db.prepare(
    `UPDATE deposit_addresses SET pending_allocations_micros = pending_allocations_micros + ?
     WHERE wallet_id = ? AND chain = ?`,
  ).run(deltaMicros, walletId, chain);
}

/** Adds to the cumulative amount received through `chain` (spec 2.2 totalBalanceUsd). */
export function addReceivedMicros(
  db: DatabaseSync,
  walletId: string,
  chain: string,
  deltaMicros: bigint,
): void {
  db.prepare(
    "UPDATE deposit_addresses SET total_received_micros = total_received_micros + ? WHERE wallet_id = ? AND chain = ?",
  ).run(deltaMicros, walletId, chain);
}

/** What `chain`'s deposit address of the wallet has received in all (0 for an unknown chain). */
export function readReceivedMicros(db: DatabaseSync, walletId: string, chain: string): bigint {
  const row = prepareReadingBigInts(
    db,
    "SELECT total_received_micros AS t FROM deposit_addresses WHERE wallet_id = ? AND chain = ?",
  ).get(walletId, chain) as { t: bigint } | undefined;
  return row?.t ?? 0n;
}

/** The wallet owning `address` in the organization, on whichever chain(s) it is registered. */
export function findDepositAddressOwners(
  db: DatabaseSync,
  organizationId: string,
  address: string,
): { walletId: string; chain: string }[] {
  return (
    db
      .prepare(
        // CROSS JOIN keeps the address's own rows as the outer loop: never the organization's wallets.
        `SELECT d.wallet_id AS walletId, d.chain AS chain FROM deposit_addresses d
         CROSS JOIN wallets w ON w.id = d.wallet_id
         WHERE d.address = ? AND w.organization_id = ?`,
      )
      .all(address, organizationId) as unknown as { walletId: string; chain: string }[]
  ).map((row) => ({ walletId: row.walletId, chain: row.chain }));
}

/** Accrual state of a wallet: settled through when, and the yield still held. */
export interface AccrualState {
  accruedThrough: string;
  yieldOutstandingMicros: bigint;
}

export function readAccrualState(db: DatabaseSync, walletId: string): AccrualState | null {
  const row = prepareReadingBigInts(
    db,
    "SELECT accrued_through, yield_outstanding_micros FROM wallet_accruals WHERE wallet_id = ?",
  ).get(walletId) as { accrued_through: string; yield_outstanding_micros: bigint } | undefined;
  return row === undefined
    ? null
    : { accruedThrough: row.accrued_through, yieldOutstandingMicros: row.yield_outstanding_micros };
}

export function writeAccrualState(db: DatabaseSync, walletId: string, state: AccrualState): void {
  db.prepare(
    `INSERT INTO wallet_accruals (wallet_id, accrued_through, yield_outstanding_micros) VALUES (?, ?, ?)
     ON CONFLICT (wallet_id) DO UPDATE SET
       accrued_through = excluded.accrued_through,
       yield_outstanding_micros = excluded.yield_outstanding_micros`,
  ).run(walletId, state.accruedThrough, state.yieldOutstandingMicros);
}

/** Remainders below one micro, per position, as bigints. */
export function readAccrualRemainders(db: DatabaseSync, walletId: string): Map<string, bigint> {
  const rows = db
    .prepare("SELECT position_key, remainder FROM position_accrual_remainders WHERE wallet_id = ?")
    .all(walletId) as unknown as { position_key: string; remainder: string }[];
  return new Map(rows.map((row) => [row.position_key, BigInt(row.remainder)]));
}

export function writeAccrualRemainder(
  db: DatabaseSync,
  walletId: string,
  positionKey: string,
  remainder: bigint,
): void {
  db.prepare(
    `INSERT INTO position_accrual_remainders (wallet_id, position_key, remainder) VALUES (?, ?, ?)
     ON CONFLICT (wallet_id, position_key) DO UPDATE SET remainder = excluded.remainder`,
  ).run(walletId, positionKey, remainder.toString());
}

/** What accrual reads of one wallet: its settlement state, positions, remainders and pending allocations. */
export interface AccrualHoldings {
  state: AccrualState | null;
  /** Position values in micros, by position key. */
  positions: Map<string, bigint>;
  remainders: Map<string, bigint>;
  pendingMicros: bigint;
}

/** What accrual reads of wallets, a row per position (one with no position for a wallet without). */
const HOLDINGS_OF_WALLETS = `SELECT w.id AS wallet_id, w.pending_allocations_micros AS pending, a.accrued_through,
       a.yield_outstanding_micros AS yield_outstanding, b.position_key, b.value_micros, r.remainder
     FROM wallets w
     LEFT JOIN wallet_accruals a ON a.wallet_id = w.id
     LEFT JOIN wallet_balances b ON b.wallet_id = w.id
     LEFT JOIN position_accrual_remainders r ON r.wallet_id = w.id AND r.position_key = b.position_key`;

/**
 * AccrualHoldings of several wallets (a page of the list) in one statement: the same rows
 * pendingAccrual reads wallet by wallet (money/accrual.ts).
 */
export function readAccrualHoldingsOfWallets(
  db: DatabaseSync,
  walletIds: readonly string[],
): Map<string, AccrualHoldings> {
  const rows = prepareReadingBigInts(
    db,
    `${HOLDINGS_OF_WALLETS} WHERE w.id IN (SELECT value FROM json_each(?))`,
  ).all(idList(walletIds)) as unknown as HoldingsRow[];
  const byWallet = new Map<string, AccrualHoldings>();
  for (const row of rows) {
    let holdings = byWallet.get(row.wallet_id);
    if (holdings === undefined) {
      holdings = holdingsOf(row);
      byWallet.set(row.wallet_id, holdings);
    }
    addPosition(holdings, row);
  }
  return byWallet;
}

interface HoldingsRow {
  wallet_id: string;
  pending: bigint;
  accrued_through: string | null;
  yield_outstanding: bigint | null;
  position_key: string | null;
  value_micros: bigint | null;
  remainder: string | null;
}

/** The wallet's holdings from its first joined row, positions still to add. */
function holdingsOf(row: HoldingsRow): AccrualHoldings {
  return {
    state:
      row.accrued_through === null
        ? null
        : { accruedThrough: row.accrued_through, yieldOutstandingMicros: row.yield_outstanding ?? 0n },
    positions: new Map(),
    remainders: new Map(),
    pendingMicros: row.pending,
  };
}

function addPosition(holdings: AccrualHoldings, row: HoldingsRow): void {
  if (row.position_key === null) return;
  holdings.positions.set(row.position_key, row.value_micros ?? 0n);
  if (row.remainder !== null) holdings.remainders.set(row.position_key, BigInt(row.remainder));
}

/**
 * AccrualHoldings of every wallet of the organization, newest wallet first, from one statement
 * that walks the organization's wallets by index and each wallet's positions by key: the rows of
 * one wallet come together, so each is handed on as soon as the next wallet's row arrives.
 */
export function* iterateAccrualHoldings(
  db: DatabaseSync,
  organizationId: string,
): Generator<AccrualHoldings & { walletId: string }> {
  const rows = prepareReadingBigInts(
    db,
    `${HOLDINGS_OF_WALLETS} WHERE w.organization_id = ? ORDER BY w.created_at DESC, w.id DESC`,
  ).iterate(organizationId) as Iterable<HoldingsRow>;
  let current = null as (AccrualHoldings & { walletId: string }) | null;
  for (const row of rows) {
    if (current?.walletId !== row.wallet_id) {
      if (current !== null) yield current;
      current = { walletId: row.wallet_id, ...holdingsOf(row) };
    }
    addPosition(current, row);
  }
  if (current !== null) yield current;
}
