import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, beforeEach, describe, expect, test } from "vitest";
import { startSandbox, type Sandbox } from "../../../sandbox/index.ts";
import { fundedWallet as fundedWalletOf, requestCounts } from "../../support/sandboxAccess.ts";
import {
  AuthenticationError,
  IdempotencyConflictError,
  NotFoundError,
  PortfolioWalletClient,
  InternalServerError,
  ValidationError,
} from "../../../sdk/nodejs/client/index.ts";

// The client against the in-process sandbox over real HTTP: every endpoint the sandbox serves,
// parsed by the same contract schemas, plus the retry behaviour under the sandbox's faults.

const TOKEN = "client-contract-token";
let sandbox: Sandbox;
let client: PortfolioWalletClient;

beforeAll(async () => {
  sandbox = await startSandbox({ port: 0, dataDir: ":memory:", tokens: { [TOKEN]: "client-contract-org" } });
  client = new PortfolioWalletClient({
    baseUrl: sandbox.url,
    apiToken: TOKEN,
    retryBaseDelayMs: 5,
    retryMaxDelayMs: 20,
    maxRetryAfterMs: 50,
    env: {},
  });
});
afterAll(async () => {
  await client.close();
  await sandbox.close();
});
beforeEach(async () => {
  await admin("DELETE", "/faults");
  await admin("DELETE", "/request-counts");
});

/** A call to the sandbox's admin API (docs/sandbox.md), outside the client on purpose. */
async function admin(method: string, path: string, body?: unknown): Promise<unknown> {
  const response = await fetch(`${sandbox.url}/_sandbox${path}`, {
    method,
    headers: {
      authorization: `Bearer ${TOKEN}`,
      ...(body === undefined ? {} : { "content-type": "application/json" }),
    },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  if (!response.ok)
    throw new Error(`admin ${method} ${path} answered ${response.status}: ${await response.text()}`);
  return response.status === 204 ? undefined : response.json();
}

const access = () => ({ url: sandbox.url, token: TOKEN });

const ALLOCATION = [
  { positionKey: "tbills", targetWeightBps: 6000 },
  { positionKey: "syrupUsdc", targetWeightBps: 4000 },
];

describe("catalog", () => {
  test("listStrategies and listYieldSources return the catalog", async () => {
    const { strategies } = await client.catalog.listStrategies();
    expect(strategies.map((s) => s.positionKey)).toEqual(
      expect.arrayContaining(["tbills", "resolvRlp", "syrupUsdc"]),
    );
    const { yieldSources } = await client.catalog.listYieldSources();
    expect(yieldSources.map((s) => s.positionKey).sort()).toEqual(
      strategies.map((s) => s.positionKey).sort(),
    );
  });
});

describe("quotes", () => {
  test("create returns options whose weights sum to 10000", async () => {
    const options = await client.quotes.create({
      minApyTargetBps: 300,
      liquidityConstraints: [{ maxProcessingTime: "PT0H", minWeightBps: 4000 }],
    });
    expect(options.length).toBeGreaterThan(0);
    for (const option of options) {
      const total = option.strategyConfig.positions.reduce((sum, p) => sum + p.targetWeightBps, 0);
      expect(total).toBe(10_000);
    }
  });
});

describe("wallets", () => {
  test("create, retrieve, list and update the strategy", async () => {
    const requestId = randomUUID();
    const created = await client.wallets.create({ requestId, positions: ALLOCATION, label: "contract" });
    expect(created.requestId).toBe(requestId);
    expect(Object.keys(created.depositAddresses).length).toBeGreaterThan(0);

    const read = await client.wallets.retrieve(created.id);
    expect(read.id).toBe(created.id);

    const ids: string[] = [];
    for await (const wallet of client.wallets.list({ pageSize: 1 })) ids.push(wallet.id);
    expect(ids).toContain(created.id);

    const update = await client.wallets.updateStrategy(created.id, {
      requestId: randomUUID(),
      positions: [{ positionKey: "tbills", targetWeightBps: 10_000 }],
    });
    expect(update.portfolioWalletId).toBe(created.id);
    expect(["pending_approval", "processing", "completed"]).toContain(update.status);
  });

  test("a repeated create with the same requestId returns the same wallet", async () => {
    const body = { requestId: randomUUID(), positions: ALLOCATION };
    const first = await client.wallets.create(body);
    const again = await client.wallets.create(body);
    expect(again.id).toBe(first.id);
  });

  test("the same requestId with another body is an IdempotencyConflictError", async () => {
    const requestId = randomUUID();
    await client.wallets.create({ requestId, positions: ALLOCATION });
    const error = await client.wallets
      .create({ requestId, positions: [{ positionKey: "tbills", targetWeightBps: 10_000 }] })
      .catch((e: unknown) => e);
    expect(IdempotencyConflictError.isInstance(error)).toBe(true);
    expect((error as IdempotencyConflictError).requestId).toBeTruthy();
  });

  test("weights not summing to 10000 are a ValidationError from the service when sent anyway", async () => {
    // Bypasses the client's own check (below) to see what the service answers such a body.
    const response = await fetch(`${sandbox.url}/v2/portfolio-wallets`, {
      method: "POST",
      headers: { authorization: `Bearer ${TOKEN}`, "content-type": "application/json" },
      body: JSON.stringify({
        requestId: randomUUID(),
        positions: [{ positionKey: "tbills", targetWeightBps: 9999 }],
      }),
    });
    expect(response.status).toBe(400);
    expect(((await response.json()) as { error: { code: string } }).error.code).toBe("validation_failed");
  });

  test("an unknown wallet is a NotFoundError", async () => {
    await expect(client.wallets.retrieve(randomUUID())).rejects.toThrow(NotFoundError);
  });

  test("a wrong token is an AuthenticationError that does not contain the token", async () => {
    const wrong = new PortfolioWalletClient({ baseUrl: sandbox.url, apiToken: "wrong-token-123", env: {} });
    try {
      const error = await wrong.catalog.listStrategies().catch((e: unknown) => e);
      expect(AuthenticationError.isInstance(error)).toBe(true);
      expect((error as Error).message).not.toContain("wrong-token-123");
    } finally {
      await wrong.close();
    }
  });
});

describe("strategy updates", () => {
  test("with an approval policy the update waits in pending_approval with a signingActivityId", async () => {
    const wallet = await client.wallets.create({ requestId: randomUUID(), positions: ALLOCATION });
    await admin("PUT", "/policy", { strategyUpdateApprovals: 1 });
    try {
      const update = await client.wallets.updateStrategy(wallet.id, {
        requestId: randomUUID(),
        positions: [{ positionKey: "tbills", targetWeightBps: 10_000 }],
      });
      expect(update.status).toBe("pending_approval");
      expect(update.signingActivityId).toBeTruthy();
    } finally {
      await admin("PUT", "/policy", { strategyUpdateApprovals: 0 });
    }
  });

  test("an update whose answer is dropped is retried with the same requestId and yields one update", async () => {
    const wallet = await client.wallets.create({ requestId: randomUUID(), positions: ALLOCATION });
    await admin("POST", "/faults", {
      method: "PATCH",
      path: "/v2/portfolio-wallets/:id/strategy",
      kind: "drop",
    });
    const body = {
      requestId: randomUUID(),
      positions: [{ positionKey: "syrupUsdc", targetWeightBps: 10_000 }],
    };

    const update = await client.wallets.updateStrategy(wallet.id, body);

    expect(update.requestId).toBe(body.requestId);
    expect((await requestCounts(access()))["PATCH /v2/portfolio-wallets/:id/strategy"]).toBe(2);
    // A replay answers the same update; a second update would have another id.
    expect((await client.wallets.updateStrategy(wallet.id, body)).id).toBe(update.id);
  });
});

/** A funded wallet: a simulated on-chain deposit, then sandbox time for it to reach the positions. */
const fundedWallet = async (amountUsd: number) =>
  (await fundedWalletOf(access(), amountUsd, { positions: ALLOCATION, settleMs: 60_000 })).wallet;

const PAYOUT = {
  destinationAddress: "0x52908400098527886E0F7030069857D2E4169EE7",
  destinationToken: "usdc",
  destinationChain: "ethereum",
};

describe("deposits", () => {
  test("list with pagination and retrieve", async () => {
    const wallet = await fundedWallet(100);
    await admin("POST", "/deposits", {
      chain: "ethereum",
      address: wallet.depositAddresses["ethereum"]?.address,
      amount: 50,
      txHash: `0x${randomUUID().replaceAll("-", "")}`,
    });
    const firstPage = await client.deposits.list(wallet.id, { pageSize: 1 });
    expect(firstPage.data).toHaveLength(1);
    expect(firstPage.nextCursor).not.toBeNull();
    const all = [];
    for await (const deposit of client.deposits.list(wallet.id, { pageSize: 1 })) all.push(deposit);
    expect(all.map((d) => d.amountUsd).sort()).toEqual([100, 50].sort());
    const one = await client.deposits.retrieve(wallet.id, all[0]!.id);
    expect(one).toMatchObject({ id: all[0]!.id, portfolioWalletId: wallet.id, chain: "ethereum" });
    await expect(client.deposits.retrieve(wallet.id, randomUUID())).rejects.toThrow(NotFoundError);
  });
});

describe("withdrawals", () => {
  test("create, list with pagination, retrieve; a bad address is a validation error naming the field", async () => {
    const wallet = await fundedWallet(1000);
    const first = await client.withdrawals.create(wallet.id, {
      requestId: randomUUID(),
      withdrawalAmount: 10,
      ...PAYOUT,
    });
    await client.withdrawals.create(wallet.id, { requestId: randomUUID(), withdrawalAmount: 20, ...PAYOUT });
    expect(first).toMatchObject({
      portfolioWalletId: wallet.id,
      withdrawalAmount: 10,
      destinationChain: "ethereum",
    });

    const page = await client.withdrawals.list(wallet.id, { pageSize: 1 });
    expect(page).toMatchObject({ pageSize: 1, nextCursor: expect.any(String) });
    const amounts = [];
    for await (const item of client.withdrawals.list(wallet.id, { pageSize: 1 }))
      amounts.push(item.withdrawalAmount);
    expect(amounts.sort((a, b) => a - b)).toEqual([10, 20]);
    expect((await client.withdrawals.retrieve(wallet.id, first.id)).requestId).toBe(first.requestId);

    const bad = client.withdrawals.create(wallet.id, {
      requestId: randomUUID(),
      withdrawalAmount: 10,
      ...PAYOUT,
      destinationAddress: "not-an-address",
    });
    await expect(bad).rejects.toThrow(ValidationError);
    await expect(bad).rejects.toMatchObject({
      details: [expect.objectContaining({ field: "destinationAddress" })],
    });
  });

  test("a withdrawal whose answer is dropped after apply is retried and pays out once", async () => {
    const wallet = await fundedWallet(500);
    await admin("POST", "/faults", {
      method: "POST",
      path: "/v2/portfolio-wallets/:id/withdraw",
      kind: "drop",
      times: 1,
    });
    const withdrawal = await client.withdrawals.create(wallet.id, {
      requestId: randomUUID(),
      withdrawalAmount: 100,
      ...PAYOUT,
    });
    expect((await requestCounts(access()))["POST /v2/portfolio-wallets/:id/withdraw"]).toBe(2);
    const all = [];
    for await (const item of client.withdrawals.list(wallet.id)) all.push(item);
    expect(all.map((w) => w.id)).toEqual([withdrawal.id]);
  });
});

describe("yield metrics", () => {
  test("lifetime and period, global and per wallet, with generated - withdrawn = accruedDelta", async () => {
    const wallet = await fundedWallet(10_000);
    await admin("POST", "/clock/advance", { seconds: 24 * 60 * 60 });
    const lifetime = await client.yieldMetrics.retrieve({ portfolioWalletIds: [wallet.id] });
    const figures = lifetime.portfolioWallets[wallet.id]!;
    expect(figures.generated).toBeGreaterThan(0);
    expect(figures.generated - figures.withdrawn).toBeCloseTo(figures.accruedDelta, 6);
    expect(lifetime.global.generated).toBeGreaterThanOrEqual(figures.generated);

    const globalOnly = await client.yieldMetrics.retrieve({});
    expect(globalOnly.portfolioWallets).toEqual({});
    const now = Date.parse(lifetime.period.end);
    const period = await client.yieldMetrics.retrieve({
      periodStartIso: new Date(now - 60 * 60 * 1000).toISOString(),
      periodEndIso: new Date(now).toISOString(),
      portfolioWalletIds: [wallet.id],
    });
    expect(period.portfolioWallets[wallet.id]!.generated).toBeLessThan(figures.generated);
  });
});

describe("webhook registrations", () => {
  test("create, retrieve, list, disable and delete", async () => {
    const created = await client.webhookRegistrations.create({
      url: "https://example.com/hooks",
      eventTypes: ["portfolio_wallet.balance.updated"],
      description: "contract test",
    });
    expect(created.secret).toBeTruthy();
    expect((await client.webhookRegistrations.retrieve(created.id)).status).toBe("active");

    const ids: string[] = [];
    for await (const registration of client.webhookRegistrations.list()) ids.push(registration.id);
    expect(ids).toContain(created.id);

    const disabled = await client.webhookRegistrations.updateStatus(created.id, {
      status: "disabled",
      disabledReason: "maintenance",
    });
    expect(disabled).toMatchObject({ status: "disabled", disabledReason: "maintenance" });
    expect(disabled.disabledAt).toBeTruthy();

    await client.webhookRegistrations.delete(created.id);
    await expect(client.webhookRegistrations.retrieve(created.id)).rejects.toThrow(NotFoundError);
  });
});

describe("retries under injected faults", () => {
  test("a create whose answer is dropped after it was applied is retried and yields one wallet", async () => {
    await admin("POST", "/faults", { method: "POST", path: "/v2/portfolio-wallets", kind: "drop", times: 1 });
    const before = await countWallets();
    const body = { requestId: randomUUID(), positions: ALLOCATION, label: "dropped once" };

    const wallet = await client.wallets.create(body);

    expect(wallet.requestId).toBe(body.requestId);
    expect((await requestCounts(access()))["POST /v2/portfolio-wallets"]).toBe(2);
    expect(await countWallets()).toBe(before + 1);
  });

  test("a GET answered 503 is retried", async () => {
    await admin("POST", "/faults", {
      method: "GET",
      path: "/v2/portfolio-wallets/strategies",
      kind: "status",
      status: 503,
      times: 2,
    });
    await client.catalog.listStrategies();
    expect((await requestCounts(access()))["GET /v2/portfolio-wallets/strategies"]).toBe(3);
  });

  test("a quote (a POST that only reads) answered 429 is retried like a GET", async () => {
    await admin("POST", "/faults", {
      method: "POST",
      path: "/v2/portfolio-wallets/quote",
      kind: "status",
      status: 429,
      times: 1,
    });
    const options = await client.quotes.create({ minApyTargetBps: 100 });
    expect(options.length).toBeGreaterThan(0);
    expect((await requestCounts(access()))["POST /v2/portfolio-wallets/quote"]).toBe(2);
  });

  test("a webhook creation without requestId answered 503 is not retried", async () => {
    await admin("POST", "/faults", {
      method: "POST",
      path: "/webhooks/registrations",
      kind: "status",
      status: 503,
      times: 1,
    });
    await expect(
      client.webhookRegistrations.create({
        url: "https://example.com/hook",
        eventTypes: ["portfolio_wallet.balance.updated"],
      }),
    ).rejects.toThrow(InternalServerError);
    expect((await requestCounts(access()))["POST /webhooks/registrations"]).toBe(1);
  });
});

async function countWallets(): Promise<number> {
  let count = 0;
  for await (const _ of client.wallets.list({ pageSize: 100 })) count++;
  return count;
}
