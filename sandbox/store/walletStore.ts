import type { DatabaseSync } from "node:sqlite";
import { prepareReadingBigInts } from "./connection.ts";
import { afterCursorSql, type Cursor } from "./pagination.ts";

/** A wallet row as stored; the API view is computed from it by domain/walletView.ts. */
export interface WalletRecord {
  id: string;
  organizationId: string;
  requestId: string;
  label: string | null;
  status: string;
  /** Deposited money not yet allocated to positions. */
  pendingAllocationsMicros: bigint;
  createdAt: string;
  updatedAt: string;
}

/** One position of the target allocation, with the catalog meta copied when the target was set. */
export interface TargetRecord {
  positionKey: string;
  targetWeightBps: number;
  asset: string;
  maxProcessingTime: string;
}

/** What the wallet holds of one position (1 unit = 1 USD in the sandbox, so units = value). */
export interface BalanceRecord {
  positionKey: string;
  valueMicros: bigint;
}

export interface DepositAddressRecord {
  chain: string;
  address: string;
  /** Everything ever received through this chain (spec 2.2 totalBalanceUsd). */
  totalReceivedMicros: bigint;
  pendingAllocationsMicros: bigint;
}

interface WalletRow {
  id: string;
  organization_id: string;
  request_id: string;
  label: string | null;
  status: string;
  pending_allocations_micros: bigint;
  created_at: string;
  updated_at: string;
}

function toWallet(row: WalletRow): WalletRecord {
  return {
    id: row.id,
    organizationId: row.organization_id,
    requestId: row.request_id,
    label: row.label,
    status: row.status,
    pendingAllocationsMicros: row.pending_allocations_micros,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  };
}

export function insertWallet(
  db: DatabaseSync,
  wallet: WalletRecord,
  targets: readonly TargetRecord[],
  addresses: readonly { chain: string; address: string }[],
): void {
  db.prepare(
    `INSERT INTO wallets (id, organization_id, request_id, label, status, pending_allocations_micros, created_at, updated_at)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?)`,
  ).run(
    wallet.id,
    wallet.organizationId,
    wallet.requestId,
    wallet.label,
    wallet.status,
    wallet.pendingAllocationsMicros,
    wallet.createdAt,
    wallet.updatedAt,
  );
  replaceTargets(db, wallet.id, targets, wallet.createdAt);
  const insertAddress = db.prepare(
    "INSERT INTO deposit_addresses (wallet_id, chain, address) VALUES (?, ?, ?)",
  );
  for (const { chain, address } of addresses) insertAddress.run(wallet.id, chain, address);
}

/** When the organization's first wallet was created, or null when it has none (one index seek). */
export function firstWalletCreatedAt(db: DatabaseSync, organizationId: string): string | null {
  const row = db
    .prepare(
      "SELECT created_at FROM wallets WHERE organization_id = ? ORDER BY created_at ASC, id ASC LIMIT 1",
    )
    .get(organizationId) as { created_at: string } | undefined;
  return row?.created_at ?? null;
}

/** Only the owner's wallet is found: another organization's wallet reads as missing (404). */
export function findWallet(db: DatabaseSync, organizationId: string, walletId: string): WalletRecord | null {
  const row = prepareReadingBigInts(db, "SELECT * FROM wallets WHERE id = ? AND organization_id = ?").get(
    walletId,
    organizationId,
  ) as WalletRow | undefined;
  return row === undefined ? null : toWallet(row);
}

/** Newest first; fetches one row more than asked so the caller knows whether a next page exists. */
export function listWallets(
  db: DatabaseSync,
  organizationId: string,
  cursor: Cursor | null,
  limit: number,
): WalletRecord[] {
  const after = afterCursorSql(cursor);
  const rows = prepareReadingBigInts(
    db,
    `SELECT * FROM wallets WHERE organization_id = ? AND ${after.sql}
     ORDER BY created_at DESC, id DESC LIMIT ?`,
  ).all(organizationId, ...after.params, limit) as unknown as WalletRow[];
  return rows.map(toWallet);
}

export function touchWallet(db: DatabaseSync, walletId: string, at: string): void {
  db.prepare("UPDATE wallets SET updated_at = ? WHERE id = ?").run(at, walletId);
}

export function listTargets(db: DatabaseSync, walletId: string): TargetRecord[] {
  return (
    db
      .prepare("SELECT * FROM wallet_targets WHERE wallet_id = ? ORDER BY sort_order")
      .all(walletId) as unknown as {
      position_key: string;
      target_weight_bps: number;
      asset: string;
      max_processing_time: string;
    }[]
  ).map((row) => ({
    positionKey: row.position_key,
    targetWeightBps: row.target_weight_bps,
    asset: row.asset,
    maxProcessingTime: row.max_processing_time,
  }));
}

/**
 * The ids as one bound JSON array, for `IN (SELECT value FROM json_each(?))`: one prepared
 * statement whatever the count, each id a probe of the table's wallet index.
 */
export const idList = (ids: readonly string[]): string => JSON.stringify(ids);

/** listTargets of several wallets (a page of the list) in one statement, each wallet's in its order. */
export function listTargetsOfWallets(
  db: DatabaseSync,
  walletIds: readonly string[],
): Map<string, TargetRecord[]> {
  const rows = db
    .prepare("SELECT * FROM wallet_targets WHERE wallet_id IN (SELECT value FROM json_each(?))")
    .all(idList(walletIds)) as unknown as {
    wallet_id: string;
    position_key: string;
    target_weight_bps: number;
    asset: string;
    max_processing_time: string;
    sort_order: number;
  }[];
  const byWallet = new Map<string, (TargetRecord & { sortOrder: number })[]>(walletIds.map((id) => [id, []]));
  for (const row of rows)
    byWallet.get(row.wallet_id)?.push({
      positionKey: row.position_key,
      targetWeightBps: row.target_weight_bps,
      asset: row.asset,
      maxProcessingTime: row.max_processing_time,
      sortOrder: row.sort_order,
    });
  // Sorted here, a few rows per wallet, rather than by SQLite in a temporary B-tree.
  return new Map(
    [...byWallet].map(([id, targets]) => [
      id,
      targets.sort((a, b) => a.sortOrder - b.sortOrder).map(({ sortOrder: _sortOrder, ...target }) => target),
    ]),
  );
}

/**
 * Sets the target allocation, and makes sure every targeted position has a balance row, so money
 * added later always has a row to land in. Balance rows of dropped positions are kept (a
 * rebalance moves their value; see domain/strategyUpdates.ts).
 */
export function replaceTargets(
  db: DatabaseSync,
  walletId: string,
  targets: readonly TargetRecord[],
  at: string,
): void {
  db.prepare("DELETE FROM wallet_targets WHERE wallet_id = ?").run(walletId);
  const insertTarget = db.prepare(
    `INSERT INTO wallet_targets (wallet_id, position_key, target_weight_bps, asset, max_processing_time, sort_order)
     VALUES (?, ?, ?, ?, ?, ?)`,
  );
  const ensureBalance = db.prepare(
    `INSERT OR IGNORE INTO wallet_balances (wallet_id, position_key, value_micros, updated_at)
     VALUES (?, ?, 0, ?)`,
  );
  targets.forEach((target, index) => {
    insertTarget.run(
      walletId,
      target.positionKey,
      target.targetWeightBps,
      target.asset,
      target.maxProcessingTime,
      index,
    );
    ensureBalance.run(walletId, target.positionKey, at);
  });
}

export function listBalances(db: DatabaseSync, walletId: string): BalanceRecord[] {
  return (
    prepareReadingBigInts(
      db,
      "SELECT position_key, value_micros FROM wallet_balances WHERE wallet_id = ?",
    ).all(walletId) as unknown as { position_key: string; value_micros: bigint }[]
  ).map((row) => ({ positionKey: row.position_key, valueMicros: row.value_micros }));
}

export function setBalance(db: DatabaseSync, walletId: string, balance: BalanceRecord, at: string): void {
  db.prepare(
    `INSERT INTO wallet_balances (wallet_id, position_key, value_micros, updated_at)
     VALUES (?, ?, ?, ?)
     ON CONFLICT (wallet_id, position_key)
     DO UPDATE SET value_micros = excluded.value_micros, updated_at = excluded.updated_at`,
  ).run(walletId, balance.positionKey, balance.valueMicros, at);
}

/** listDepositAddresses of several wallets in one statement, each wallet's in the order they were made. */
export function listDepositAddressesOfWallets(
  db: DatabaseSync,
  walletIds: readonly string[],
): Map<string, DepositAddressRecord[]> {
  const rows = prepareReadingBigInts(
    db,
    "SELECT rowid AS made, * FROM deposit_addresses WHERE wallet_id IN (SELECT value FROM json_each(?))",
  ).all(idList(walletIds)) as unknown as {
    made: bigint;
    wallet_id: string;
    chain: string;
    address: string;
    total_received_micros: bigint;
    pending_allocations_micros: bigint;
  }[];
  const byWallet = new Map<string, typeof rows>(walletIds.map((id) => [id, []]));
  for (const row of rows) byWallet.get(row.wallet_id)?.push(row);
  return new Map(
    [...byWallet].map(([id, own]) => [
      id,
      own
        .sort((a, b) => (a.made < b.made ? -1 : a.made > b.made ? 1 : 0))
        .map((row) => ({
          chain: row.chain,
          address: row.address,
          totalReceivedMicros: row.total_received_micros,
          pendingAllocationsMicros: row.pending_allocations_micros,
        })),
    ]),
  );
}

export function listDepositAddresses(db: DatabaseSync, walletId: string): DepositAddressRecord[] {
  return (
    prepareReadingBigInts(db, "SELECT * FROM deposit_addresses WHERE wallet_id = ? ORDER BY rowid").all(
      walletId,
    ) as unknown as {
      chain: string;
      address: string;
      total_received_micros: bigint;
      pending_allocations_micros: bigint;
    }[]
  ).map((row) => ({
    chain: row.chain,
    address: row.address,
    totalReceivedMicros: row.total_received_micros,
    pendingAllocationsMicros: row.pending_allocations_micros,
  }));
}
