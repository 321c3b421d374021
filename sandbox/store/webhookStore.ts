import type { DatabaseSync } from "node:sqlite";
import { afterCursorSql, type Cursor } from "./pagination.ts";

/** A webhook registration row; `secret` signs deliveries (a later issue) and is never listed. */
export interface WebhookRecord {
  id: string;
  organizationId: string;
  url: string;
  status: string;
  eventTypes: string[];
  description: string | null;
  secret: string;
  createdAt: string;
  updatedAt: string;
  disabledAt: string | null;
  disabledReason: string | null;
}

interface Row {
  id: string;
  organization_id: string;
  url: string;
  status: string;
  event_types_json: string;
  description: string | null;
  secret: string;
  created_at: string;
  updated_at: string;
  disabled_at: string | null;
  disabled_reason: string | null;
}

const toRecord = (row: Row): WebhookRecord => ({
  id: row.id,
  organizationId: row.organization_id,
  url: row.url,
  status: row.status,
  eventTypes: JSON.parse(row.event_types_json) as string[],
  description: row.description,
  secret: row.secret,
  createdAt: row.created_at,
  updatedAt: row.updated_at,
  disabledAt: row.disabled_at,
  disabledReason: row.disabled_reason,
});

export function insertWebhook(db: DatabaseSync, hook: WebhookRecord): void {
  db.prepare(
    `INSERT INTO webhook_registrations
       (id, organization_id, url, status, event_types_json, description, secret, created_at, updated_at, disabled_at, disabled_reason)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
  ).run(
    hook.id,
    hook.organizationId,
    hook.url,
    hook.status,
    JSON.stringify(hook.eventTypes),
    hook.description,
    hook.secret,
    hook.createdAt,
    hook.updatedAt,
    hook.disabledAt,
    hook.disabledReason,
  );
}

export function findWebhook(db: DatabaseSync, organizationId: string, id: string): WebhookRecord | null {
  const row = db
    .prepare("SELECT * FROM webhook_registrations WHERE id = ? AND organization_id = ?")
    .get(id, organizationId) as Row | undefined;
  return row === undefined ? null : toRecord(row);
}

export function listWebhooks(
  db: DatabaseSync,
  organizationId: string,
  cursor: Cursor | null,
  limit: number,
): WebhookRecord[] {
  const after = afterCursorSql(cursor);
  return (
    db
      .prepare(
        `SELECT * FROM webhook_registrations WHERE organization_id = ? AND ${after.sql}
         ORDER BY created_at DESC, id DESC LIMIT ?`,
      )
      .all(organizationId, ...after.params, limit) as unknown as Row[]
  ).map(toRecord);
}

export function updateWebhookStatus(
  db: DatabaseSync,
  id: string,
  change: { status: string; disabledAt: string | null; disabledReason: string | null },
  at: string,
): void {
  db.prepare(
    "UPDATE webhook_registrations SET status = ?, disabled_at = ?, disabled_reason = ?, updated_at = ? WHERE id = ?",
  ).run(change.status, change.disabledAt, change.disabledReason, at, id);
}

/** Changes where a registration sends and what; its secret and status stay. */
export function updateWebhookTarget(
  db: DatabaseSync,
  id: string,
  change: { url: string; eventTypes: string[]; description: string | null },
  at: string,
): void {
  db.prepare(
    "UPDATE webhook_registrations SET url = ?, event_types_json = ?, description = ?, updated_at = ? WHERE id = ?",
  ).run(change.url, JSON.stringify(change.eventTypes), change.description, at, id);
}

export function countWebhooks(db: DatabaseSync, organizationId: string): number {
  const row = db
    .prepare("SELECT COUNT(*) AS n FROM webhook_registrations WHERE organization_id = ?")
    .get(organizationId) as { n: number };
  return row.n;
}

/** Returns false when nothing was deleted (unknown id or another organization's registration). */
export function deleteWebhook(db: DatabaseSync, organizationId: string, id: string): boolean {
  const result = db
    .prepare("DELETE FROM webhook_registrations WHERE id = ? AND organization_id = ?")
    .run(id, organizationId);
  return Number(result.changes) > 0;
}

/** Active registrations of the organization, with what delivery needs. */
export function listActiveRegistrations(
  db: DatabaseSync,
  organizationId: string,
): { id: string; url: string; eventTypes: string[] }[] {
  return (
    db
      .prepare(
        "SELECT id, url, event_types_json FROM webhook_registrations WHERE organization_id = ? AND status = 'active'",
      )
      .all(organizationId) as unknown as { id: string; url: string; event_types_json: string }[]
  ).map((row) => ({ id: row.id, url: row.url, eventTypes: JSON.parse(row.event_types_json) as string[] }));
}

/** The registration as a delivery's attempt sees it now (it may have been disabled or deleted since). */
export function findRegistrationForDelivery(
  db: DatabaseSync,
  registrationId: string,
): { status: string; secret: string; url: string } | null {
  const row = db
    .prepare("SELECT status, secret, url FROM webhook_registrations WHERE id = ?")
    .get(registrationId) as { status: string; secret: string; url: string } | undefined;
  return row ?? null;
}

/** The organizations with a registration: those whose delivery history pruning keeps to a count. */
export function listOrganizationsWithWebhooks(db: DatabaseSync): string[] {
  const rows = db
    .prepare("SELECT DISTINCT organization_id AS id FROM webhook_registrations")
    .all() as unknown as { id: string }[];
  return rows.map((row) => row.id);
}
