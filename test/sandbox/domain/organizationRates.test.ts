// Rates per organization (docs/sandbox.md "Rates per organization"): two organizations share one
// sandbox, each with a funded wallet, a pending withdrawal and an approval-gated update. A rate
// change for one organization changes its catalog, quotes, blended rates and yield only; a rate
// change for the sandbox reaches both, each from its own time.
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { createManualClock } from "../../../sandbox/index.ts";
import { OTHER_TOKEN, startTestSandbox, TOKEN, uuid, type TestSandbox } from "../helpers.ts";
import { DAY_MS, DEPOSIT_DELAY_MS, withdrawBody } from "../moneyHelpers.ts";

const POSITIONS = [
  { positionKey: "tbills", targetWeightBps: 6000 },
  { positionKey: "syrupUsdc", targetWeightBps: 4000 },
];

let t: TestSandbox;
const wallets: Record<string, string> = {};

async function ok(method: string, path: string, token: string, body?: unknown) {
  const res = await t.api(method, path, { token, ...(body === undefined ? {} : { body }) });
  expect(res.status, `${method} ${path} ${JSON.stringify(res.body)}`).toBeLessThan(300);
  return res.body;
}

const rateOf = async (token: string, key: string) =>
  ((await ok("GET", "/v2/portfolio-wallets/yield-sources", token)).yieldSources as YieldSourceView[]).find(
    (source) => source.positionKey === key,
  ) as YieldSourceView;
type YieldSourceView = { positionKey: string; currentRateBps: number; rateUpdatedAt: string };

/** What an organization's rates drive, as its API shows it. */
async function observe(token: string) {
  return {
    tbills: await rateOf(token, "tbills"),
    strategies: await ok("GET", "/v2/portfolio-wallets/strategies", token),
    quote: await ok("POST", "/v2/portfolio-wallets/quote", token, {
      requestId: "3f1c2a9e-8b7d-4c1e-9f0a-2b3c4d5e6f70",
      minApyTargetBps: 100,
    }),
    wallet: await ok("GET", `/v2/portfolio-wallets/${wallets[token]}`, token),
    yieldMetrics: await ok("POST", "/v2/portfolio-wallets/yield", token, {}),
  };
}

beforeAll(async () => {
  t = await startTestSandbox({
    clock: createManualClock(new Date("2026-03-01T00:00:00.000Z")),
    depositProcessingDelayMs: DEPOSIT_DELAY_MS,
    policies: { "org-a": { strategyUpdateApprovals: 1 }, "org-b": { strategyUpdateApprovals: 1 } },
  });
  for (const token of [TOKEN, OTHER_TOKEN]) {
    const wallet = await ok("POST", "/v2/portfolio-wallets", token, {
      requestId: uuid(),
      positions: POSITIONS,
    });
    await ok("POST", "/_sandbox/deposits", token, {
      chain: "ethereum",
      address: wallet.depositAddresses.ethereum.address,
      amount: 1_000_000,
      txHash: `0x${uuid().replaceAll("-", "")}`,
    });
    await ok("POST", "/_sandbox/clock/advance", token, { ms: DEPOSIT_DELAY_MS });
    await ok("POST", `/v2/portfolio-wallets/${wallet.id}/withdraw`, token, withdrawBody(700_000));
    await ok("PATCH", `/v2/portfolio-wallets/${wallet.id}/strategy`, token, {
      requestId: uuid(),
      positions: [{ positionKey: "tbills", targetWeightBps: 10000 }],
    });
    wallets[token] = wallet.id;
  }
});
afterAll(() => t.close());

describe("rates per organization", () => {
  test("A's rate change changes A's catalog, quotes, blended rate and yield, and nothing of B's", async () => {
    const beforeA = await observe(TOKEN);
    const beforeB = await observe(OTHER_TOKEN);
    const changed = await ok("PUT", "/_sandbox/catalog/tbills/rate", TOKEN, { currentRateBps: 2000 });
    expect(changed).toMatchObject({ positionKey: "tbills", currentRateBps: 2000, scope: "organization" });
    const clockA = await ok("GET", "/_sandbox/clock", TOKEN);
    expect(changed.rateUpdatedAt).toBe(clockA.now);

    const afterA = await observe(TOKEN);
    expect(await observe(OTHER_TOKEN)).toEqual(beforeB);
    expect(afterA.tbills.currentRateBps).toBe(2000);
    expect(afterA.strategies).not.toEqual(beforeA.strategies);
    expect(afterA.quote).not.toEqual(beforeA.quote);
    expect(afterA.wallet.blendedRateBps).toBeGreaterThan(beforeA.wallet.blendedRateBps);

    // A day later (every organization's clock), A's tbills money earned 20%, B's its old rate.
    await ok("POST", "/_sandbox/clock/advance", TOKEN, { ms: DAY_MS, scope: "sandbox" });
    const yieldA =
      (await observe(TOKEN)).yieldMetrics.global.generated - afterA.yieldMetrics.global.generated;
    const yieldB =
      (await observe(OTHER_TOKEN)).yieldMetrics.global.generated - beforeB.yieldMetrics.global.generated;
    expect(yieldA).toBeGreaterThan(yieldB * 2);
    for (const token of [TOKEN, OTHER_TOKEN])
      expect((await ok("GET", "/_sandbox/ledger", token)).total.discrepancyMicros).toBe(0);
  });

  test("a rate change for the sandbox reaches every organization, each from its own time", async () => {
    await ok("POST", "/_sandbox/clock/advance", TOKEN, { ms: 30 * DAY_MS });
    const clockA = await ok("GET", "/_sandbox/clock", TOKEN);
    const clockB = await ok("GET", "/_sandbox/clock", OTHER_TOKEN);
    const changed = await ok("PUT", "/_sandbox/catalog/syrupUsdc/rate", OTHER_TOKEN, {
      currentRateBps: 900,
      scope: "sandbox",
    });
    expect(changed.scope).toBe("sandbox");
    const seenByA = await rateOf(TOKEN, "syrupUsdc");
    const seenByB = await rateOf(OTHER_TOKEN, "syrupUsdc");
    expect(seenByA).toMatchObject({ currentRateBps: 900, rateUpdatedAt: clockA.now });
    expect(seenByB).toMatchObject({ currentRateBps: 900, rateUpdatedAt: clockB.now });
    // A's own rate of tbills stays A's; B's tbills is the shared one.
    expect((await rateOf(TOKEN, "tbills")).currentRateBps).toBe(2000);
    expect((await rateOf(OTHER_TOKEN, "tbills")).currentRateBps).not.toBe(2000);
    for (const token of [TOKEN, OTHER_TOKEN])
      expect((await ok("GET", "/_sandbox/ledger", token)).total.discrepancyMicros).toBe(0);
  });

  test("an unknown source or scope is refused, naming it", async () => {
    const unknown = await t.api("PUT", "/_sandbox/catalog/nope/rate", { body: { currentRateBps: 1 } });
    expect(unknown.status).toBe(404);
    const scope = await t.api("PUT", "/_sandbox/catalog/tbills/rate", {
      body: { currentRateBps: 1, scope: "all" },
    });
    expect(scope.status).toBe(400);
    expect(scope.body.error.details[0].field).toBe("scope");
  });
});
