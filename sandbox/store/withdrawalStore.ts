import type { DatabaseSync } from "node:sqlite";
import { prepareReadingBigInts } from "./connection.ts";
import { afterCursorSql, type Cursor } from "./pagination.ts";

export interface WithdrawalRecord {
  id: string;
  organizationId: string;
  walletId: string;
  requestId: string;
  status: string;
  amountMicros: bigint;
  destinationToken: string;
  destinationChain: string;
  destinationAddress: string;
  signingActivityId: string | null;
  failureReason: string | null;
  createdAt: string;
  updatedAt: string;
  completedAt: string | null;
}

/** Micros drawn from one position for a leg. */
export interface LegSource {
  positionKey: string;
  micros: bigint;
}

/** Leg sources as JSON, micros as decimal strings (JSON has no bigint); older files hold numbers. */
export const sourcesToJson = (sources: readonly LegSource[]) =>
  JSON.stringify(
    sources.map((source) => ({ positionKey: source.positionKey, micros: source.micros.toString() })),
  );
const sourcesFromJson = (text: string): LegSource[] =>
  (JSON.parse(text) as { positionKey: string; micros: string | number }[]).map((source) => ({
    positionKey: source.positionKey,
    micros: BigInt(source.micros),
  }));

/** A payout leg. Status: `pending` (not started), `processing`, `completed`, `failed`, `skipped`. */
export interface LegRecord {
  withdrawalId: string;
  legKey: string;
  sortOrder: number;
  amountMicros: bigint;
  yieldMicros: bigint;
  maxProcessingTime: string;
  sources: LegSource[];
  status: string;
  /** When a processing leg pays out, on the sandbox clock. */
  dueAt: string | null;
  /** Set by fault injection: the leg fails with this reason when due instead of paying out. */
  plannedFailureReason: string | null;
  updatedAt: string;
}

interface WithdrawalRow {
  id: string;
  organization_id: string;
  wallet_id: string;
  request_id: string;
  status: string;
  amount_micros: bigint;
  destination_token: string;
  destination_chain: string;
  destination_address: string;
  signing_activity_id: string | null;
  failure_reason: string | null;
  created_at: string;
  updated_at: string;
  completed_at: string | null;
}

interface LegRow {
  withdrawal_id: string;
  leg_key: string;
  sort_order: bigint;
  amount_micros: bigint;
  yield_micros: bigint;
  max_processing_time: string;
  sources_json: string;
  status: string;
  due_at: string | null;
  planned_failure_reason: string | null;
  updated_at: string;
}

const toWithdrawal = (row: WithdrawalRow): WithdrawalRecord => ({
  id: row.id,
  organizationId: row.organization_id,
  walletId: row.wallet_id,
  requestId: row.request_id,
  status: row.status,
  amountMicros: row.amount_micros,
  destinationToken: row.destination_token,
  destinationChain: row.destination_chain,
  destinationAddress: row.destination_address,
  signingActivityId: row.signing_activity_id,
  failureReason: row.failure_reason,
  createdAt: row.created_at,
  updatedAt: row.updated_at,
  completedAt: row.completed_at,
});

const toLeg = (row: LegRow): LegRecord => ({
  withdrawalId: row.withdrawal_id,
  legKey: row.leg_key,
  sortOrder: Number(row.sort_order),
  amountMicros: row.amount_micros,
  yieldMicros: row.yield_micros,
  maxProcessingTime: row.max_processing_time,
  sources: sourcesFromJson(row.sources_json),
  status: row.status,
  dueAt: row.due_at,
  plannedFailureReason: row.planned_failure_reason,
  updatedAt: row.updated_at,
});

export function insertWithdrawal(db: DatabaseSync, w: WithdrawalRecord): void {
  db.prepare(
    `INSERT INTO withdrawals (id, organization_id, wallet_id, request_id, status, amount_micros, destination_token,
       destination_chain, destination_address, signing_activity_id, failure_reason, created_at, updated_at, completed_at)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
  ).run(
    w.id,
    w.organizationId,
    w.walletId,
    w.requestId,
    w.status,
    w.amountMicros,
    w.destinationToken,
    w.destinationChain,
    w.destinationAddress,
    w.signingActivityId,
    w.failureReason,
    w.createdAt,
    w.updatedAt,
    w.completedAt,
  );
}

export function updateWithdrawal(
  db: DatabaseSync,
  id: string,
  change: Pick<
    WithdrawalRecord,
    "status" | "signingActivityId" | "failureReason" | "completedAt" | "updatedAt"
  >,
): void {
  db.prepare(
    "UPDATE withdrawals SET status = ?, signing_activity_id = ?, failure_reason = ?, completed_at = ?, updated_at = ? WHERE id = ?",
  ).run(
    change.status,
    change.signingActivityId,
    change.failureReason,
    change.completedAt,
    change.updatedAt,
    id,
  );
}

export function findWithdrawal(
  db: DatabaseSync,
  organizationId: string,
  id: string,
): WithdrawalRecord | null {
  const row = prepareReadingBigInts(db, "SELECT * FROM withdrawals WHERE id = ? AND organization_id = ?").get(
    id,
    organizationId,
  ) as WithdrawalRow | undefined;
  return row === undefined ? null : toWithdrawal(row);
}

/** Withdrawals found by id alone (for due legs, whose organization is the withdrawal's). */
export function findWithdrawalById(db: DatabaseSync, id: string): WithdrawalRecord | null {
  const row = prepareReadingBigInts(db, "SELECT * FROM withdrawals WHERE id = ?").get(id) as
    WithdrawalRow | undefined;
  return row === undefined ? null : toWithdrawal(row);
}

export function listWithdrawals(
  db: DatabaseSync,
  walletId: string,
  cursor: Cursor | null,
  limit: number,
): WithdrawalRecord[] {
  const after = afterCursorSql(cursor);
  return (
    prepareReadingBigInts(
      db,
      `SELECT * FROM withdrawals WHERE wallet_id = ? AND ${after.sql} ORDER BY created_at DESC, id DESC LIMIT ?`,
    ).all(walletId, ...after.params, limit) as unknown as WithdrawalRow[]
  ).map(toWithdrawal);
}

/** Sum of the amounts of a wallet's withdrawals awaiting approval (held, not yet debited). */
export function heldForApprovalMicros(db: DatabaseSync, walletId: string, exceptId: string | null): bigint {
  // Held amounts never exceed the wallet's balance, which is bounded (domain/money/limits.ts), so SUM is safe.
  const row = prepareReadingBigInts(
    db,
    "SELECT COALESCE(SUM(amount_micros), 0) AS held FROM withdrawals WHERE wallet_id = ? AND status = 'pending_approval' AND id IS NOT ?",
  ).get(walletId, exceptId) as { held: bigint };
  return row.held;
}

/** Replaces a withdrawal's legs (the plan is fixed when processing starts). */
export function replaceLegs(db: DatabaseSync, withdrawalId: string, legs: readonly LegRecord[]): void {
  db.prepare("DELETE FROM withdrawal_legs WHERE withdrawal_id = ?").run(withdrawalId);
  const insert = db.prepare(
    `INSERT INTO withdrawal_legs (withdrawal_id, leg_key, sort_order, amount_micros, yield_micros, max_processing_time,
       sources_json, status, due_at, planned_failure_reason, updated_at)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
  );
  for (const leg of legs) {
    insert.run(
      withdrawalId,
      leg.legKey,
      leg.sortOrder,
      leg.amountMicros,
      leg.yieldMicros,
      leg.maxProcessingTime,
      sourcesToJson(leg.sources),
      leg.status,
      leg.dueAt,
      leg.plannedFailureReason,
      leg.updatedAt,
    );
  }
}

export function updateLegStatus(
  db: DatabaseSync,
  withdrawalId: string,
  legKey: string,
  change: { status: string; dueAt: string | null; updatedAt: string },
): void {
  db.prepare(
    "UPDATE withdrawal_legs SET status = ?, due_at = ?, updated_at = ? WHERE withdrawal_id = ? AND leg_key = ?",
  ).run(change.status, change.dueAt, change.updatedAt, withdrawalId, legKey);
}

export function listLegs(db: DatabaseSync, withdrawalId: string): LegRecord[] {
  return (
    prepareReadingBigInts(
      db,
      "SELECT * FROM withdrawal_legs WHERE withdrawal_id = ? ORDER BY sort_order",
    ).all(withdrawalId) as unknown as LegRow[]
  ).map(toLeg);
}

/**
 * One organization's processing legs: those of its withdrawals still paying out, found by the
 * withdrawals' (organization_id, status) index, so another organization's legs are never read.
 */
const ORGANIZATION_LEGS = `withdrawal_legs WHERE status = 'processing' AND withdrawal_id IN
  (SELECT id FROM withdrawals WHERE organization_id = ? AND status IN ('processing', 'partially_completed'))`;

/**
 * Processing legs due by `dueBy`, earliest first: every organization's, or with `organizationId`
 * that organization's only (its clock may run ahead of the shared one).
 */
export function listDueLegs(db: DatabaseSync, dueBy: string, organizationId?: string): LegRecord[] {
  const rows =
    organizationId === undefined
      ? prepareReadingBigInts(
          db,
          "SELECT * FROM withdrawal_legs WHERE status = 'processing' AND due_at <= ? ORDER BY due_at, withdrawal_id, sort_order",
        ).all(dueBy)
      : prepareReadingBigInts(
          db,
          `SELECT * FROM ${ORGANIZATION_LEGS} AND due_at <= ? ORDER BY due_at, withdrawal_id, sort_order`,
        ).all(organizationId, dueBy);
  return (rows as unknown as LegRow[]).map(toLeg);
}

/** When the earliest processing leg falls due: of every organization, or of `organizationId`. */
export function nextLegDueAt(db: DatabaseSync, organizationId?: string): string | null {
  const row = (
    organizationId === undefined
      ? db.prepare("SELECT MIN(due_at) AS due FROM withdrawal_legs WHERE status = 'processing'").get()
      : db.prepare(`SELECT MIN(due_at) AS due FROM ${ORGANIZATION_LEGS}`).get(organizationId)
  ) as { due: string | null };
  return row.due;
}
