import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { StrategiesResponseSchema, YieldSourcesResponseSchema } from "../../../sdk/nodejs/contract/index.ts";
import { startTestSandbox, type TestSandbox } from "../helpers.ts";

let t: TestSandbox;
beforeAll(async () => {
  t = await startTestSandbox();
});
afterAll(() => t.close());

describe("GET /v2/portfolio-wallets/strategies", () => {
  test("lists the three default sources in the contract's shape", async () => {
    const res = await t.api("GET", "/v2/portfolio-wallets/strategies");
    expect(res.status).toBe(200);
    const body = StrategiesResponseSchema.parse(res.body);
    expect(body.strategies.map((s) => s.positionKey)).toEqual(["tbills", "resolvRlp", "syrupUsdc"]);
    const syrup = body.strategies.find((s) => s.positionKey === "syrupUsdc");
    expect(syrup).toMatchObject({
      asset: "syrupUSDC",
      strategyType: "overcollateralizedLending",
      maxProcessingTime: "PT0H",
    });
    expect(res.headers.get("x-request-id")).toMatch(/^[0-9a-f-]{36}$/);
  });
});

describe("GET /v2/portfolio-wallets/yield-sources", () => {
  test("answers yieldSources with display names", async () => {
    const res = await t.api("GET", "/v2/portfolio-wallets/yield-sources");
    expect(res.status).toBe(200);
    const body = YieldSourcesResponseSchema.parse(res.body);
    expect(body.yieldSources).toHaveLength(3);
    expect(body.yieldSources.every((s) => typeof s.displayName === "string")).toBe(true);
  });
});

describe("PUT /_sandbox/catalog/:positionKey/rate", () => {
  test("changes the rate and rateUpdatedAt of one source", async () => {
    const before = (await t.api("GET", "/v2/portfolio-wallets/strategies")).body.strategies[0];
    await t.api("POST", "/_sandbox/clock/advance", { body: { seconds: 60 } });
    const res = await t.api("PUT", "/_sandbox/catalog/tbills/rate", { body: { currentRateBps: 455 } });
    expect(res.status).toBe(200);
    const after = (await t.api("GET", "/v2/portfolio-wallets/strategies")).body.strategies[0];
    expect(after.currentRateBps).toBe(455);
    expect(Date.parse(after.rateUpdatedAt)).toBeGreaterThan(Date.parse(before.rateUpdatedAt));
  });

  test("is 404 for a source not in the catalog", async () => {
    const res = await t.api("PUT", "/_sandbox/catalog/nope/rate", { body: { currentRateBps: 1 } });
    expect(res.status).toBe(404);
    expect(res.body.error.code).toBe("not_found");
  });
});

describe("catalog option", () => {
  test("replaces the catalog at startup", async () => {
    const custom = await startTestSandbox({
      catalog: [
        {
          positionKey: "aaveUsdc",
          asset: "aUSDC",
          strategyType: "overcollateralizedLending",
          maxProcessingTime: "PT0H",
          currentRateBps: 500,
          rateUpdatedAt: "2026-01-01T00:00:00.000Z",
        },
      ],
    });
    try {
      const res = await custom.api("GET", "/v2/portfolio-wallets/strategies");
      expect(res.body.strategies.map((s: { positionKey: string }) => s.positionKey)).toEqual(["aaveUsdc"]);
    } finally {
      await custom.close();
    }
  });
});
