import { afterEach, beforeEach, describe, expect, test } from "vitest";
import { DepositSchema, PortfolioWalletSchema } from "../../../../sdk/nodejs/contract/index.ts";
import { NotFoundError } from "../../../../sdk/nodejs/client/index.ts";
import { OTHER_TOKEN, uuid } from "../../helpers.ts";
import { DEPOSIT_DELAY_MS, deposit, startMoneySandbox, type MoneySandbox } from "../../moneyHelpers.ts";

let m: MoneySandbox;
let walletId: string;
beforeEach(async () => {
  m = await startMoneySandbox();
  walletId = (
    await m.client.wallets.create({
      requestId: uuid(),
      positions: [
        { positionKey: "tbills", targetWeightBps: 6000 },
        { positionKey: "syrupUsdc", targetWeightBps: 4000 },
      ],
    })
  ).id;
});
afterEach(() => m.close());

const simulate = (body: Record<string, unknown>, token?: string) =>
  m.t.api("POST", "/_sandbox/deposits", { body, ...(token === undefined ? {} : { token }) });
const addressOf = async (chain: string) =>
  (await m.client.wallets.retrieve(walletId)).depositAddresses[chain]?.address;

describe("deposits", () => {
  test("a detected deposit raises pendingAllocations first, then moves into the positions by target weight", async () => {
    const created = DepositSchema.parse(await deposit(m, walletId, 1000, { chain: "base" }));
    expect(created).toMatchObject({ status: "processing", amountUsd: 1000, chain: "base" });
    expect(created.legStatuses).toEqual({ tbills: "pending", syrupUsdc: "pending" });

    const detected = PortfolioWalletSchema.parse(await m.client.wallets.retrieve(walletId));
    expect(detected).toMatchObject({
      totalBalanceUsd: 1000,
      pendingAllocationsUsd: 1000,
      instantWithdrawableUsd: 0,
    });
    expect(detected.depositAddresses.base).toMatchObject({
      totalBalanceUsd: 1000,
      pendingAllocationsUsd: 1000,
    });
    expect(detected.positions.map((p) => p.valueUsd)).toEqual([0, 0]);

    await m.advance(DEPOSIT_DELAY_MS / 2);
    const halfway = await m.client.deposits.retrieve(walletId, created.id);
    expect(halfway).toMatchObject({
      status: "processing",
      legStatuses: { tbills: "processing", syrupUsdc: "processing" },
    });

    await m.advance(DEPOSIT_DELAY_MS / 2);
    const done = await m.client.deposits.retrieve(walletId, created.id);
    expect(done).toMatchObject({
      status: "completed",
      legStatuses: { tbills: "completed", syrupUsdc: "completed" },
    });
    expect(done.completedAt).toBe("2026-03-01T00:00:01.000Z");

    const allocated = await m.client.wallets.retrieve(walletId);
    expect(allocated).toMatchObject({
      totalBalanceUsd: 1000,
      pendingAllocationsUsd: 0,
      instantWithdrawableUsd: 400,
    });
    expect(allocated.depositAddresses.base).toMatchObject({
      totalBalanceUsd: 1000,
      pendingAllocationsUsd: 0,
    });
    expect(
      allocated.positions.map((p) => [p.positionKey, p.valueUsd, p.balanceUnits, p.weightBps, p.driftBps]),
    ).toEqual([
      ["tbills", 600, 600, 6000, 0],
      ["syrupUsdc", 400, 400, 4000, 0],
    ]);
    expect(allocated.blendedRateBps).toBe(518); // 0.6 × 430 + 0.4 × 650
    expect(allocated.liquidityProfile).toEqual([
      { maxProcessingTime: "PT0H", weightBps: 4000 },
      { maxProcessingTime: "PT24H", weightBps: 6000 },
    ]);
  });

  test("splits an odd amount to the micro, losing nothing", async () => {
    await deposit(m, walletId, 0.000007);
    await m.advance(DEPOSIT_DELAY_MS);
    const wallet = await m.client.wallets.retrieve(walletId);
    const values = wallet.positions.map((p) => Math.round(p.valueUsd * 1e6));
    expect(values).toEqual([4, 3]); // 60% of 7 micros is 4.2, 40% is 2.8: largest remainder
    expect(wallet.totalBalanceUsd).toBe(0.000007);
  });

  test("a repeated txHash is credited once and answers the original deposit", async () => {
    const address = await addressOf("ethereum");
    const body = { chain: "ethereum", address, amount: 250, txHash: "0xfeed" };
    const first = await simulate(body);
    const again = await simulate(body);
    expect([first.status, again.status]).toEqual([201, 200]);
    expect(again.body.id).toBe(first.body.id);
    expect((await m.client.wallets.retrieve(walletId)).totalBalanceUsd).toBe(250);
    const other = await simulate({ ...body, amount: 300 });
    expect(other.status).toBe(409);
    expect(other.body.error.details).toEqual([
      { field: "txHash", reason: expect.stringContaining("already credited") },
    ]);
  });

  test("bad transfers are 400s naming the field, and credit nothing", async () => {
    const ethereum = await addressOf("ethereum");
    const cases: [Record<string, unknown>, string[]][] = [
      [
        { chain: "ethereum", address: "0x0000000000000000000000000000000000000001", amount: 1, txHash: "a" },
        ["address"],
      ],
      [{ chain: "solana", address: ethereum, amount: 1, txHash: "b" }, ["chain"]],
      [{ chain: "dogecoin", address: ethereum, amount: 1, txHash: "c" }, ["chain"]],
      [{ chain: "ethereum", address: ethereum, amount: 0, txHash: "d" }, ["amount"]],
      [{ chain: "ethereum", address: ethereum, amount: -5, txHash: "e" }, ["amount"]],
      [{ chain: "ethereum", address: ethereum, amount: "10", txHash: "f" }, ["amount"]],
      [{ chain: "ethereum", address: ethereum, amount: 0.0000001, txHash: "g" }, ["amount"]],
      [{ chain: "ethereum", address: ethereum, amount: 1 }, ["txHash"]],
      [{ chain: "solana", address: "nope", amount: -1, txHash: "h" }, ["amount", "address"]],
    ];
    for (const [body, fields] of cases) {
      const res = await simulate(body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(
        res.body.error.details.map((d: { field: string }) => d.field).sort(),
        JSON.stringify(body),
      ).toEqual([...fields].sort());
    }
    // A non-finite amount cannot be JSON; it arrives as null.
    const raw = await m.t.api("POST", "/_sandbox/deposits", {
      raw: `{"chain":"ethereum","address":"${ethereum}","amount":1e999,"txHash":"i"}`,
      headers: { "content-type": "application/json" },
    });
    expect(raw.status).toBe(400);
    expect(raw.body.error.details[0].field).toBe("amount");
    expect((await m.client.wallets.retrieve(walletId)).totalBalanceUsd).toBe(0);
  });

  test("an EVM address matches whatever its letter case", async () => {
    const address = (await addressOf("arbitrum"))?.toUpperCase().replace("0X", "0x");
    const res = await simulate({ chain: "arbitrum", address, amount: 5, txHash: "0x1" });
    expect(res.status).toBe(201);
  });

  test("another organization's address is unknown to the caller", async () => {
    const res = await simulate(
      { chain: "ethereum", address: await addressOf("ethereum"), amount: 1, txHash: "x" },
      OTHER_TOKEN,
    );
    expect(res.status).toBe(400);
    expect(res.body.error.details[0].field).toBe("address");
  });

  test("lists deposits newest first with cursor pagination, and reads one", async () => {
    for (const amount of [1, 2, 3]) {
      await deposit(m, walletId, amount);
      await m.advance(1);
    }
    const first = await m.client.deposits.list(walletId, { pageSize: 2 });
    expect(first.data.map((d) => d.amountUsd)).toEqual([3, 2]);
    expect(first.nextCursor).not.toBeNull();
    const all = [];
    for await (const d of m.client.deposits.list(walletId, { pageSize: 2 })) all.push(d.amountUsd);
    expect(all).toEqual([3, 2, 1]);
    const raw = await m.t.api("GET", `/v2/portfolio-wallets/${walletId}/deposits`);
    expect(raw.body.pageSize).toBe(25);
    await expect(m.client.deposits.retrieve(walletId, uuid())).rejects.toBeInstanceOf(NotFoundError);
  });
});
