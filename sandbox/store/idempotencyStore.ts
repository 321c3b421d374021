import type { DatabaseSync } from "node:sqlite";

export interface IdempotencyRecord {
  bodyFingerprint: string;
  resourceId: string;
}

export function findIdempotencyKey(
  db: DatabaseSync,
  organizationId: string,
  endpoint: string,
  requestId: string,
): IdempotencyRecord | null {
  const row = db
    .prepare(
      "SELECT body_fingerprint, resource_id FROM idempotency_keys WHERE organization_id = ? AND endpoint = ? AND request_id = ?",
    )
    .get(organizationId, endpoint, requestId) as
    { body_fingerprint: string; resource_id: string } | undefined;
  return row === undefined ? null : { bodyFingerprint: row.body_fingerprint, resourceId: row.resource_id };
}

/** The primary key (organization, endpoint, requestId) makes a second insert fail: a last line of defence. */
export function insertIdempotencyKey(
  db: DatabaseSync,
  key: {
    organizationId: string;
    endpoint: string;
    requestId: string;
    bodyFingerprint: string;
    resourceId: string;
  },
  at: string,
): void {
  db.prepare(
    `INSERT INTO idempotency_keys (organization_id, endpoint, request_id, body_fingerprint, resource_id, created_at)
     VALUES (?, ?, ?, ?, ?, ?)`,
  ).run(key.organizationId, key.endpoint, key.requestId, key.bodyFingerprint, key.resourceId, at);
}
