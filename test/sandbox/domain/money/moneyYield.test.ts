import { afterEach, beforeEach, describe, expect, test } from "vitest";
import { YieldMetricsSchema } from "../../../../sdk/nodejs/contract/index.ts";
import { NotFoundError, ValidationError } from "../../../../sdk/nodejs/client/index.ts";
import { uuid } from "../../helpers.ts";
import {
  DAY_MS,
  HOUR_MS,
  expectGlobalGenerated,
  fundedWallet,
  micros,
  startMoneySandbox,
  withdrawBody,
  type MoneySandbox,
} from "../../moneyHelpers.ts";

let m: MoneySandbox;
beforeEach(async () => {
  m = await startMoneySandbox();
});
afterEach(() => m.close());

/** Simple interest, ACT/365: what `usd` earns at `bps` over `ms`. */
const interest = (usd: number, bps: number, ms: number) => (usd * bps) / 10_000 / ((365 * DAY_MS) / ms);
const setRate = async (positionKey: string, currentRateBps: number) =>
  expect(
    (await m.t.api("PUT", `/_sandbox/catalog/${positionKey}/rate`, { body: { currentRateBps } })).status,
  ).toBe(200);

describe("yield accrual", () => {
  test("a day of accrual earns each position its catalog rate, to the micro", async () => {
    const walletId = await fundedWallet(m, 1000);
    await m.advance(DAY_MS);
    const wallet = await m.client.wallets.retrieve(walletId);
    const tbills = interest(600, 430, DAY_MS);
    const syrup = interest(400, 650, DAY_MS);
    // Credited in whole micros, rounded down: each position is at most one micro short.
    expect(wallet.positions.map((p) => p.positionKey)).toEqual(["tbills", "syrupUsdc"]);
    expect(600 + tbills - (wallet.positions[0]?.valueUsd ?? 0)).toBeGreaterThanOrEqual(0);
    expect(600 + tbills - (wallet.positions[0]?.valueUsd ?? 0)).toBeLessThan(0.000001);
    expect(400 + syrup - (wallet.positions[1]?.valueUsd ?? 0)).toBeLessThan(0.000001);
    expect(wallet.totalBalanceUsd).toBeCloseTo(1000 + tbills + syrup, 5);
    expect(wallet.totalBalanceUsd).toBeGreaterThan(1000.14);

    const metrics = YieldMetricsSchema.parse(
      await m.client.yieldMetrics.retrieve({ portfolioWalletIds: [walletId] }),
    );
    expect(metrics.global.generated).toBeCloseTo(tbills + syrup, 5);
    const walletFigures = metrics.portfolioWallets[walletId];
    expect(micros(walletFigures?.generated ?? 0)).toBe(micros(wallet.totalBalanceUsd) - micros(1000));
    expect(metrics.global).toMatchObject({ withdrawn: 0, accruedDelta: metrics.global.generated });
    // Global is the exact yield rounded down once, the wallet's is rounded down per position: the
    // two positions' fractions of a micro add up to at most one more micro in global.
    expectGlobalGenerated(micros(metrics.global.generated), micros(walletFigures?.generated ?? 0), 2);
    expect(micros(metrics.global.generated)).toBe(
      Math.floor((interest(600, 430, DAY_MS) + interest(400, 650, DAY_MS)) * 1e6),
    );
    expect(metrics.period).toEqual({ start: "2026-03-01T00:00:00.000Z", end: "2026-03-02T00:00:01.000Z" });
  });

  test("actual weights, drift and blended rate follow the balances as they grow", async () => {
    const walletId = await fundedWallet(m, 1000);
    await m.advance(30 * DAY_MS);
    const wallet = await m.client.wallets.retrieve(walletId);
    const [tbills, syrup] = wallet.positions;
    // syrupUsdc earns more, so its share grows above target.
    expect(syrup?.weightBps).toBeGreaterThan(4000);
    expect(syrup?.driftBps).toBeCloseTo((syrup?.weightBps ?? 0) - 4000, 2);
    expect(tbills?.driftBps).toBeLessThan(0);
    expect(wallet.blendedRateBps).toBeGreaterThan(518);
    expect(wallet.instantWithdrawableUsd).toBe(syrup?.valueUsd);
  });

  test("a rate change applies from its time on: the day accrues piecewise", async () => {
    const walletId = await fundedWallet(m, 1000, [{ positionKey: "syrupUsdc", targetWeightBps: 10000 }]);
    await m.advance(12 * HOUR_MS);
    // The rate change credits the first half's yield, so the second half earns on it too.
    expect((await m.client.wallets.retrieve(walletId)).totalBalanceUsd).toBeCloseTo(
      1000 + interest(1000, 650, 12 * HOUR_MS),
      5,
    );
    await setRate("syrupUsdc", 1300);
    await m.advance(12 * HOUR_MS);
    const wallet = await m.client.wallets.retrieve(walletId);
    const firstHalf = interest(1000, 650, 12 * HOUR_MS);
    const expected = 1000 + firstHalf + interest(1000 + firstHalf, 1300, 12 * HOUR_MS);
    expect(wallet.totalBalanceUsd).toBeCloseTo(expected, 5);
    expect(wallet.positions[0]?.currentApyBps).toBe(1300);
    expect(wallet.blendedRateBps).toBe(1300);
  });

  test("a rate change nobody observes until later still splits the accrual at its time", async () => {
    const walletId = await fundedWallet(m, 1000, [{ positionKey: "syrupUsdc", targetWeightBps: 10000 }]);
    // No API read in between: the rate change is the only thing that happens at the 12-hour mark.
    m.clock.advance(12 * HOUR_MS);
    await setRate("syrupUsdc", 0);
    m.clock.advance(12 * HOUR_MS);
    const wallet = await m.client.wallets.retrieve(walletId);
    expect(wallet.totalBalanceUsd).toBeCloseTo(1000 + interest(1000, 650, 12 * HOUR_MS), 5);
  });
});

describe("POST /v2/portfolio-wallets/yield", () => {
  test("per-wallet figures add up to the global ones, and generated − withdrawn = accruedDelta", async () => {
    const a = await fundedWallet(m, 1000);
    const b = await fundedWallet(m, 5000, [{ positionKey: "syrupUsdc", targetWeightBps: 10000 }]);
    await m.advance(10 * DAY_MS);
    await m.client.withdrawals.create(b, withdrawBody(2000));
    await m.advance(DAY_MS);
    const metrics = await m.client.yieldMetrics.retrieve({ portfolioWalletIds: [a, b] });
    const [fa, fb] = [metrics.portfolioWallets[a], metrics.portfolioWallets[b]];
    if (fa === undefined || fb === undefined) throw new Error("missing wallet figures");
    for (const f of [fa, fb, metrics.global]) {
      expect(micros(f.generated) - micros(f.withdrawn)).toBe(micros(f.accruedDelta));
    }
    expectGlobalGenerated(micros(metrics.global.generated), micros(fa.generated) + micros(fb.generated), 3);
    expect(micros(fa.withdrawn) + micros(fb.withdrawn)).toBe(micros(metrics.global.withdrawn));
    expect(fa.withdrawn).toBe(0);
    // b paid out 2000 of a balance holding ~8.9 of yield: 40% of that yield is withdrawn.
    expect(fb.withdrawn).toBeGreaterThan(0);
    expect(fb.withdrawn).toBeCloseTo(
      (2000 * interest(5000, 650, 10 * DAY_MS)) / (5000 + interest(5000, 650, 10 * DAY_MS)),
      5,
    );
    const global = await m.client.yieldMetrics.retrieve();
    expect(global.portfolioWallets).toEqual({});
    expect(global.global).toEqual(metrics.global);
  });

  test("periods split the lifetime: two halves add up to the whole", async () => {
    const walletId = await fundedWallet(m, 10_000, [{ positionKey: "resolvRlp", targetWeightBps: 10000 }]);
    const start = m.clock.now().toISOString();
    for (let hour = 0; hour < 48; hour += 7) await m.advance(7 * HOUR_MS); // settles every 7 hours
    const end = m.clock.now().toISOString();
    const mid = new Date((Date.parse(start) + Date.parse(end)) / 2).toISOString();
    const figures = async (periodStartIso?: string, periodEndIso?: string) =>
      (
        await m.client.yieldMetrics.retrieve({
          portfolioWalletIds: [walletId],
          ...(periodStartIso === undefined ? {} : { periodStartIso }),
          ...(periodEndIso === undefined ? {} : { periodEndIso }),
        })
      ).global.generated;
    const [first, second, whole] = [
      await figures(start, mid),
      await figures(mid, end),
      await figures(start, end),
    ];
    expect(first).toBeGreaterThan(0);
    expect(second).toBeGreaterThan(0);
    expect(Math.abs(micros(first) + micros(second) - micros(whole))).toBeLessThanOrEqual(1);
    expect(whole).toBe(await figures());
    expect(first).toBeCloseTo(interest(10_000, 1050, Date.parse(mid) - Date.parse(start)), 3);
    expect(await figures(undefined, start)).toBe(0);
  });

  test("period.start is a date-time when periodStartIso is omitted, with or without wallets (spec 2.9)", async () => {
    // Regression: `-d '{}'` answered period.start null; the interface types it a date-time.
    const before = await m.t.api("POST", "/v2/portfolio-wallets/yield", { body: {} });
    expect(before.status).toBe(200);
    const at = m.clock.now().toISOString();
    expect(before.body.period).toEqual({ start: at, end: at });
    expect(YieldMetricsSchema.parse(before.body).period.start).toBe(at);

    await fundedWallet(m, 1000);
    await m.advance(DAY_MS);
    const after = await m.t.api("POST", "/v2/portfolio-wallets/yield", { body: {} });
    expect(after.body.period.start).toBe("2026-03-01T00:00:00.000Z");
    // An end before the first wallet: the lifetime up to then is empty and starts at that end.
    const early = "2026-02-01T00:00:00.000Z";
    const ended = await m.t.api("POST", "/v2/portfolio-wallets/yield", { body: { periodEndIso: early } });
    expect(ended.body.period).toEqual({ start: early, end: early });
    expect(ended.body.global.generated).toBe(0);
  });

  test("rejects a period that ends before it starts, and wallets that are not the caller's", async () => {
    const err = await m.client.yieldMetrics
      .retrieve({ periodStartIso: "2026-03-02T00:00:00Z", periodEndIso: "2026-03-01T00:00:00Z" })
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ValidationError);
    expect((err as ValidationError).details[0]?.field).toBe("periodStartIso");
    const missing = await m.client.yieldMetrics
      .retrieve({ portfolioWalletIds: [uuid()] })
      .catch((e: unknown) => e);
    expect(missing).toBeInstanceOf(NotFoundError);
    expect((missing as NotFoundError).details[0]?.field).toBe("portfolioWalletIds[0]");
  });
});
