import type { DatabaseSync } from "node:sqlite";

/** A strategy update row. `positions` is the requested allocation, as given (extra fields dropped). */
export interface StrategyUpdateRecord {
  id: string;
  organizationId: string;
  walletId: string;
  requestId: string;
  status: string;
  positions: { positionKey: string; targetWeightBps: number }[];
  signingActivityId: string | null;
  failureReason: string | null;
  /** Set by fault injection when the update was created: it fails with this reason instead of completing. */
  plannedFailureReason: string | null;
  /** When a `processing` update is due to finish, on the sandbox clock. */
  dueAt: string | null;
  createdAt: string;
  updatedAt: string;
}

interface Row {
  id: string;
  organization_id: string;
  wallet_id: string;
  request_id: string;
  status: string;
  positions_json: string;
  signing_activity_id: string | null;
  failure_reason: string | null;
  planned_failure_reason: string | null;
  due_at: string | null;
  created_at: string;
  updated_at: string;
}

const toRecord = (row: Row): StrategyUpdateRecord => ({
  id: row.id,
  organizationId: row.organization_id,
  walletId: row.wallet_id,
  requestId: row.request_id,
  status: row.status,
  positions: JSON.parse(row.positions_json) as StrategyUpdateRecord["positions"],
  signingActivityId: row.signing_activity_id,
  failureReason: row.failure_reason,
  plannedFailureReason: row.planned_failure_reason,
  dueAt: row.due_at,
  createdAt: row.created_at,
  updatedAt: row.updated_at,
});

export function insertStrategyUpdate(db: DatabaseSync, update: StrategyUpdateRecord): void {
  db.prepare(
    `INSERT INTO strategy_updates
       (id, organization_id, wallet_id, request_id, status, positions_json, signing_activity_id,
        failure_reason, planned_failure_reason, due_at, created_at, updated_at)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
  ).run(
    update.id,
    update.organizationId,
    update.walletId,
    update.requestId,
    update.status,
    JSON.stringify(update.positions),
    update.signingActivityId,
    update.failureReason,
    update.plannedFailureReason,
    update.dueAt,
    update.createdAt,
    update.updatedAt,
  );
}

export function findStrategyUpdate(
  db: DatabaseSync,
  organizationId: string,
  id: string,
): StrategyUpdateRecord | null {
  const row = db
    .prepare("SELECT * FROM strategy_updates WHERE id = ? AND organization_id = ?")
    .get(id, organizationId) as Row | undefined;
  return row === undefined ? null : toRecord(row);
}

/** Updates of a wallet that have not finished (`pending_approval` or `processing`). */
export function listOpenStrategyUpdates(db: DatabaseSync, walletId: string): StrategyUpdateRecord[] {
  return (
    db
      .prepare(
        "SELECT * FROM strategy_updates WHERE wallet_id = ? AND status IN ('pending_approval', 'processing')",
      )
      .all(walletId) as unknown as Row[]
  ).map(toRecord);
}

/** A wallet's updates, newest first, at most `limit`. */
export function listWalletStrategyUpdates(
  db: DatabaseSync,
  walletId: string,
  limit: number,
): StrategyUpdateRecord[] {
  return (
    db
      .prepare("SELECT * FROM strategy_updates WHERE wallet_id = ? ORDER BY created_at DESC, id DESC LIMIT ?")
      .all(walletId, limit) as unknown as Row[]
  ).map(toRecord);
}

/**
 * `processing` updates, oldest due first; with `dueBy`, only those due by then; with
 * `organizationId`, that organization's only (its clock may run ahead of the shared one).
 */
export function listProcessingStrategyUpdates(
  db: DatabaseSync,
  dueBy?: string,
  organizationId?: string,
): StrategyUpdateRecord[] {
  const rows =
    dueBy === undefined
      ? db.prepare("SELECT * FROM strategy_updates WHERE status = 'processing' ORDER BY due_at").all()
      : organizationId === undefined
        ? db
            .prepare(
              "SELECT * FROM strategy_updates WHERE status = 'processing' AND due_at <= ? ORDER BY due_at",
            )
            .all(dueBy)
        : db
            .prepare(
              `SELECT * FROM strategy_updates WHERE organization_id = ? AND status = 'processing' AND due_at <= ?
               ORDER BY due_at`,
            )
            .all(organizationId, dueBy);
  return (rows as unknown as Row[]).map(toRecord);
}

/**
 * When the earliest processing update falls due (on its organization's clock), of every
 * organization or of `organizationId`; null when none is processing.
 */
export function nextStrategyUpdateDueAt(db: DatabaseSync, organizationId?: string): string | null {
  const row = (
    organizationId === undefined
      ? db
          .prepare(
            "SELECT MIN(due_at) AS due FROM strategy_updates WHERE status = 'processing' AND due_at IS NOT NULL",
          )
          .get()
      : db
          .prepare(
            `SELECT MIN(due_at) AS due FROM strategy_updates
             WHERE organization_id = ? AND status = 'processing' AND due_at IS NOT NULL`,
          )
          .get(organizationId)
  ) as { due: string | null };
  return row.due;
}

export function updateStrategyUpdateState(
  db: DatabaseSync,
  id: string,
  change: {
    status: string;
    failureReason?: string | null;
    dueAt?: string | null;
    signingActivityId?: string | null;
  },
  at: string,
): void {
  db.prepare(
    `UPDATE strategy_updates SET
       status = ?,
       failure_reason = COALESCE(?, failure_reason),
       due_at = CASE WHEN ? THEN ? ELSE due_at END,
       signing_activity_id = COALESCE(?, signing_activity_id),
       updated_at = ?
     WHERE id = ?`,
  ).run(
    change.status,
    change.failureReason ?? null,
    change.dueAt !== undefined ? 1 : 0,
    change.dueAt ?? null,
    change.signingActivityId ?? null,
    at,
    id,
  );
}
