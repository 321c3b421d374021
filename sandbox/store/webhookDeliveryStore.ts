import type { DatabaseSync, StatementSync } from "node:sqlite";
import { listOrganizationsWithWebhooks } from "./webhookStore.ts";

/** Delivery statuses: `pending` (waiting for an attempt), `succeeded`, `failed` (gave up), `cancelled`. */
export type DeliveryStatus = "pending" | "succeeded" | "failed" | "cancelled";

export interface DeliveryRecord {
  id: string;
  organizationId: string;
  eventId: string;
  eventType: string;
  registrationId: string;
  url: string;
  status: DeliveryStatus;
  attempts: number;
  /** Epoch ms (real time) of the next attempt; null once the delivery is finished. */
  nextAttemptAt: number | null;
  lastAttemptAt: string | null;
  lastResponseStatus: number | null;
  lastError: string | null;
  deliveredAt: string | null;
  createdAt: string;
  updatedAt: string;
  /** The wallet its event is about (the event data's portfolioWalletId); null for a test event. */
  walletId: string | null;
}

/** What a new delivery is given; the rest of its record is that of one never attempted. */
export type NewDelivery = Pick<
  DeliveryRecord,
  "id" | "organizationId" | "eventId" | "eventType" | "registrationId" | "url" | "createdAt" | "walletId"
> &
  Partial<Pick<DeliveryRecord, "status" | "nextAttemptAt" | "lastError">>;

/** A delivery never attempted: pending and due at once unless told otherwise, nothing sent or answered. */
export function newDelivery(fields: NewDelivery): DeliveryRecord {
  return {
    status: "pending",
    nextAttemptAt: Date.parse(fields.createdAt),
    lastError: null,
    ...fields,
    attempts: 0,
    lastAttemptAt: null,
    lastResponseStatus: null,
    deliveredAt: null,
    updatedAt: fields.createdAt,
  };
}

interface Row {
  id: string;
  organization_id: string;
  event_id: string;
  event_type: string;
  registration_id: string;
  url: string;
  status: DeliveryStatus;
  attempts: number;
  next_attempt_at: number | null;
  last_attempt_at: string | null;
  last_response_status: number | null;
  last_error: string | null;
  delivered_at: string | null;
  created_at: string;
  updated_at: string;
  wallet_id: string | null;
}

const toRecord = (row: Row): DeliveryRecord => ({
  id: row.id,
  organizationId: row.organization_id,
  eventId: row.event_id,
  eventType: row.event_type,
  registrationId: row.registration_id,
  url: row.url,
  status: row.status,
  attempts: row.attempts,
  nextAttemptAt: row.next_attempt_at,
  lastAttemptAt: row.last_attempt_at,
  lastResponseStatus: row.last_response_status,
  lastError: row.last_error,
  deliveredAt: row.delivered_at,
  createdAt: row.created_at,
  updatedAt: row.updated_at,
  walletId: row.wallet_id,
});

export function insertWebhookEvent(
  db: DatabaseSync,
  event: { id: string; organizationId: string; type: string; payload: string; createdAt: string },
): void {
  db.prepare(
    "INSERT INTO webhook_events (id, organization_id, type, payload, created_at) VALUES (?, ?, ?, ?, ?)",
  ).run(event.id, event.organizationId, event.type, event.payload, event.createdAt);
}

/** The exact body sent for an event: stored once, so every retry sends the same bytes. */
export function findWebhookEventPayload(db: DatabaseSync, eventId: string): string | null {
  const row = db.prepare("SELECT payload FROM webhook_events WHERE id = ?").get(eventId) as
    { payload: string } | undefined;
  return row?.payload ?? null;
}

export function insertDelivery(db: DatabaseSync, delivery: DeliveryRecord): void {
  db.prepare(
    `INSERT INTO webhook_deliveries
       (id, seq, organization_id, event_id, event_type, registration_id, url, status, attempts, next_attempt_at,
        last_attempt_at, last_response_status, last_error, delivered_at, created_at, updated_at, wallet_id)
     VALUES (?, COALESCE((SELECT MAX(seq) FROM webhook_deliveries), 0) + 1, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
  ).run(
    delivery.id,
    delivery.organizationId,
    delivery.eventId,
    delivery.eventType,
    delivery.registrationId,
    delivery.url,
    delivery.status,
    delivery.attempts,
    delivery.nextAttemptAt,
    delivery.lastAttemptAt,
    delivery.lastResponseStatus,
    delivery.lastError,
    delivery.deliveredAt,
    delivery.createdAt,
    delivery.updatedAt,
    delivery.walletId,
  );
}

/** A registration's pending deliveries due by `nowMs`, oldest first (index webhook_deliveries_by_registration_due). */
export function listDueDeliveriesOf(
  db: DatabaseSync,
  registrationId: string,
  nowMs: number,
  limit: number,
): DeliveryRecord[] {
  return (
    db
      .prepare(
        `SELECT * FROM webhook_deliveries WHERE registration_id = ? AND status = 'pending' AND next_attempt_at <= ?
         ORDER BY next_attempt_at, seq LIMIT ?`,
      )
      .all(registrationId, nowMs, limit) as unknown as Row[]
  ).map(toRecord);
}

/**
 * The registrations with a delivery due by `nowMs`, with their organization: what a dispatch pass
 * visits. Read from the due deliveries' index range, so the cost follows the work that is due,
 * not the number of registrations.
 */
export function listRegistrationsForDispatch(
  db: DatabaseSync,
  nowMs: number,
): { id: string; organizationId: string }[] {
  const registrations = new Map<string, string>();
  const rows = db
    .prepare(
      `SELECT organization_id, registration_id FROM webhook_deliveries
       WHERE status = 'pending' AND next_attempt_at <= ?`,
    )
    .iterate(nowMs) as Iterable<{ organization_id: string; registration_id: string }>;
  for (const row of rows) registrations.set(row.registration_id, row.organization_id);
  return [...registrations]
    .map(([id, organizationId]) => ({ id, organizationId }))
    .sort((a, b) => a.organizationId.localeCompare(b.organizationId) || a.id.localeCompare(b.id));
}

/**
 * Whether the registration has at least `count` deliveries pending. Reads at most `count` index
 * entries, whatever the size of the outbox.
 */
export function hasPendingBacklog(db: DatabaseSync, registrationId: string, count: number): boolean {
  const row = db
    .prepare(
      "SELECT 1 AS found FROM webhook_deliveries WHERE registration_id = ? AND status = 'pending' LIMIT 1 OFFSET ?",
    )
    .get(registrationId, count - 1);
  return row !== undefined;
}

/**
 * Ends every pending delivery of a registration as `cancelled` (the registration is gone), and
 * those of registrations that no longer exist when `registrationId` is null (at startup).
 */
export function cancelPendingDeliveries(
  db: DatabaseSync,
  registrationId: string | null,
  reason: string,
  atIso: string,
): void {
  const cancel = `UPDATE webhook_deliveries SET status = 'cancelled', next_attempt_at = NULL, last_error = ?, updated_at = ?`;
  // One registration's pending deliveries come from its own index range; the sweep at startup
  // reads the pending ones of every registration (it runs once per process, not per request).
  if (registrationId !== null) {
    db.prepare(`${cancel} WHERE registration_id = ? AND status = 'pending'`).run(
      reason,
      atIso,
      registrationId,
    );
  } else {
    // The registrations' table is named here only as the set of ids that still exist, inside one
    // statement over the deliveries: reading the ids apart (webhookStore.ts) and binding them back
    // would be a second statement and a plan no better.
    db.prepare(
      `${cancel} WHERE status = 'pending' AND registration_id NOT IN (SELECT id FROM webhook_registrations)`,
    ).run(reason, atIso);
  }
}

/** How long finished deliveries are kept, and how many per organization at most. */
export interface DeliveryRetention {
  /** Finished deliveries (succeeded, failed, cancelled) last updated before this are deleted. */
  olderThanIso: string;
  /** Of the rest, each organization keeps its newest this many. */
  keepPerOrganization: number;
}

/** Deletes at most this many rows per statement, so a prune never holds the database for long. */
const PRUNE_BATCH = 5000;

/**
 * Prunes delivery history: finished deliveries older than the retention, those past each
 * organization's newest `keepPerOrganization`, then events no delivery refers to any more. Pending
 * deliveries are never pruned. Returns how many deliveries were deleted.
 */
export function pruneDeliveryHistory(db: DatabaseSync, retention: DeliveryRetention): number {
  // Each deletion hands back the events of what it deleted: those are the events that may now
  // have no delivery left, found without reading the others.
  const touchedEvents = new Set<string>();
  const deleteBatch = (statement: StatementSync, ...params: (string | number)[]) => {
    const rows = statement.all(...params) as { event_id: string }[];
    for (const row of rows) touchedEvents.add(row.event_id);
    return rows.length;
  };
  let deleted = 0;
  const byAge = db.prepare(
    `DELETE FROM webhook_deliveries WHERE rowid IN (SELECT rowid FROM webhook_deliveries
       WHERE status IN ('succeeded', 'failed', 'cancelled') AND updated_at < ? LIMIT ?) RETURNING event_id`,
  );
  for (;;) {
    const changes = deleteBatch(byAge, retention.olderThanIso, PRUNE_BATCH);
    deleted += changes;
    if (changes < PRUNE_BATCH) break;
  }
  const oldestKept = db.prepare(
    `SELECT seq FROM webhook_deliveries WHERE organization_id = ? AND status != 'pending'
     ORDER BY seq DESC LIMIT 1 OFFSET ?`,
  );
  const byCount = db.prepare(
    `DELETE FROM webhook_deliveries WHERE rowid IN (SELECT rowid FROM webhook_deliveries
       WHERE organization_id = ? AND status != 'pending' AND seq < ? LIMIT ?) RETURNING event_id`,
  );
  for (const id of listOrganizationsWithWebhooks(db)) {
    const kept = oldestKept.get(id, retention.keepPerOrganization - 1) as { seq: number } | undefined;
    if (kept === undefined) continue;
    for (;;) {
      const changes = deleteBatch(byCount, id, kept.seq, PRUNE_BATCH);
      deleted += changes;
      if (changes < PRUNE_BATCH) break;
    }
  }
  const orphan = db.prepare(
    "DELETE FROM webhook_events WHERE id = ? AND NOT EXISTS (SELECT 1 FROM webhook_deliveries WHERE event_id = ?)",
  );
  for (const eventId of touchedEvents) orphan.run(eventId, eventId);
  // Events that never had a delivery (no registration wanted them), once past the retention.
  const undelivered = db.prepare(
    `DELETE FROM webhook_events WHERE rowid IN (SELECT rowid FROM webhook_events WHERE created_at < ?
       AND NOT EXISTS (SELECT 1 FROM webhook_deliveries d WHERE d.event_id = webhook_events.id) LIMIT ?)`,
  );
  for (;;) {
    if (Number(undelivered.run(retention.olderThanIso, PRUNE_BATCH).changes) < PRUNE_BATCH) break;
  }
  return deleted;
}

/** When the next pending delivery is due (epoch ms), or null when none is pending. */
export function nextDeliveryDueAt(db: DatabaseSync): number | null {
  const row = db
    .prepare("SELECT MIN(next_attempt_at) AS due FROM webhook_deliveries WHERE status = 'pending'")
    .get() as { due: number | null };
  return row.due;
}

/**
 * Claims a due delivery for one attempt by pushing its next_attempt_at past the attempt's timeout:
 * no other pass picks it up meanwhile, and if the process dies mid-attempt it is retried later.
 */
export function leaseDelivery(db: DatabaseSync, id: string, untilMs: number): void {
  db.prepare("UPDATE webhook_deliveries SET next_attempt_at = ? WHERE id = ? AND status = 'pending'").run(
    untilMs,
    id,
  );
}

export function recordDeliveryAttempt(
  db: DatabaseSync,
  id: string,
  outcome: {
    status: DeliveryStatus;
    attempts: number;
    nextAttemptAt: number | null;
    lastAttemptAt: string | null;
    /** When the record changed: the attempt's time, or when a delivery ended without one. */
    updatedAt: string;
    lastResponseStatus: number | null;
    lastError: string | null;
    deliveredAt: string | null;
  },
): void {
  db.prepare(
    `UPDATE webhook_deliveries SET status = ?, attempts = ?, next_attempt_at = ?, last_attempt_at = ?,
       last_response_status = ?, last_error = ?, delivered_at = ?, updated_at = ? WHERE id = ?`,
  ).run(
    outcome.status,
    outcome.attempts,
    outcome.nextAttemptAt,
    outcome.lastAttemptAt,
    outcome.lastResponseStatus,
    outcome.lastError,
    outcome.deliveredAt,
    outcome.updatedAt,
    id,
  );
}

/** Which deliveries to list: all filters optional, at most `limit`. */
export interface DeliveryFilter {
  status?: string;
  registrationId?: string;
  eventId?: string;
  eventType?: string;
  /** Deliveries of events about this wallet. */
  walletId?: string;
  limit: number;
}

/** A delivery as listed: its record, and whether its event is a test event. */
export type ListedDelivery = DeliveryRecord & { test: boolean };

/**
 * The organization's deliveries, newest first, each with its event's test mark (read from the
 * event row by its primary key). Filtered by wallet, they are read in order from the index on
 * (organization_id, wallet_id, seq): the read costs the page, whatever the number of wallets.
 */
export function listDeliveries(
  db: DatabaseSync,
  organizationId: string,
  filter: DeliveryFilter,
): ListedDelivery[] {
  const byWallet = filter.walletId !== undefined;
  const rows = db
    .prepare(
      `SELECT d.*, coalesce(json_extract(e.payload, '$.test'), 0) AS event_test
         FROM webhook_deliveries d LEFT JOIN webhook_events e ON e.id = d.event_id
        WHERE d.organization_id = ? ${byWallet ? "AND d.wallet_id = ?" : ""}
          AND (? IS NULL OR d.status = ?) AND (? IS NULL OR d.registration_id = ?)
          AND (? IS NULL OR d.event_id = ?) AND (? IS NULL OR d.event_type = ?)
        ORDER BY d.seq DESC LIMIT ?`,
    )
    .all(
      organizationId,
      ...(byWallet ? [filter.walletId!] : []),
      filter.status ?? null,
      filter.status ?? null,
      filter.registrationId ?? null,
      filter.registrationId ?? null,
      filter.eventId ?? null,
      filter.eventId ?? null,
      filter.eventType ?? null,
      filter.eventType ?? null,
      filter.limit,
    ) as unknown as (Row & { event_test: number })[];
  return rows.map((row) => ({ ...toRecord(row), test: row.event_test === 1 }));
}

/** One delivery of the organization, by id (its primary key); null when it has none such. */
export function findDelivery(db: DatabaseSync, organizationId: string, id: string): DeliveryRecord | null {
  const row = db
    .prepare("SELECT * FROM webhook_deliveries WHERE id = ? AND organization_id = ?")
    .get(id, organizationId) as Row | undefined;
  return row === undefined ? null : toRecord(row);
}
