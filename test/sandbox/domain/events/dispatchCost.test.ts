import { createWebhookInboxes } from "../../../../sandbox/domain/events/inboxes.ts";
import { setImmediate as afterPass } from "node:timers/promises";
import { afterEach, expect, test } from "vitest";
import {
  createWebhookDispatcher,
  DEFAULT_WEBHOOK_DELIVERY,
  type WebhookDispatcher,
} from "../../../../sandbox/domain/events/delivery.ts";
import { openDatabase } from "../../../../sandbox/store/db.ts";
import {
  insertDelivery,
  insertWebhookEvent,
  newDelivery,
} from "../../../../sandbox/store/webhookDeliveryStore.ts";
import { recordStatements } from "../../store/queryPlans/statementRecorder.ts";
import { uuid } from "../../helpers.ts";
import { startReceiver, type Receiver } from "./harness/receiver.ts";

/**
 * One organization's fan-out backlog is not read again on every dispatch pass: a pass reads the
 * deliveries it can start (its free slots), whatever the backlog behind them
 * (sandbox/domain/events/delivery.ts). Counted in rows SQLite hands back, not in time.
 */

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  while (cleanups.length > 0) await cleanups.pop()?.();
});

/** An outbox with `backlogs[org]` pending deliveries, each due now, to one registration of each organization. */
function outboxWith(url: string, backlogs: Record<string, number>) {
  const db = openDatabase(":memory:");
  const registrations: { id: string; organizationId: string }[] = [];
  const at = new Date().toISOString();
  for (const [organizationId, pending] of Object.entries(backlogs)) {
    const id = uuid();
    registrations.push({ id, organizationId });
    db.prepare(
      `INSERT INTO webhook_registrations (id, organization_id, url, status, event_types_json, secret, created_at, updated_at)
       VALUES (?, ?, ?, 'active', '[]', 'secret', ?, ?)`,
    ).run(id, organizationId, url, at, at);
    for (let i = 0; i < pending; i++) {
      const eventId = uuid();
      insertWebhookEvent(db, { id: eventId, organizationId, type: "t", payload: "{}", createdAt: at });
      insertDelivery(
        db,
        newDelivery({
          id: uuid(),
          organizationId,
          eventId,
          eventType: "t",
          registrationId: id,
          url,
          createdAt: at,
          walletId: null,
        }),
      );
    }
  }
  return { db, registrations };
}

test("a pass with 1,000 deliveries waiting for one registration reads the few it starts, not the 1,000", async () => {
  const receiver: Receiver = await startReceiver(() => "hang");
  cleanups.push(() => receiver.close());
  const { db, registrations } = outboxWith(receiver.url, { loud: 1_000, quiet: 1 });
  const recorder = recordStatements();
  let dispatcher: WebhookDispatcher | undefined;
  try {
    dispatcher = createWebhookDispatcher(
      db,
      { ...DEFAULT_WEBHOOK_DELIVERY, timeoutMs: 30_000 },
      { allowPrivateNetworks: true, hostAddresses: () => [] },
      createWebhookInboxes(db, { allowedHosts: [], now: () => new Date() }),
    );
    // The first pass (at startup) finds the registrations with work, by one scan of the due
    // index, and starts what its slots allow.
    await afterPass();
    const perRegistration = DEFAULT_WEBHOOK_DELIVERY.concurrencyPerRegistration;
    // A pass while the loud registration's slots are all taken, as on every event it gets: it
    // reads the deliveries it can start (none) and the one probe that says work is left.
    recorder.executions.length = 0;
    dispatcher.kick(registrations[0]);
    await afterPass();
    expect(recorder.executions.length).toBeGreaterThan(0);
    const rowsRead = recorder.executions.reduce((sum, execution) => sum + execution.rows, 0);
    expect(rowsRead, JSON.stringify(recorder.executions)).toBeLessThan(20);
    const deliveryRows = recorder.executions
      .filter((execution) => /FROM webhook_deliveries/.test(execution.sql))
      .reduce((sum, execution) => sum + execution.rows, 0);
    expect(deliveryRows).toBeLessThanOrEqual(perRegistration + 2);
  } finally {
    recorder.stop();
    await dispatcher?.close();
    db.close();
  }
});
