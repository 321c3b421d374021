import { afterEach, beforeEach, describe, expect, test } from "vitest";
import { WithdrawalListSchema, WithdrawalSchema } from "../../../../sdk/nodejs/contract/index.ts";
import {
  IdempotencyConflictError,
  NotFoundError,
  PortfolioWalletClient,
  UnprocessableEntityError,
} from "../../../../sdk/nodejs/client/index.ts";
import { TOKEN, uuid } from "../../helpers.ts";
import {
  DAY_MS,
  HOUR_MS,
  SOLANA_ADDRESS,
  deposit,
  fundedWallet,
  micros,
  startMoneySandbox,
  withdrawBody,
  type MoneySandbox,
} from "../../moneyHelpers.ts";

let m: MoneySandbox;
let walletId: string;
beforeEach(async () => {
  m = await startMoneySandbox();
  walletId = await fundedWallet(m, 1000); // tbills 600 (PT24H), syrupUsdc 400 (PT0H)
});
afterEach(() => m.close());

const balance = async (id = walletId) => (await m.client.wallets.retrieve(id)).totalBalanceUsd;
const ledgerDiscrepancy = async () => (await m.t.api("GET", "/_sandbox/ledger")).body.total.discrepancyMicros;
const failNextLeg = async (legKey?: string) =>
  expect(
    (
      await m.t.api("POST", "/_sandbox/faults/withdrawal-leg", {
        body: { walletId, reason: "bridge halted", ...(legKey === undefined ? {} : { legKey }) },
      })
    ).status,
  ).toBe(201);

describe("withdrawals", () => {
  test("spans an instant and a redeem leg: partially_completed at once, completed after the redeem time", async () => {
    const created = WithdrawalSchema.parse(await m.client.withdrawals.create(walletId, withdrawBody(700)));
    expect(created).toMatchObject({
      status: "partially_completed",
      withdrawalAmount: 700,
      destinationToken: "usdc",
      destinationChain: "ethereum",
      completedAt: null,
      signingActivityId: null,
      failureReason: null,
    });
    expect(created.plannedLegs).toEqual([
      { legKey: "instant", amount: 400, positionKeys: ["syrupUsdc"], maxProcessingTime: "PT0H" },
      { legKey: "redeem", amount: 300, positionKeys: ["tbills"], maxProcessingTime: "PT24H" },
    ]);
    expect(created.legStatuses).toEqual({ instant: "completed", redeem: "processing" });
    expect(created.payouts?.map((p) => [p.legKey, p.amount, p.status, p.chain, p.token])).toEqual([
      ["instant", 400, "completed", "ethereum", "usdc"],
      ["redeem", 300, "processing", "ethereum", "usdc"],
    ]);
    const after = await m.client.wallets.retrieve(walletId);
    expect(after.totalBalanceUsd).toBe(300);
    expect(after.instantWithdrawableUsd).toBe(0);

    await m.advance(DAY_MS - 1);
    expect((await m.client.withdrawals.retrieve(walletId, created.id)).status).toBe("partially_completed");
    await m.advance(1);
    const done = await m.client.withdrawals.retrieve(walletId, created.id);
    expect(done).toMatchObject({
      status: "completed",
      legStatuses: { instant: "completed", redeem: "completed" },
    });
    expect(done.completedAt).toBe(new Date(Date.parse(created.createdAt) + DAY_MS).toISOString());
    expect(done.payouts?.every((p) => p.status === "completed")).toBe(true);
    expect(await ledgerDiscrepancy()).toBe(0);
  });

  test("an amount the instant positions cover completes at once; a redeem-only one stays processing", async () => {
    const instant = await m.client.withdrawals.create(walletId, withdrawBody(150));
    expect(instant).toMatchObject({ status: "completed", legStatuses: { instant: "completed" } });
    expect(instant.completedAt).toBe(instant.createdAt);

    const slow = await fundedWallet(m, 500, [{ positionKey: "tbills", targetWeightBps: 10000 }]);
    const redeem = await m.client.withdrawals.create(slow, withdrawBody(200));
    expect(redeem).toMatchObject({ status: "processing", legStatuses: { redeem: "processing" } });
    await m.advance(DAY_MS);
    expect(await m.client.withdrawals.retrieve(slow, redeem.id)).toMatchObject({ status: "completed" });
  });

  test("several slower sources pay one leg per liquidity limit", async () => {
    const id = await fundedWallet(m, 1000, [
      { positionKey: "tbills", targetWeightBps: 5000 },
      { positionKey: "resolvRlp", targetWeightBps: 5000 },
    ]);
    const w = await m.client.withdrawals.create(id, withdrawBody(800));
    expect(w.plannedLegs?.map((l) => [l.legKey, l.amount])).toEqual([
      ["redeem_PT24H", 500],
      ["redeem_PT168H", 300],
    ]);
    await m.advance(DAY_MS);
    expect((await m.client.withdrawals.retrieve(id, w.id)).status).toBe("partially_completed");
    await m.advance(6 * DAY_MS);
    expect((await m.client.withdrawals.retrieve(id, w.id)).status).toBe("completed");
  });

  test("a failing redeem leg ends the withdrawal failed and returns its money to the wallet", async () => {
    await failNextLeg();
    const w = await m.client.withdrawals.create(walletId, withdrawBody(700));
    expect(w.status).toBe("partially_completed");
    expect(await balance()).toBe(300);
    await m.advance(DAY_MS);
    const failed = await m.client.withdrawals.retrieve(walletId, w.id);
    expect(failed).toMatchObject({
      status: "failed",
      legStatuses: { instant: "completed", redeem: "failed" },
    });
    expect(failed.failureReason).toBe(
      "payout leg redeem failed: bridge halted; 300 USD returned to the wallet",
    );
    expect(failed.completedAt).toBeNull();
    // The instant 400 left; the redeem 300 came back to tbills (plus the day's yield on what stayed).
    const wallet = await m.client.wallets.retrieve(walletId);
    expect(wallet.positions.find((p) => p.positionKey === "tbills")?.valueUsd).toBeGreaterThanOrEqual(600);
    expect(wallet.totalBalanceUsd).toBeGreaterThanOrEqual(600);
    expect(wallet.totalBalanceUsd).toBeLessThan(600.1);
    expect(await ledgerDiscrepancy()).toBe(0);
    // The fault was used up: the next withdrawal pays out.
    const next = await m.client.withdrawals.create(walletId, withdrawBody(500));
    await m.advance(DAY_MS);
    expect((await m.client.withdrawals.retrieve(walletId, next.id)).status).toBe("completed");
  });

  test("a failing instant leg fails at once and stops the redeem leg: nothing is paid", async () => {
    await failNextLeg("instant");
    const w = await m.client.withdrawals.create(walletId, withdrawBody(700));
    expect(w).toMatchObject({ status: "failed", legStatuses: { instant: "failed", redeem: "failed" } });
    expect(w.failureReason).toContain("payout leg instant failed: bridge halted; 700 USD returned");
    expect(await balance()).toBe(1000);
    const metrics = await m.client.yieldMetrics.retrieve();
    expect(metrics.global.withdrawn).toBe(0);
  });

  test("a repeated requestId never pays twice; another body under it is 409", async () => {
    const body = withdrawBody(100);
    const first = await m.client.withdrawals.create(walletId, body);
    const again = await m.client.withdrawals.create(walletId, body);
    expect(again.id).toBe(first.id);
    expect(await balance()).toBe(900);
    const raw = await m.t.api("POST", `/v2/portfolio-wallets/${walletId}/withdraw`, { body });
    expect(raw.status).toBe(200);
    await expect(
      m.client.withdrawals.create(walletId, { ...body, withdrawalAmount: 101 }),
    ).rejects.toBeInstanceOf(IdempotencyConflictError);
    expect((await m.client.withdrawals.list(walletId)).data).toHaveLength(1);
  });

  test("an answer lost on the wire is retried by the client with the same requestId and pays once", async () => {
    const fault = await m.t.api("POST", "/_sandbox/faults", {
      body: { method: "POST", path: "/v2/portfolio-wallets/:id/withdraw", kind: "drop" },
    });
    expect(fault.status).toBe(201);
    const retrying = new PortfolioWalletClient({
      baseUrl: m.t.url,
      apiToken: TOKEN,
      maxRetries: 2,
      retryBaseDelayMs: 1,
      env: {},
    });
    try {
      const w = await retrying.withdrawals.create(walletId, withdrawBody(250));
      expect(w.status).toBe("completed");
    } finally {
      await retrying.close();
    }
    const counts = (await m.t.api("GET", "/_sandbox/request-counts")).body.counts;
    expect(counts["POST /v2/portfolio-wallets/:id/withdraw"]).toBe(2); // dropped once, replayed once
    expect((await m.client.withdrawals.list(walletId)).data).toHaveLength(1);
    expect(await balance()).toBe(750);
  });

  test("more than the withdrawable balance is 422 insufficient_funds naming the amount available", async () => {
    await deposit(m, walletId, 50); // pending allocation: not withdrawable yet
    const err = await m.client.withdrawals.create(walletId, withdrawBody(1000.01)).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(UnprocessableEntityError);
    const apiError = err as UnprocessableEntityError;
    expect(apiError.code).toBe("insufficient_funds");
    expect(apiError.message).toContain("withdrawable balance of 1000 USD");
    expect(apiError.details).toEqual([
      { field: "withdrawalAmount", reason: "exceeds the withdrawable balance of 1000 USD" },
    ]);
    expect(await balance()).toBe(1050);
    // No key was kept: the same request succeeds once the money is there.
    await m.advance(1000);
    const body = withdrawBody(1000.01);
    await expect(m.client.withdrawals.create(walletId, body)).resolves.toMatchObject({
      withdrawalAmount: 1000.01,
    });
  });

  test("bad bodies are 400s naming each bad field", async () => {
    const cases: [Record<string, unknown>, string[]][] = [
      [withdrawBody(0), ["withdrawalAmount"]],
      [withdrawBody(-3), ["withdrawalAmount"]],
      [withdrawBody(0.0000001), ["withdrawalAmount"]],
      [{ ...withdrawBody(1), withdrawalAmount: "1" }, ["withdrawalAmount"]],
      [withdrawBody(1, { destinationChain: "bitcoin" }), ["destinationChain"]],
      [withdrawBody(1, { destinationToken: "dai" }), ["destinationToken"]],
      [withdrawBody(1, { destinationAddress: "0x1234" }), ["destinationAddress"]],
      [withdrawBody(1, { destinationChain: "solana" }), ["destinationAddress"]],
      [
        withdrawBody(1, { destinationChain: "base", destinationAddress: SOLANA_ADDRESS }),
        ["destinationAddress"],
      ],
      [withdrawBody(1, { requestId: "nope" }), ["requestId"]],
      [
        withdrawBody(-1, { destinationToken: "eur", destinationChain: "mars" }),
        ["withdrawalAmount", "destinationToken", "destinationChain"],
      ],
    ];
    // Sent as raw HTTP: the client refuses most of these bodies itself before sending (sdk/nodejs/client
    // checks request bodies), and the point here is the sandbox's own answer.
    for (const [body, fields] of cases) {
      const res = await m.t.api("POST", `/v2/portfolio-wallets/${walletId}/withdraw`, { body });
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body.error.code, JSON.stringify(body)).toBe("validation_failed");
      expect(
        (res.body.error.details as { field: string }[]).map((d) => d.field).sort(),
        JSON.stringify(body),
      ).toEqual([...fields].sort());
    }
    expect(await balance()).toBe(1000);
    const solana = await m.client.withdrawals.create(
      walletId,
      withdrawBody(1, {
        destinationChain: "solana",
        destinationToken: "usdt",
        destinationAddress: SOLANA_ADDRESS,
      }),
    );
    expect(solana).toMatchObject({
      status: "completed",
      destinationChain: "solana",
      destinationToken: "usdt",
    });
  });

  test("lists withdrawals newest first, 25 per page by default, with exactly the list fields", async () => {
    for (let i = 1; i <= 27; i += 1) {
      await m.client.withdrawals.create(walletId, withdrawBody(i / 100));
      await m.advance(1);
    }
    const raw = await m.t.api("GET", `/v2/portfolio-wallets/${walletId}/withdrawals`);
    const page = WithdrawalListSchema.parse(raw.body);
    expect(page.pageSize).toBe(25);
    expect(page.data).toHaveLength(25);
    expect(Object.keys(raw.body.data[0]).sort()).toEqual(
      [
        "id",
        "requestId",
        "status",
        "withdrawalAmount",
        "destinationChain",
        "destinationToken",
        "destinationAddress",
      ].sort(),
    );
    expect(page.data[0]?.withdrawalAmount).toBe(0.27);
    expect(page.nextCursor).toMatch(/^\d{4}-.+\|[0-9a-f-]{36}$/);
    const rest = await m.t.api(
      "GET",
      `/v2/portfolio-wallets/${walletId}/withdrawals?cursor=${encodeURIComponent(page.nextCursor ?? "")}`,
    );
    expect(rest.body.data.map((w: { withdrawalAmount: number }) => w.withdrawalAmount)).toEqual([0.02, 0.01]);
    expect(rest.body.nextCursor).toBeNull();
    let count = 0;
    for await (const item of m.client.withdrawals.list(walletId, { pageSize: 10 }))
      count += item.id === "" ? 0 : 1;
    expect(count).toBe(27);
    expect(micros(await balance())).toBe(micros(1000) - micros(3.78));
  });

  test("unknown wallets and withdrawals are 404", async () => {
    await expect(m.client.withdrawals.create(uuid(), withdrawBody(1))).rejects.toBeInstanceOf(NotFoundError);
    await expect(m.client.withdrawals.retrieve(walletId, uuid())).rejects.toBeInstanceOf(NotFoundError);
    await expect(m.client.withdrawals.list(uuid()).then((p) => p.data)).rejects.toBeInstanceOf(NotFoundError);
  });

  test("a rebalance moves the held money onto the new targets, to the micro", async () => {
    const update = await m.client.wallets.updateStrategy(walletId, {
      requestId: uuid(),
      positions: [{ positionKey: "syrupUsdc", targetWeightBps: 10000 }],
    });
    expect(update.status).toBe("processing");
    await m.advance(HOUR_MS);
    const wallet = await m.client.wallets.retrieve(walletId);
    expect(wallet.positions.map((p) => [p.positionKey, p.targetWeightBps])).toEqual([["syrupUsdc", 10000]]);
    expect(wallet.instantWithdrawableUsd).toBe(wallet.totalBalanceUsd);
    expect(await ledgerDiscrepancy()).toBe(0);
    const all = await m.client.withdrawals.create(walletId, withdrawBody(wallet.totalBalanceUsd));
    expect(all.status).toBe("completed");
    expect(await balance()).toBe(0);
  });
});
