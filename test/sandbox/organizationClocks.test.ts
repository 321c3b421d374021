// A clock per organization (docs/sandbox.md "Time"): two organizations share one sandbox, each
// with funded wallets, a pending withdrawal, a rebalance under way, a deposit being processed and
// an approval-gated update. One advances 30 days; the other sees nothing change.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { createManualClock } from "../../sandbox/index.ts";
import { startReceiver, type Receiver } from "./domain/events/harness/receiver.ts";
import {
  eventually,
  OTHER_TOKEN,
  startTestSandbox,
  TOKEN,
  TWO_SOURCES,
  uuid,
  type TestSandbox,
} from "./helpers.ts";
import { DAY_MS, DEPOSIT_DELAY_MS, withdrawBody } from "./moneyHelpers.ts";

const START = "2026-03-01T00:00:00.000Z";
const THIRTY_DAYS_MS = 30 * DAY_MS;

/** What one organization has on the go, and how to read all of it. */
interface Scene {
  token: string;
  wallets: string[];
  withdrawalPath: string;
  rebalancingUpdateId: string;
  gatedActivityId: string;
  depositPath: string;
}

let t: TestSandbox;
let receiver: Receiver;
const scenes: Record<"a" | "b", Scene> = {} as Record<"a" | "b", Scene>;

async function ok(method: string, path: string, token: string, body?: unknown) {
  const res = await t.api(method, path, { token, ...(body === undefined ? {} : { body }) });
  expect(res.status, `${method} ${path} ${JSON.stringify(res.body)}`).toBeLessThan(300);
  return res.body;
}

async function newWallet(token: string, amount: number, settle: boolean) {
  const wallet = await ok("POST", "/v2/portfolio-wallets", token, {
    requestId: uuid(),
    positions: TWO_SOURCES,
  });
  const deposit = await ok("POST", "/_sandbox/deposits", token, {
    chain: "ethereum",
    address: wallet.depositAddresses.ethereum.address,
    amount,
    txHash: `0x${uuid().replaceAll("-", "")}`,
  });
  if (settle) await ok("POST", "/_sandbox/clock/advance", token, { ms: DEPOSIT_DELAY_MS });
  return { walletId: wallet.id as string, depositId: deposit.id as string };
}

async function setUp(token: string): Promise<Scene> {
  await ok("POST", "/webhooks/registrations", token, {
    url: receiver.url,
    eventTypes: [
      "portfolio_wallet.balance.updated",
      "portfolio_wallet.strategy.status_changed",
      "portfolio_wallet.withdrawal.payout.status_changed",
    ],
  });
  const funded = await newWallet(token, 1000, true);
  const withdrawal = await ok(
    "POST",
    `/v2/portfolio-wallets/${funded.walletId}/withdraw`,
    token,
    withdrawBody(900),
  );
  const rebalancing = await newWallet(token, 500, true);
  const update = await ok("PATCH", `/v2/portfolio-wallets/${rebalancing.walletId}/strategy`, token, {
    requestId: uuid(),
    positions: [{ positionKey: "tbills", targetWeightBps: 10000 }],
  });
  await ok("POST", `/_sandbox/signing-activities/${update.signingActivityId}/approve`, token);
  const gated = await newWallet(token, 200, false);
  const gatedUpdate = await ok("PATCH", `/v2/portfolio-wallets/${gated.walletId}/strategy`, token, {
    requestId: uuid(),
    positions: [{ positionKey: "syrupUsdc", targetWeightBps: 10000 }],
  });
  return {
    token,
    wallets: [funded.walletId, rebalancing.walletId, gated.walletId],
    withdrawalPath: `/v2/portfolio-wallets/${funded.walletId}/withdrawals/${withdrawal.id}`,
    rebalancingUpdateId: update.id,
    gatedActivityId: gatedUpdate.signingActivityId,
    depositPath: `/v2/portfolio-wallets/${gated.walletId}/deposits/${gated.depositId}`,
  };
}

/** Everything the organization's time drives, as its API and admin API show it. */
async function observe(scene: Scene) {
  const { token } = scene;
  return {
    clock: await ok("GET", "/_sandbox/clock", token),
    wallets: await Promise.all(scene.wallets.map((id) => ok("GET", `/v2/portfolio-wallets/${id}`, token))),
    yieldMetrics: await ok("POST", "/v2/portfolio-wallets/yield", token, {}),
    withdrawal: await ok("GET", scene.withdrawalPath, token),
    rebalance: await ok("GET", `/_sandbox/strategy-updates/${scene.rebalancingUpdateId}`, token),
    approval: await ok("GET", `/_sandbox/signing-activities/${scene.gatedActivityId}`, token),
    deposit: await ok("GET", scene.depositPath, token),
    ledger: await ok("GET", "/_sandbox/ledger", token),
  };
}

/** The webhook events the receiver got for an organization, by their createdAt. */
const eventTimes = (organizationId: string) =>
  receiver.requests
    .map((request) => JSON.parse(request.body) as { organizationId: string; createdAt: string })
    .filter((event) => event.organizationId === organizationId)
    .map((event) => event.createdAt);

beforeAll(async () => {
  receiver = await startReceiver();
  t = await startTestSandbox({
    clock: createManualClock(new Date(START)),
    depositProcessingDelayMs: DEPOSIT_DELAY_MS,
    allowPrivateWebhookUrls: true,
    webhookDelivery: { retryBaseDelayMs: 10 },
    policies: { "org-a": { strategyUpdateApprovals: 1 }, "org-b": { strategyUpdateApprovals: 1 } },
  });
  scenes.a = await setUp(TOKEN);
  scenes.b = await setUp(OTHER_TOKEN);
});
afterAll(async () => {
  await t.close();
  await receiver.close();
});

describe("a clock per organization", () => {
  test("A advancing 30 days moves A's balances, yield, legs, rebalance, deposit and events, and nothing of B's", async () => {
    const beforeA = await observe(scenes.a);
    const beforeB = await observe(scenes.b);
    // Every time-driven thing is under way for both.
    for (const before of [beforeA, beforeB]) {
      expect(before.withdrawal.status).toMatch(/^(processing|partially_completed)$/);
      expect(before.rebalance.status).toBe("processing");
      expect(before.deposit.status).toBe("processing");
      expect(before.approval.status).toBe("ACTIVITY_STATUS_CONSENSUS_NEEDED");
    }
    await eventually(async () => eventTimes("org-b").length > 0 && eventTimes("org-a").length > 0);
    const eventsOfBBefore = eventTimes("org-b").length;

    const moved = await ok("POST", "/_sandbox/clock/advance", TOKEN, { ms: THIRTY_DAYS_MS });
    expect(moved.scope).toBe("organization");
    expect(Date.parse(moved.now) - Date.parse(beforeA.clock.now)).toBe(THIRTY_DAYS_MS);
    expect(moved.organizationLeadMs - beforeA.clock.organizationLeadMs).toBe(THIRTY_DAYS_MS);
    expect(moved.sharedNow).toBe(beforeA.clock.sharedNow);

    const afterA = await observe(scenes.a);
    const afterB = await observe(scenes.b);
    expect(afterB).toEqual(beforeB);

    expect(afterA.withdrawal.status).toBe("completed");
    expect(Date.parse(afterA.withdrawal.completedAt)).toBeGreaterThan(Date.parse(beforeA.clock.now));
    expect(afterA.rebalance.status).toBe("completed");
    expect(afterA.deposit.status).toBe("completed");
    for (const [index, wallet] of afterA.wallets.entries())
      expect(wallet.totalBalanceUsd, `wallet ${index}`).toBeGreaterThan(
        beforeA.wallets[index].totalBalanceUsd,
      );
    expect(afterA.yieldMetrics.global.generated).toBeGreaterThan(beforeA.yieldMetrics.global.generated);
    expect(Date.parse(afterA.yieldMetrics.period.end)).toBe(Date.parse(moved.now));
    expect(afterA.ledger.total.discrepancyMicros).toBe(0);
    // The approval-gated update waits for its approval whatever the time: it is A's to decide.
    expect(afterA.approval).toEqual(beforeA.approval);

    // A's events carry A's time: the redeem leg paid a day after the withdrawal, on A's clock,
    // while the shared clock has not moved. B got none.
    const legPaidBy = Date.parse(beforeA.clock.now) + DAY_MS - 10_000;
    await eventually(async () => eventTimes("org-a").some((at) => Date.parse(at) >= legPaidBy));
    expect(Date.parse(afterA.clock.sharedNow)).toBeLessThan(legPaidBy - DAY_MS + 10_000);
    expect(eventTimes("org-b")).toHaveLength(eventsOfBBefore);
  });

  test("a decision taken now is stamped with the deciding organization's time", async () => {
    const decided = await ok(
      "POST",
      `/_sandbox/signing-activities/${scenes.a.gatedActivityId}/approve`,
      TOKEN,
    );
    const clockA = await ok("GET", "/_sandbox/clock", TOKEN);
    expect(decided.updatedAt).toBe(clockA.now);
    const decidedB = await ok(
      "POST",
      `/_sandbox/signing-activities/${scenes.b.gatedActivityId}/approve`,
      OTHER_TOKEN,
    );
    const clockB = await ok("GET", "/_sandbox/clock", OTHER_TOKEN);
    expect(decidedB.updatedAt).toBe(clockB.now);
    expect(Date.parse(clockA.now) - Date.parse(clockB.now)).toBe(THIRTY_DAYS_MS);
  });

  test("scope sandbox moves every organization's clock at once, and B's work then falls due", async () => {
    const beforeA = await ok("GET", "/_sandbox/clock", TOKEN);
    const moved = await ok("POST", "/_sandbox/clock/advance", OTHER_TOKEN, {
      ms: 2 * DAY_MS,
      scope: "sandbox",
    });
    expect(moved.scope).toBe("sandbox");
    const afterA = await ok("GET", "/_sandbox/clock", TOKEN);
    expect(Date.parse(afterA.now) - Date.parse(beforeA.now)).toBe(2 * DAY_MS);
    expect(afterA.organizationLeadMs).toBe(beforeA.organizationLeadMs);
    const b = await observe(scenes.b);
    expect(b.withdrawal.status).toBe("completed");
    expect(b.rebalance.status).toBe("completed");
    expect(b.deposit.status).toBe("completed");
  });

  test("a scope that is neither organization nor sandbox is refused, naming it", async () => {
    const res = await t.api("POST", "/_sandbox/clock/advance", {
      token: OTHER_TOKEN,
      body: { scope: "everyone", ms: 1 },
    });
    expect(res.status).toBe(400);
    expect(res.body.error.details[0].field).toBe("scope");
  });
});

describe("organizations' clocks across a restart", () => {
  test("an organization's lead is kept in the data directory", async () => {
    const dataDir = mkdtempSync(join(tmpdir(), "org-clocks-"));
    try {
      const first = await startTestSandbox({ dataDir });
      await first.api("POST", "/_sandbox/clock/advance", { body: { ms: 5 * DAY_MS } });
      await first.close();
      const second = await startTestSandbox({ dataDir });
      try {
        expect((await second.api("GET", "/_sandbox/clock")).body.organizationLeadMs).toBe(5 * DAY_MS);
        expect(
          (await second.api("GET", "/_sandbox/clock", { token: OTHER_TOKEN })).body.organizationLeadMs,
        ).toBe(0);
      } finally {
        await second.close();
      }
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});

describe("a standing clock (manualClock, --manual-clock)", () => {
  test("stands still between advances, and a restart on the wall clock goes on from where it stood", async () => {
    const dataDir = mkdtempSync(join(tmpdir(), "standing-clock-"));
    try {
      const standing = await startTestSandbox({ dataDir, manualClock: true });
      let stoodAt: string;
      try {
        const first = (await standing.api("GET", "/_sandbox/clock")).body;
        await new Promise((resolve) => setTimeout(resolve, 20));
        expect((await standing.api("GET", "/_sandbox/clock")).body.sharedNow).toBe(first.sharedNow);
        const advanced = await standing.api("POST", "/_sandbox/clock/advance", {
          body: { ms: 5 * DAY_MS, scope: "sandbox" },
        });
        expect(advanced.status).toBe(200);
        stoodAt = (await standing.api("GET", "/_sandbox/clock")).body.sharedNow;
        expect(Date.parse(stoodAt) - Date.parse(first.sharedNow)).toBe(5 * DAY_MS);
      } finally {
        await standing.close();
      }
      const running = await startTestSandbox({ dataDir });
      try {
        const after = (await running.api("GET", "/_sandbox/clock")).body.sharedNow;
        expect(Date.parse(after)).toBeGreaterThanOrEqual(Date.parse(stoodAt));
      } finally {
        await running.close();
      }
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
