import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { PortfolioWalletSchema, WalletListSchema, KNOWN_CHAINS } from "../../../sdk/nodejs/contract/index.ts";
import { startTestSandbox, walletBody, type TestSandbox } from "../helpers.ts";

let t: TestSandbox;
beforeAll(async () => {
  t = await startTestSandbox();
});
afterAll(() => t.close());

describe("POST /v2/portfolio-wallets", () => {
  test("creates a wallet (201) with the create response's fields", async () => {
    const body = walletBody({ label: "treasury" });
    const res = await t.api("POST", "/v2/portfolio-wallets", { body });
    expect(res.status).toBe(201);
    const wallet = PortfolioWalletSchema.parse(res.body);
    expect(wallet.requestId).toBe(body.requestId);
    expect(wallet).toMatchObject({
      label: "treasury",
      status: "active",
      totalBalanceUsd: 0,
      instantWithdrawableUsd: 0,
      pendingAllocationsUsd: 0,
    });
    expect(wallet.strategyConfig.positions).toEqual([
      { positionKey: "tbills", targetWeightBps: 6000, maxProcessingTime: "PT24H", asset: "tbills" },
      { positionKey: "syrupUsdc", targetWeightBps: 4000, maxProcessingTime: "PT0H", asset: "syrupUSDC" },
    ]);
  });

  test("reports an empty wallet with weight 0, drift = weight - target, and target-based rate and liquidity", async () => {
    const wallet = (await t.api("POST", "/v2/portfolio-wallets", { body: walletBody() })).body;
    expect(wallet.positions).toEqual([
      {
        positionKey: "tbills",
        meta: { asset: "tbills", maxProcessingTime: "PT24H" },
        targetWeightBps: 6000,
        balanceUnits: 0,
        valueUsd: 0,
        weightBps: 0,
        currentApyBps: 430,
        driftBps: -6000,
      },
      {
        positionKey: "syrupUsdc",
        meta: { asset: "syrupUSDC", maxProcessingTime: "PT0H" },
        targetWeightBps: 4000,
        balanceUnits: 0,
        valueUsd: 0,
        weightBps: 0,
        currentApyBps: 650,
        driftBps: -4000,
      },
    ]);
    // 0.6 * 430 + 0.4 * 650 = 518
    expect(wallet.blendedRateBps).toBe(518);
    expect(wallet.liquidityProfile).toEqual([
      { maxProcessingTime: "PT0H", weightBps: 4000 },
      { maxProcessingTime: "PT24H", weightBps: 6000 },
    ]);
  });

  test("gives a chain-native deposit address on every known chain, unique across wallets", async () => {
    const a = (await t.api("POST", "/v2/portfolio-wallets", { body: walletBody() })).body;
    const b = (await t.api("POST", "/v2/portfolio-wallets", { body: walletBody() })).body;
    for (const wallet of [a, b]) {
      expect(Object.keys(wallet.depositAddresses).sort()).toEqual([...KNOWN_CHAINS].sort());
      for (const chain of KNOWN_CHAINS) {
        const entry = wallet.depositAddresses[chain];
        expect(entry).toMatchObject({ totalBalanceUsd: 0, pendingAllocationsUsd: 0 });
        if (chain === "solana") expect(entry.address).toMatch(/^[1-9A-HJ-NP-Za-km-z]{32,44}$/);
        else expect(entry.address).toMatch(/^0x[0-9a-f]{40}$/);
      }
    }
    const all = [a, b].flatMap((w) =>
      Object.values(w.depositAddresses as Record<string, { address: string }>).map((e) => e.address),
    );
    expect(new Set(all).size).toBe(all.length);
  });

  test("accepts and ignores extra position fields such as a quote option's", async () => {
    const res = await t.api("POST", "/v2/portfolio-wallets", {
      body: walletBody({
        positions: [
          { positionKey: "syrupUsdc", targetWeightBps: 10000, currentApy: 650, maxProcessingTime: "PT0H" },
        ],
      }),
    });
    expect(res.status).toBe(201);
    expect(res.body.strategyConfig.positions).toHaveLength(1);
  });
});

describe("GET /v2/portfolio-wallets/:id", () => {
  test("reads a created wallet without its requestId", async () => {
    const created = (await t.api("POST", "/v2/portfolio-wallets", { body: walletBody() })).body;
    const res = await t.api("GET", `/v2/portfolio-wallets/${created.id}`);
    expect(res.status).toBe(200);
    const { requestId: _requestId, ...withoutRequestId } = created;
    expect(res.body).toEqual(withoutRequestId);
  });

  test("is 404 not_found for an unknown id", async () => {
    const res = await t.api("GET", "/v2/portfolio-wallets/00000000-0000-4000-8000-000000000000");
    expect(res.status).toBe(404);
    expect(res.body.error.code).toBe("not_found");
  });
});

describe("GET /v2/portfolio-wallets", () => {
  test("pages newest first with a created_at|id cursor until nextCursor is null", async () => {
    const own = await startTestSandbox();
    try {
      const created: { id: string; createdAt: string }[] = [];
      for (let i = 0; i < 7; i++)
        created.push((await own.api("POST", "/v2/portfolio-wallets", { body: walletBody() })).body);
      // Newest first; two wallets made in the same millisecond come by id, descending, as the
      // cursor's created_at|id order says (comparing with creation order alone failed on such a tie).
      const newestFirst = [...created]
        .sort((a, b) =>
          a.createdAt === b.createdAt ? (a.id < b.id ? 1 : -1) : a.createdAt < b.createdAt ? 1 : -1,
        )
        .map((w) => w.id);
      const seen: string[] = [];
      let cursor: string | null = null;
      let pages = 0;
      do {
        const query: string =
          cursor === null ? "?pageSize=3" : `?pageSize=3&cursor=${encodeURIComponent(cursor)}`;
        const res = await own.api("GET", `/v2/portfolio-wallets${query}`);
        expect(res.status).toBe(200);
        const page = WalletListSchema.parse(res.body);
        expect(page.pageSize).toBe(3);
        if (page.nextCursor !== null)
          expect(page.nextCursor).toMatch(/^\d{4}-\d\d-\d\dT[^|]+\|[0-9a-f-]{36}$/);
        seen.push(...page.data.map((w) => w.id));
        cursor = page.nextCursor;
        pages++;
      } while (cursor !== null);
      expect(pages).toBe(3);
      expect(seen).toEqual(newestFirst);
    } finally {
      await own.close();
    }
  });

  test("defaults pageSize to 25", async () => {
    const res = await t.api("GET", "/v2/portfolio-wallets");
    expect(res.status).toBe(200);
    expect(res.body.pageSize).toBe(25);
  });
});
