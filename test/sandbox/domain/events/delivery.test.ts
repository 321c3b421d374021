import { afterEach, describe, expect, test } from "vitest";
import {
  EVENT_TYPES,
  WEBHOOK_EVENT_ID_HEADER,
  WEBHOOK_SIGNATURE_HEADER,
  WEBHOOK_TIMESTAMP_HEADER,
  type EventType,
} from "../../../../sdk/nodejs/contract/index.ts";
import { parseWebhookEvent, verifyWebhookSignature } from "../../../../sdk/nodejs/webhooks/index.ts";
import { eventually, ORG, uuid } from "../../helpers.ts";
import {
  DAY_MS,
  deposit,
  fundedWallet,
  startMoneySandbox,
  withdrawBody,
  type MoneySandbox,
} from "../../moneyHelpers.ts";
import { startReceiver, type Receiver, type Responder } from "./harness/receiver.ts";

const DELIVERY = { retryBaseDelayMs: 20, maxAttempts: 4, timeoutMs: 2000 };
const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  while (cleanups.length > 0) await cleanups.pop()?.();
});

async function sandbox(webhookDelivery = DELIVERY): Promise<MoneySandbox> {
  const m = await startMoneySandbox({
    webhookDelivery,
    rebalanceDelayMs: 1000,
    allowPrivateWebhookUrls: true,
  });
  cleanups.push(() => m.close());
  return m;
}
async function receiver(respond?: Responder): Promise<Receiver> {
  const r = await startReceiver(respond);
  cleanups.push(() => r.close());
  return r;
}
async function register(m: MoneySandbox, url: string, eventTypes: readonly EventType[] = EVENT_TYPES) {
  return m.client.webhookRegistrations.create({ url, eventTypes: [...eventTypes] });
}
type Delivery = {
  id: string;
  eventId: string;
  eventType: string;
  registrationId: string;
  status: string;
  attempts: number;
  lastResponseStatus: number | null;
  lastError: string | null;
};
async function deliveries(m: MoneySandbox, query = ""): Promise<Delivery[]> {
  const res = await m.t.api("GET", `/_sandbox/webhook-deliveries${query}`);
  expect(res.status).toBe(200);
  return res.body.data;
}
const settled = (m: MoneySandbox) => async () => (await deliveries(m, "?status=pending")).length === 0;

describe("webhook delivery", () => {
  test("every event type reaches each active registration subscribed to it, signed; a disabled one gets nothing", async () => {
    const m = await sandbox();
    const [all, disabled, strategyOnly] = [await receiver(), await receiver(), await receiver()];
    const allReg = await register(m, all.url);
    const disabledReg = await register(m, disabled.url);
    await m.client.webhookRegistrations.updateStatus(disabledReg.id, {
      status: "disabled",
      disabledReason: "paused",
    });
    await register(m, strategyOnly.url, ["portfolio_wallet.strategy.status_changed"]);

    const walletId = await fundedWallet(m, 1000); // deposit processing → completed
    const withdrawal = await m.client.withdrawals.create(walletId, withdrawBody(700)); // instant + redeem
    await m.advance(DAY_MS);
    await m.client.wallets.updateStrategy(walletId, {
      requestId: uuid(),
      positions: [{ positionKey: "syrupUsdc", targetWeightBps: 10000 }],
    });
    await m.advance(1000);
    await m.client.wallets.retrieve(walletId);
    await eventually(settled(m), 10_000);

    const events = all.requests.map((request) => {
      expect(
        verifyWebhookSignature({ payload: request.body, headers: request.headers, secret: allReg.secret }),
      ).toBe(true);
      const event = parseWebhookEvent(request.body);
      expect(request.headers[WEBHOOK_EVENT_ID_HEADER]).toBe(event.id);
      expect(request.headers["content-type"]).toBe("application/json");
      return event;
    });
    expect(new Set(events.map((e) => e.type))).toEqual(new Set(EVENT_TYPES));
    expect(new Set(events.map((e) => e.id)).size).toBe(events.length);
    expect(events.every((e) => (e as { organizationId?: string }).organizationId === ORG)).toBe(true);

    const statuses = (type: EventType) =>
      events.flatMap((e) => (e.type === type ? [JSON.stringify(e.data)] : [])).map((d) => JSON.parse(d));
    expect(
      statuses("portfolio_wallet.deposit.status_changed")
        .map((d) => [d.previousStatus, d.deposit.status])
        .sort(),
    ).toEqual(
      [
        [null, "processing"],
        ["processing", "completed"],
      ].sort(),
    );
    const withdrawalMoves = statuses("portfolio_wallet.withdrawal.status_changed")
      .filter((d) => d.withdrawal.id === withdrawal.id)
      .map((d) => `${d.previousStatus}→${d.withdrawal.status}`);
    expect(withdrawalMoves.sort()).toEqual(
      ["null→processing", "processing→partially_completed", "partially_completed→completed"].sort(),
    );
    expect(
      statuses("portfolio_wallet.withdrawal.payout.status_changed")
        .map((d) => `${d.payout.legKey}:${d.previousStatus}→${d.payout.status}`)
        .sort(),
    ).toEqual(
      [
        "instant:pending→processing",
        "instant:processing→completed",
        "redeem:pending→processing",
        "redeem:processing→completed",
      ].sort(),
    );
    expect(
      statuses("portfolio_wallet.strategy.status_changed")
        .map((d) => `${d.previousStatus}→${d.strategy.status}`)
        .sort(),
    ).toEqual(["null→processing", "processing→completed"].sort());
    const lastBalance = statuses("portfolio_wallet.balance.updated").at(-1);
    expect(lastBalance).toMatchObject({ portfolioWalletId: walletId, pendingAllocationsUsd: 0 });

    expect(disabled.requests).toHaveLength(0);
    expect((await deliveries(m)).some((d) => d.registrationId === disabledReg.id)).toBe(false);
    expect(strategyOnly.requests.map((r) => parseWebhookEvent(r.body).type)).toEqual([
      "portfolio_wallet.strategy.status_changed",
      "portfolio_wallet.strategy.status_changed",
    ]);
  });

  test("a receiver failing twice then succeeding gets the same event three times; exactly one success is recorded", async () => {
    const m = await sandbox();
    const flaky = await receiver((request) => (request.index < 2 ? 500 : 200));
    const registration = await register(m, flaky.url, ["portfolio_wallet.deposit.status_changed"]);
    const walletId = (
      await m.client.wallets.create({
        requestId: uuid(),
        positions: [{ positionKey: "syrupUsdc", targetWeightBps: 10000 }],
      })
    ).id;
    await deposit(m, walletId, 10);
    await eventually(settled(m), 10_000);

    const records = await deliveries(m, `?registrationId=${registration.id}`);
    expect(records).toHaveLength(1);
    expect(records[0]).toMatchObject({
      status: "succeeded",
      attempts: 3,
      lastResponseStatus: 200,
      lastError: null,
    });
    expect(flaky.requests).toHaveLength(3);
    const eventIds = new Set(flaky.requests.map((r) => r.headers[WEBHOOK_EVENT_ID_HEADER]));
    expect(eventIds).toEqual(new Set([records[0]?.eventId]));
    expect(new Set(flaky.requests.map((r) => r.body)).size).toBe(1);
    for (const request of flaky.requests) {
      expect(
        verifyWebhookSignature({
          payload: request.body,
          headers: request.headers,
          secret: registration.secret,
        }),
      ).toBe(true);
    }
  });

  test("gives up after maxAttempts and records the delivery failed, inspectable through the admin API", async () => {
    const m = await sandbox();
    const down = await receiver(() => 503);
    const registration = await register(m, down.url, ["portfolio_wallet.deposit.status_changed"]);
    const walletId = (
      await m.client.wallets.create({
        requestId: uuid(),
        positions: [{ positionKey: "tbills", targetWeightBps: 10000 }],
      })
    ).id;
    await deposit(m, walletId, 10);
    await eventually(settled(m), 10_000);
    const [record] = await deliveries(m, "?status=failed");
    expect(record).toMatchObject({
      registrationId: registration.id,
      eventType: "portfolio_wallet.deposit.status_changed",
      status: "failed",
      attempts: DELIVERY.maxAttempts,
      lastResponseStatus: 503,
      lastError: "receiver answered 503",
    });
    expect(down.requests).toHaveLength(DELIVERY.maxAttempts);
    const bad = await m.t.api("GET", "/_sandbox/webhook-deliveries?status=lost");
    expect(bad.status).toBe(400);
  });

  test("a receiver that never answers neither slows nor fails the API request that caused the event", async () => {
    // With a one-minute attempt timeout, a request waiting for its delivery would hang past the test's.
    const m = await sandbox({ ...DELIVERY, timeoutMs: 60_000 });
    const stuck = await receiver(() => "hang");
    await register(m, stuck.url, ["portfolio_wallet.deposit.status_changed"]);
    const walletId = (
      await m.client.wallets.create({
        requestId: uuid(),
        positions: [{ positionKey: "tbills", targetWeightBps: 10000 }],
      })
    ).id;
    const created = await deposit(m, walletId, 10);
    expect(created.status).toBe("processing");
    await eventually(async () => stuck.requests.length === 1);
    const [record] = await deliveries(m);
    expect(record).toMatchObject({ status: "pending", attempts: 0 });
    expect((await m.client.wallets.retrieve(walletId)).totalBalanceUsd).toBe(10);
  });

  test("the signature covers the exact body: a tampered body, another secret or a stale timestamp is rejected", async () => {
    const m = await sandbox();
    const r = await receiver();
    const registration = await register(m, r.url, ["portfolio_wallet.balance.updated"]);
    const walletId = (
      await m.client.wallets.create({
        requestId: uuid(),
        positions: [{ positionKey: "tbills", targetWeightBps: 10000 }],
      })
    ).id;
    await deposit(m, walletId, 10);
    await eventually(async () => r.requests.length === 1);
    const [request] = r.requests;
    if (request === undefined) throw new Error("no delivery");
    const { body, headers } = request;
    expect(headers[WEBHOOK_SIGNATURE_HEADER]).toMatch(/^v1=[0-9a-f]{64}$/);
    expect(verifyWebhookSignature({ payload: body, headers, secret: registration.secret })).toBe(true);
    const tampered = body.replace('"totalBalanceUsd":10', '"totalBalanceUsd":10000');
    expect(tampered).not.toBe(body);
    expect(verifyWebhookSignature({ payload: tampered, headers, secret: registration.secret })).toBe(false);
    expect(verifyWebhookSignature({ payload: body, headers, secret: `${registration.secret}x` })).toBe(false);
    const later = (Number(headers[WEBHOOK_TIMESTAMP_HEADER]) + 301) * 1000;
    expect(verifyWebhookSignature({ payload: body, headers, secret: registration.secret, now: later })).toBe(
      false,
    );
    expect(
      verifyWebhookSignature({
        payload: body,
        headers,
        secret: registration.secret,
        now: later,
        toleranceSeconds: 600,
      }),
    ).toBe(true);
  });
});
