import { afterEach, describe, expect, test } from "vitest";
import { openDatabase } from "../../../../sandbox/store/db.ts";
import {
  insertDelivery,
  insertWebhookEvent,
  pruneDeliveryHistory,
} from "../../../../sandbox/store/webhookDeliveryStore.ts";
import { eventually, uuid, walletBody } from "../../helpers.ts";
import { startMoneySandbox, type MoneySandbox } from "../../moneyHelpers.ts";
import { startReceiver, type Receiver } from "./harness/receiver.ts";

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  while (cleanups.length > 0) await cleanups.pop()?.();
});

/** An outbox with one registration per organization and `rows` deliveries of the given status and age. */
function outbox() {
  const db = openDatabase(":memory:");
  for (const org of ["org-a", "org-b"]) {
    db.prepare(
      `INSERT INTO webhook_registrations (id, organization_id, url, status, event_types_json, secret, created_at, updated_at)
       VALUES (?, ?, 'https://example.com/h', 'active', '[]', 's', '2026-01-01T00:00:00.000Z', '2026-01-01T00:00:00.000Z')`,
    ).run(`reg-${org}`, org);
  }
  const add = (org: string, status: "pending" | "succeeded" | "failed", updatedAt: string) => {
    const eventId = uuid();
    insertWebhookEvent(db, {
      id: eventId,
      organizationId: org,
      type: "t",
      payload: "{}",
      createdAt: updatedAt,
    });
    insertDelivery(db, {
      id: uuid(),
      organizationId: org,
      eventId,
      eventType: "t",
      registrationId: `reg-${org}`,
      url: "https://example.com/h",
      status,
      attempts: 1,
      nextAttemptAt: status === "pending" ? 0 : null,
      lastAttemptAt: updatedAt,
      lastResponseStatus: null,
      lastError: null,
      deliveredAt: null,
      createdAt: updatedAt,
      updatedAt,
      walletId: null,
    });
  };
  const count = (sql: string) => (db.prepare(sql).get() as { n: number }).n;
  return { db, add, count };
}

describe("the webhook outbox is pruned", () => {
  test("finished deliveries past the retention go, pending ones stay, and so do their events", () => {
    const { db, add, count } = outbox();
    for (let i = 0; i < 5; i++) add("org-a", "succeeded", "2026-01-01T00:00:00.000Z");
    for (let i = 0; i < 3; i++) add("org-a", "pending", "2026-01-01T00:00:00.000Z");
    for (let i = 0; i < 2; i++) add("org-a", "failed", "2026-01-03T00:00:00.000Z");
    const deleted = pruneDeliveryHistory(db, {
      olderThanIso: "2026-01-02T00:00:00.000Z",
      keepPerOrganization: 100,
    });
    expect(deleted).toBe(5);
    expect(count("SELECT COUNT(*) AS n FROM webhook_deliveries WHERE status = 'pending'")).toBe(3);
    expect(count("SELECT COUNT(*) AS n FROM webhook_deliveries")).toBe(5);
    expect(count("SELECT COUNT(*) AS n FROM webhook_events")).toBe(5);
    db.close();
  });

  test("each organization keeps at most its newest N finished deliveries, whatever the others do", () => {
    const { db, add, count } = outbox();
    for (let i = 0; i < 30; i++) add("org-b", "succeeded", "2026-01-05T00:00:00.000Z");
    for (let i = 0; i < 4; i++) add("org-a", "succeeded", "2026-01-05T00:00:00.000Z");
    add("org-b", "pending", "2026-01-05T00:00:00.000Z");
    pruneDeliveryHistory(db, { olderThanIso: "2026-01-01T00:00:00.000Z", keepPerOrganization: 10 });
    expect(
      count(
        "SELECT COUNT(*) AS n FROM webhook_deliveries WHERE organization_id = 'org-b' AND status != 'pending'",
      ),
    ).toBe(10);
    expect(
      count(
        "SELECT COUNT(*) AS n FROM webhook_deliveries WHERE organization_id = 'org-b' AND status = 'pending'",
      ),
    ).toBe(1);
    expect(count("SELECT COUNT(*) AS n FROM webhook_deliveries WHERE organization_id = 'org-a'")).toBe(4);
    const kept = db
      .prepare(
        "SELECT MIN(seq) AS n FROM webhook_deliveries WHERE organization_id = 'org-b' AND status != 'pending'",
      )
      .get() as { n: number };
    expect(kept.n).toBe(21); // the newest ten of seq 1..30
    expect(count("SELECT COUNT(*) AS n FROM webhook_events")).toBe(15);
    db.close();
  });
});

describe("a registration's backlog is bounded", () => {
  async function sandbox(): Promise<MoneySandbox> {
    const m = await startMoneySandbox({
      allowPrivateWebhookUrls: true,
      webhookDelivery: { timeoutMs: 30_000, maxPendingPerRegistration: 3, concurrencyPerRegistration: 1 },
    });
    cleanups.push(() => m.close());
    return m;
  }

  test("events past maxPendingPerRegistration pending deliveries are recorded cancelled, backlog full", async () => {
    const m = await sandbox();
    const stuck: Receiver = await startReceiver(() => "hang");
    cleanups.push(() => stuck.close());
    await m.client.webhookRegistrations.create({
      url: stuck.url,
      eventTypes: ["portfolio_wallet.strategy.status_changed"],
    });
    const wallet = await m.client.wallets.create(walletBody());
    for (let i = 0; i < 3; i++) {
      await m.client.wallets.updateStrategy(wallet.id, {
        requestId: uuid(),
        positions: [{ positionKey: i % 2 === 0 ? "tbills" : "syrupUsdc", targetWeightBps: 10000 }],
      });
      await m.advance(1000);
    }
    await eventually(async () => stuck.requests.length === 1);
    const all = (await m.t.api("GET", "/_sandbox/webhook-deliveries")).body.data as {
      status: string;
      lastError: string | null;
    }[];
    expect(all.filter((d) => d.status === "pending")).toHaveLength(3);
    const cancelled = all.filter((d) => d.status === "cancelled");
    expect(cancelled.length).toBeGreaterThan(0);
    expect(cancelled.every((d) => d.lastError?.startsWith("backlog full: 3 deliveries"))).toBe(true);
  });
});

describe("a delivery cancelled before its next attempt", () => {
  test("keeps the last attempt's status code and time: nothing was sent when it was cancelled", async () => {
    const m = await startMoneySandbox({
      allowPrivateWebhookUrls: true,
      webhookDelivery: { retryBaseDelayMs: 1500 },
    });
    cleanups.push(() => m.close());
    const failing = await startReceiver(() => 500);
    cleanups.push(() => failing.close());
    const registration = await m.client.webhookRegistrations.create({
      url: failing.url,
      eventTypes: ["portfolio_wallet.strategy.status_changed"],
    });
    const wallet = await m.client.wallets.create(walletBody());
    await m.client.wallets.updateStrategy(wallet.id, {
      requestId: uuid(),
      positions: [{ positionKey: "tbills", targetWeightBps: 10000 }],
    });
    type Delivery = { status: string; lastResponseStatus: number | null; lastAttemptAt: string | null };
    const deliveries = async () =>
      (await m.t.api("GET", "/_console/api/webhook-deliveries")).body.data as Delivery[];
    await eventually(async () => (await deliveries())[0]?.lastResponseStatus === 500);
    const attempted = (await deliveries())[0]!;
    // Disabled before the retry: the retry finds it disabled and cancels the delivery unsent.
    const disabled = await m.t.api("PATCH", `/webhooks/registrations/${registration.id}/status`, {
      body: { status: "disabled" },
    });
    expect(disabled.status).toBe(200);
    await eventually(async () => (await deliveries())[0]?.status === "cancelled");
    expect((await deliveries())[0]).toMatchObject({
      status: "cancelled",
      lastResponseStatus: 500,
      lastAttemptAt: attempted.lastAttemptAt,
    });
    expect(failing.requests).toHaveLength(1);
  });
});
