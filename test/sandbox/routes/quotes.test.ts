import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { QuoteResponseSchema } from "../../../sdk/nodejs/contract/index.ts";
import { startTestSandbox, type TestSandbox } from "../helpers.ts";

let t: TestSandbox;
beforeAll(async () => {
  t = await startTestSandbox();
});
afterAll(() => t.close());

const quote = (body: unknown) => t.api("POST", "/v2/portfolio-wallets/quote", { body });

describe("POST /v2/portfolio-wallets/quote", () => {
  test("answers 200 with options whose weights sum to 10000 over catalog sources", async () => {
    const res = await quote({
      minApyTargetBps: 600,
      liquidityConstraints: [{ maxProcessingTime: "PT0H", minWeightBps: 4000 }],
    });
    expect(res.status).toBe(200);
    const options = QuoteResponseSchema.parse(res.body);
    expect(options.length).toBeGreaterThan(0);
    for (const option of options) {
      expect(option.strategyConfig.positions.reduce((s, p) => s + p.targetWeightBps, 0)).toBe(10000);
      for (const p of option.strategyConfig.positions)
        expect(["tbills", "resolvRlp", "syrupUsdc"]).toContain(p.positionKey);
    }
  });

  test("still answers 200 when the constraints cannot all be met", async () => {
    const res = await quote({
      minApyTargetBps: 5000,
      liquidityConstraints: [{ maxProcessingTime: "PT0H", minWeightBps: 10000 }],
    });
    expect(res.status).toBe(200);
    expect(QuoteResponseSchema.parse(res.body).some((o) => !o.constraintsSatisfied)).toBe(true);
  });

  test("honours exclusions by positionKey, asset and strategyType", async () => {
    const res = await quote({
      yieldSourceExclusions: ["tbills", "rlp"],
      yieldSourceTypeExclusions: ["deltaNeutralStrategy"],
    });
    expect(res.status).toBe(200);
    for (const option of QuoteResponseSchema.parse(res.body)) {
      expect(option.strategyConfig.positions.map((p) => p.positionKey)).toEqual(["syrupUsdc"]);
    }
  });

  test("answers 200 with an empty array when the exclusions leave no yield source (spec 4.1, 7.1)", async () => {
    // Regression: this was a 400, but the quote always answers 200 with an array of options.
    const res = await quote({
      yieldSourceTypeExclusions: ["deltaNeutralStrategy", "tbills"],
      yieldSourceExclusions: ["syrupUsdc"],
    });
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toMatch(/^application\/json/);
    expect(QuoteResponseSchema.parse(res.body)).toEqual([]);
  });

  test("an unknown exclusion is 400 naming the field and listing the valid values", async () => {
    const res = await quote({
      yieldSourceExclusions: ["tbills", "bitcoin"],
      yieldSourceTypeExclusions: ["memecoins"],
    });
    expect(res.status).toBe(400);
    expect(res.body.error.code).toBe("validation_failed");
    const details = res.body.error.details as { field: string; reason: string }[];
    expect(details.map((d) => d.field)).toEqual(["yieldSourceExclusions[1]", "yieldSourceTypeExclusions[0]"]);
    expect(details[0]?.reason).toMatch(/tbills.*rlp.*syrupUSDC/);
    expect(details[1]?.reason).toMatch(/deltaNeutralStrategy/);
  });

  test("bad constraint fields are 400 naming each", async () => {
    const res = await quote({
      minApyTargetBps: -1,
      liquidityConstraints: [{ maxProcessingTime: "soon", minWeightBps: 20000 }],
    });
    expect(res.status).toBe(400);
    expect(res.body.error.details.map((d: { field: string }) => d.field).sort()).toEqual(
      [
        "liquidityConstraints[0].maxProcessingTime",
        "liquidityConstraints[0].minWeightBps",
        "minApyTargetBps",
      ].sort(),
    );
  });
});
