import type { DatabaseSync } from "node:sqlite";

/** A signing activity row (the sandbox's stand-in for an activity at the signing provider). */
export interface SigningActivityRecord {
  id: string;
  organizationId: string;
  kind: string;
  subjectId: string;
  fingerprint: string;
  requiredApprovals: number;
  status: string;
  failureReason: string | null;
  createdAt: string;
  updatedAt: string;
}

interface Row {
  id: string;
  organization_id: string;
  kind: string;
  subject_id: string;
  fingerprint: string;
  required_approvals: number;
  status: string;
  failure_reason: string | null;
  created_at: string;
  updated_at: string;
}

const toRecord = (row: Row): SigningActivityRecord => ({
  id: row.id,
  organizationId: row.organization_id,
  kind: row.kind,
  subjectId: row.subject_id,
  fingerprint: row.fingerprint,
  requiredApprovals: row.required_approvals,
  status: row.status,
  failureReason: row.failure_reason,
  createdAt: row.created_at,
  updatedAt: row.updated_at,
});

export function insertSigningActivity(db: DatabaseSync, activity: SigningActivityRecord): void {
  db.prepare(
    `INSERT INTO signing_activities
       (id, organization_id, kind, subject_id, fingerprint, required_approvals, status, failure_reason, created_at, updated_at)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
  ).run(
    activity.id,
    activity.organizationId,
    activity.kind,
    activity.subjectId,
    activity.fingerprint,
    activity.requiredApprovals,
    activity.status,
    activity.failureReason,
    activity.createdAt,
    activity.updatedAt,
  );
}

/** Scoped to the organization: another organization's activity is not found. */
export function findSigningActivity(
  db: DatabaseSync,
  organizationId: string,
  id: string,
): SigningActivityRecord | null {
  const row = db
    .prepare("SELECT * FROM signing_activities WHERE id = ? AND organization_id = ?")
    .get(id, organizationId) as Row | undefined;
  return row === undefined ? null : toRecord(row);
}

/** Looks an activity up by fingerprint, as the signing provider's approve call names it. */
export function findSigningActivityByFingerprint(
  db: DatabaseSync,
  organizationId: string,
  fingerprint: string,
): SigningActivityRecord | null {
  const row = db
    .prepare("SELECT * FROM signing_activities WHERE fingerprint = ? AND organization_id = ?")
    .get(fingerprint, organizationId) as Row | undefined;
  return row === undefined ? null : toRecord(row);
}

export function updateSigningActivityStatus(
  db: DatabaseSync,
  id: string,
  status: string,
  failureReason: string | null,
  at: string,
): void {
  db.prepare("UPDATE signing_activities SET status = ?, failure_reason = ?, updated_at = ? WHERE id = ?").run(
    status,
    failureReason,
    at,
    id,
  );
}

/** The organization's activities, newest first; only those in `status` when given. */
export function listSigningActivities(
  db: DatabaseSync,
  organizationId: string,
  filter: { status?: string; limit: number },
): SigningActivityRecord[] {
  const rows =
    filter.status === undefined
      ? db
          .prepare(
            "SELECT * FROM signing_activities WHERE organization_id = ? ORDER BY created_at DESC, id DESC LIMIT ?",
          )
          .all(organizationId, filter.limit)
      : db
          .prepare(
            `SELECT * FROM signing_activities WHERE organization_id = ? AND status = ?
             ORDER BY created_at DESC, id DESC LIMIT ?`,
          )
          .all(organizationId, filter.status, filter.limit);
  return (rows as unknown as Row[]).map(toRecord);
}
