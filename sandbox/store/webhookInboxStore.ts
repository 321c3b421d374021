import type { DatabaseSync } from "node:sqlite";
import type { InboxAnswer, InboxDelivery } from "../../sdk/nodejs/contract/index.ts";

/** An inbox row: its name within its organization and the answer it gives. */
export interface InboxRecord {
  organizationId: string;
  name: string;
  answer: InboxAnswer;
  createdAt: string;
  updatedAt: string;
  deliveriesKept: number;
}

interface InboxRow {
  organization_id: string;
  name: string;
  answer_status: number;
  answer_delay_ms: number;
  created_at: string;
  updated_at: string;
  kept: number;
}

const INBOX_COLUMNS = `i.organization_id, i.name, i.answer_status, i.answer_delay_ms, i.created_at, i.updated_at,
  (SELECT COUNT(*) FROM webhook_inbox_deliveries d WHERE d.organization_id = i.organization_id AND d.inbox_name = i.name) AS kept`;

const toInbox = (row: InboxRow): InboxRecord => ({
  organizationId: row.organization_id,
  name: row.name,
  answer: { status: row.answer_status, delayMs: row.answer_delay_ms },
  createdAt: row.created_at,
  updatedAt: row.updated_at,
  deliveriesKept: row.kept,
});

export function findInbox(db: DatabaseSync, organizationId: string, name: string): InboxRecord | null {
  const row = db
    .prepare(`SELECT ${INBOX_COLUMNS} FROM webhook_inboxes i WHERE i.organization_id = ? AND i.name = ?`)
    .get(organizationId, name) as InboxRow | undefined;
  return row === undefined ? null : toInbox(row);
}

export function listInboxes(db: DatabaseSync, organizationId: string): InboxRecord[] {
  return (
    db
      .prepare(`SELECT ${INBOX_COLUMNS} FROM webhook_inboxes i WHERE i.organization_id = ? ORDER BY i.name`)
      .all(organizationId) as unknown as InboxRow[]
  ).map(toInbox);
}

export function countInboxes(db: DatabaseSync, organizationId: string): number {
  return (
    db.prepare("SELECT COUNT(*) AS n FROM webhook_inboxes WHERE organization_id = ?").get(organizationId) as {
      n: number;
    }
  ).n;
}

/** Inserts the inbox or changes its answer (its creation time stays). */
export function upsertInbox(
  db: DatabaseSync,
  organizationId: string,
  name: string,
  answer: InboxAnswer,
  at: string,
): void {
  db.prepare(
    `INSERT INTO webhook_inboxes (organization_id, name, answer_status, answer_delay_ms, created_at, updated_at)
     VALUES (?, ?, ?, ?, ?, ?)
     ON CONFLICT (organization_id, name) DO UPDATE SET
       answer_status = excluded.answer_status, answer_delay_ms = excluded.answer_delay_ms, updated_at = excluded.updated_at`,
  ).run(organizationId, name, answer.status, answer.delayMs, at, at);
}

/** Deletes the inbox and what it received; false when it did not exist. */
export function deleteInbox(db: DatabaseSync, organizationId: string, name: string): boolean {
  clearInboxDeliveries(db, organizationId, name);
  return (
    db.prepare("DELETE FROM webhook_inboxes WHERE organization_id = ? AND name = ?").run(organizationId, name)
      .changes > 0
  );
}

export function clearInboxDeliveries(db: DatabaseSync, organizationId: string, name: string): void {
  db.prepare("DELETE FROM webhook_inbox_deliveries WHERE organization_id = ? AND inbox_name = ?").run(
    organizationId,
    name,
  );
}

/**
 * Writes one received delivery and drops what falls out of the ring: the rows of the inbox older
 * than its newest `capacity`. Both by the primary key's range of the one inbox, so the cost does
 * not grow with other inboxes' rows.
 */
export function insertInboxDelivery(
  db: DatabaseSync,
  organizationId: string,
  inboxName: string,
  delivery: InboxDelivery,
  capacity: number,
): void {
  const last = db
    .prepare(
      "SELECT MAX(seq) AS seq FROM webhook_inbox_deliveries WHERE organization_id = ? AND inbox_name = ?",
    )
    .get(organizationId, inboxName) as { seq: number | null };
  const seq = (last.seq ?? 0) + 1;
  db.prepare(
    `INSERT INTO webhook_inbox_deliveries
       (organization_id, inbox_name, seq, id, received_at, event_id, event_type, registration_id, delivery_id,
        attempt, headers_json, body, signature_valid, signature_reason, answer_status, answer_delay_ms)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
  ).run(
    organizationId,
    inboxName,
    seq,
    delivery.id,
    delivery.receivedAt,
    delivery.eventId,
    delivery.eventType,
    delivery.registrationId,
    delivery.deliveryId,
    delivery.attempt,
    JSON.stringify(delivery.headers),
    delivery.body,
    delivery.signature.valid ? 1 : 0,
    delivery.signature.reason,
    delivery.answer.status,
    delivery.answer.delayMs,
  );
  db.prepare(
    "DELETE FROM webhook_inbox_deliveries WHERE organization_id = ? AND inbox_name = ? AND seq <= ?",
  ).run(organizationId, inboxName, seq - capacity);
}

interface DeliveryRow {
  id: string;
  received_at: string;
  event_id: string;
  event_type: string;
  registration_id: string;
  delivery_id: string;
  attempt: number;
  headers_json: string;
  body: string;
  signature_valid: number;
  signature_reason: string | null;
  answer_status: number;
  answer_delay_ms: number;
}

const toDelivery = (row: DeliveryRow): InboxDelivery => ({
  id: row.id,
  receivedAt: row.received_at,
  eventId: row.event_id,
  eventType: row.event_type,
  registrationId: row.registration_id,
  deliveryId: row.delivery_id,
  attempt: row.attempt,
  headers: JSON.parse(row.headers_json) as InboxDelivery["headers"],
  body: row.body,
  signature: { valid: row.signature_valid === 1, reason: row.signature_reason },
  answer: { status: row.answer_status, delayMs: row.answer_delay_ms },
});

/** The inbox's deliveries, newest first. */
export function listInboxDeliveries(
  db: DatabaseSync,
  organizationId: string,
  inboxName: string,
  filter: { eventType?: string | undefined; limit: number },
): InboxDelivery[] {
  const rows = db
    .prepare(
      `SELECT id, received_at, event_id, event_type, registration_id, delivery_id, attempt, headers_json, body,
              signature_valid, signature_reason, answer_status, answer_delay_ms
         FROM webhook_inbox_deliveries
        WHERE organization_id = ? AND inbox_name = ? AND (? IS NULL OR event_type = ?)
        ORDER BY seq DESC LIMIT ?`,
    )
    .all(organizationId, inboxName, filter.eventType ?? null, filter.eventType ?? null, filter.limit);
  return (rows as unknown as DeliveryRow[]).map(toDelivery);
}

export function findInboxDelivery(
  db: DatabaseSync,
  organizationId: string,
  inboxName: string,
  id: string,
): InboxDelivery | null {
  const row = db
    .prepare(
      `SELECT id, received_at, event_id, event_type, registration_id, delivery_id, attempt, headers_json, body,
              signature_valid, signature_reason, answer_status, answer_delay_ms
         FROM webhook_inbox_deliveries WHERE organization_id = ? AND inbox_name = ? AND id = ?`,
    )
    .get(organizationId, inboxName, id) as DeliveryRow | undefined;
  return row === undefined ? null : toDelivery(row);
}
