// The cost of one webhook-delivery insert as the outbox grows: used by the reliability suite
// (1k against 100k rows, as a relative bound) and by `npm run bench` (up to 1M rows, reported).
import { randomUUID } from "node:crypto";
import type { DatabaseSync } from "node:sqlite";
import { openDatabase } from "../../sandbox/store/db.ts";
import { insertDelivery, insertWebhookEvent, newDelivery } from "../../sandbox/store/webhookDeliveryStore.ts";

const TIMESTAMP = "2026-01-01T00:00:00.000Z";

/**
 * A sandbox database (in memory, or a file as `--data` uses) with one registration and one event
 * for deliveries to point at.
 */
export class OutboxFixture {
  readonly #db: DatabaseSync;

  constructor(location = ":memory:") {
    this.#db = openDatabase(location);
    this.#db
      .prepare(
        `INSERT INTO webhook_registrations (id, organization_id, url, status, event_types_json, secret, created_at, updated_at)
         VALUES ('reg', 'org', 'https://example.com/h', 'active', '[]', 's', ?, ?)`,
      )
      .run(TIMESTAMP, TIMESTAMP);
    insertWebhookEvent(this.#db, {
      id: "event",
      organizationId: "org",
      type: "t",
      payload: "{}",
      createdAt: TIMESTAMP,
    });
  }

  /** Fills the outbox with finished deliveries until it holds `rows` (one SQL statement, fast). */
  fillTo(rows: number): void {
    this.#db
      .prepare(
        `WITH RECURSIVE n(i) AS (SELECT (SELECT COUNT(*) FROM webhook_deliveries) + 1 UNION ALL SELECT i + 1 FROM n WHERE i < ?)
         INSERT INTO webhook_deliveries (id, seq, organization_id, event_id, event_type, registration_id, url, status, attempts, created_at, updated_at)
         SELECT 'fill-' || i, i, 'org', 'event', 't', 'reg', 'u', 'succeeded', 1, ?, ? FROM n`,
      )
      .run(rows, TIMESTAMP, TIMESTAMP);
  }

  /**
   * Microseconds per insert through the store's own insertDelivery: the cheapest of five rounds of
   * 200, so a busy machine's pauses do not count.
   */
  perInsertMicros(): number {
    let best = Number.POSITIVE_INFINITY;
    for (let round = 0; round < 5; round++) {
      const start = process.hrtime.bigint();
      for (let i = 0; i < 200; i++) {
        insertDelivery(
          this.#db,
          newDelivery({
            id: randomUUID(),
            organizationId: "org",
            eventId: "event",
            eventType: "t",
            registrationId: "reg",
            url: "u",
            createdAt: TIMESTAMP,
            walletId: null,
          }),
        );
      }
      best = Math.min(best, Number(process.hrtime.bigint() - start) / 1000 / 200);
    }
    return best;
  }

  close(): void {
    this.#db.close();
  }
}
