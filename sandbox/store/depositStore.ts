import type { DatabaseSync } from "node:sqlite";
import { prepareReadingBigInts } from "./connection.ts";
import { afterCursorSql, type Cursor } from "./pagination.ts";

/** A deposit row. `nextStepAt` is when it moves on (sandbox clock); null once finished. */
export interface DepositRecord {
  id: string;
  organizationId: string;
  walletId: string;
  chain: string;
  address: string;
  txHash: string;
  amountMicros: bigint;
  status: string;
  legStatuses: Record<string, string>;
  nextStepAt: string | null;
  failureReason: string | null;
  createdAt: string;
  updatedAt: string;
  completedAt: string | null;
}

interface Row {
  id: string;
  organization_id: string;
  wallet_id: string;
  chain: string;
  address: string;
  tx_hash: string;
  amount_micros: bigint;
  status: string;
  leg_statuses_json: string;
  next_step_at: string | null;
  failure_reason: string | null;
  created_at: string;
  updated_at: string;
  completed_at: string | null;
}

const toRecord = (row: Row): DepositRecord => ({
  id: row.id,
  organizationId: row.organization_id,
  walletId: row.wallet_id,
  chain: row.chain,
  address: row.address,
  txHash: row.tx_hash,
  amountMicros: row.amount_micros,
  status: row.status,
  legStatuses: JSON.parse(row.leg_statuses_json) as Record<string, string>,
  nextStepAt: row.next_step_at,
  failureReason: row.failure_reason,
  createdAt: row.created_at,
  updatedAt: row.updated_at,
  completedAt: row.completed_at,
});

export function insertDeposit(db: DatabaseSync, deposit: DepositRecord): void {
  db.prepare(
    `INSERT INTO deposits (id, organization_id, wallet_id, chain, address, tx_hash, amount_micros, status,
       leg_statuses_json, next_step_at, failure_reason, created_at, updated_at, completed_at)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
  ).run(
    deposit.id,
    deposit.organizationId,
    deposit.walletId,
    deposit.chain,
    deposit.address,
    deposit.txHash,
    deposit.amountMicros,
    deposit.status,
    JSON.stringify(deposit.legStatuses),
    deposit.nextStepAt,
    deposit.failureReason,
    deposit.createdAt,
    deposit.updatedAt,
    deposit.completedAt,
  );
}

export function updateDeposit(
  db: DatabaseSync,
  id: string,
  change: Pick<DepositRecord, "status" | "legStatuses" | "nextStepAt" | "completedAt" | "updatedAt">,
): void {
  db.prepare(
    "UPDATE deposits SET status = ?, leg_statuses_json = ?, next_step_at = ?, completed_at = ?, updated_at = ? WHERE id = ?",
  ).run(
    change.status,
    JSON.stringify(change.legStatuses),
    change.nextStepAt,
    change.completedAt,
    change.updatedAt,
    id,
  );
}

export function findDeposit(db: DatabaseSync, organizationId: string, id: string): DepositRecord | null {
  const row = prepareReadingBigInts(db, "SELECT * FROM deposits WHERE id = ? AND organization_id = ?").get(
    id,
    organizationId,
  ) as Row | undefined;
  return row === undefined ? null : toRecord(row);
}

export function findDepositByTx(
  db: DatabaseSync,
  organizationId: string,
  chain: string,
  txHash: string,
): DepositRecord | null {
  const row = prepareReadingBigInts(
    db,
    "SELECT * FROM deposits WHERE organization_id = ? AND chain = ? AND tx_hash = ?",
  ).get(organizationId, chain, txHash) as Row | undefined;
  return row === undefined ? null : toRecord(row);
}

export function listDeposits(
  db: DatabaseSync,
  walletId: string,
  cursor: Cursor | null,
  limit: number,
): DepositRecord[] {
  const after = afterCursorSql(cursor);
  return (
    prepareReadingBigInts(
      db,
      `SELECT * FROM deposits WHERE wallet_id = ? AND ${after.sql} ORDER BY created_at DESC, id DESC LIMIT ?`,
    ).all(walletId, ...after.params, limit) as unknown as Row[]
  ).map(toRecord);
}

/**
 * Deposits with a step due by `dueBy`, earliest first: every organization's, or with
 * `organizationId` that organization's only (its clock may run ahead of the shared one).
 */
export function listDueDeposits(db: DatabaseSync, dueBy: string, organizationId?: string): DepositRecord[] {
  const rows =
    organizationId === undefined
      ? prepareReadingBigInts(
          db,
          "SELECT * FROM deposits WHERE next_step_at IS NOT NULL AND next_step_at <= ? ORDER BY next_step_at, id",
        ).all(dueBy)
      : prepareReadingBigInts(
          db,
          `SELECT * FROM deposits WHERE organization_id = ? AND next_step_at IS NOT NULL AND next_step_at <= ?
           ORDER BY next_step_at, id`,
        ).all(organizationId, dueBy);
  return (rows as unknown as Row[]).map(toRecord);
}

/** When the earliest deposit step falls due: of every organization, or of `organizationId`. */
export function nextDepositStepAt(db: DatabaseSync, organizationId?: string): string | null {
  const row = (
    organizationId === undefined
      ? db.prepare("SELECT MIN(next_step_at) AS due FROM deposits WHERE next_step_at IS NOT NULL").get()
      : db
          .prepare(
            "SELECT MIN(next_step_at) AS due FROM deposits WHERE organization_id = ? AND next_step_at IS NOT NULL",
          )
          .get(organizationId)
  ) as { due: string | null };
  return row.due;
}
