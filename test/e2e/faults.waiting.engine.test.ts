// A pipeline meets the service's bad minutes: dropped connections (after the request was applied),
// 503s and 429s (not applied), slow answers. Shown through the real engine and the packed package,
// in a project outside the repository: an `up` of 40 wallets meets a burst of faults spread across
// its creates, then a reweight of all 40 meets the same, and each completes in one `up`, with
// every wallet created once and changed once. Then a fault that never ends spends the retry
// budget: the `up` fails saying so, and the next `up` finishes without doing anything twice.
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { callSandbox, requestCounts, resetRequestCounts } from "../support/sandboxAccess.ts";
import { Fleet } from "./harness/fleet.ts";
import { configSetAll } from "../support/pulumiConfig.ts";

const WALLETS = 40;
const CREATE = "POST /v2/portfolio-wallets";
const REWEIGHT = "PATCH /v2/portfolio-wallets/:id/strategy";
const REWEIGHTED = [
  { positionKey: "tbills", targetWeightBps: 3000 },
  { positionKey: "syrupUsdc", targetWeightBps: 7000 },
];

let fleet: Fleet;
const access = () => fleet.access;
const project = () => fleet.project;

/**
 * Twenty faults over the first ~50 requests of a route (the 1st, 3rd, 6th, 8th, ... request), in
 * turn a dropped answer, a 503, a 429 with Retry-After 1 s and a slow answer; one 429 asks for 3 s,
 * a wait the provider says in the output. And a short outage: from the 21st request on, the next
 * 60 not faulted otherwise are answered 503. The engine sends all 40 at once, so the outage meets
 * every request more than the client's default two retries could ride out. Returns how many of the
 * faults make the client try again.
 */
const OUTAGE = 60;
async function armBurst(method: string, routePattern: string): Promise<number> {
  const kinds = [
    { kind: "drop" },
    { kind: "status", status: 503 },
    { kind: "status", status: 429, retryAfterSeconds: 1 },
    { kind: "delay", delayMs: 1_500 },
  ];
  let failing = 0;
  for (let i = 0; i < 20; i++) {
    const action =
      i === 10 ? { kind: "status", status: 429, retryAfterSeconds: 3 } : kinds[i % kinds.length]!;
    if (action.kind !== "delay") failing += 1;
    await callSandbox(access(), "POST", "/_sandbox/faults", {
      method,
      path: routePattern,
      after: Math.floor(i * 2.5),
      ...action,
    });
  }
  // Registered last, so the spread faults take the requests they were meant for.
  await callSandbox(access(), "POST", "/_sandbox/faults", {
    method,
    path: routePattern,
    after: 20,
    kind: "status",
    status: 503,
    times: OUTAGE,
  });
  return failing + OUTAGE;
}

async function armedFaults(): Promise<unknown[]> {
  return ((await callSandbox(access(), "GET", "/_sandbox/faults")) as { faults: unknown[] }).faults;
}

beforeAll(async () => {
  fleet = await Fleet.start("faults", WALLETS);
}, 300_000);

afterAll(async () => {
  await fleet?.close();
});

describe("an up through a burst of the service's faults", { concurrent: false }, () => {
  test("creates: one up, every wallet created once, the state equal to the service, the long wait said", async () => {
    const failing = await armBurst("POST", "/v2/portfolio-wallets");
    await resetRequestCounts(access());
    const { stdout } = await project().pulumi(["up", "--yes", "--skip-preview"]);

    expect(await armedFaults()).toEqual([]);
    const wallets = await fleet.walletsAtTheService();
    expect(wallets).toHaveLength(WALLETS);
    expect(new Set(wallets.map((w) => w.label)).size).toBe(WALLETS);
    expect((await fleet.checkpoint()).walletIds).toEqual(wallets.map((w) => String(w.id)).sort());
    // Each fault that failed a request cost exactly one more attempt of it, with the same requestId.
    expect((await requestCounts(access()))[CREATE]).toBe(WALLETS + failing);
    // The 3 s wait the service asked for is in the output a pipeline keeps.
    expect(stdout).toMatch(
      /POST \/v2\/portfolio-wallets met 429 rate_limited \(.*\); waiting 3 s as the service asked \(Retry-After\) before attempt \d+/,
    );
    await project().pulumi(["preview", "--expect-no-changes"]);
  }, 600_000);

  test("a reweight of every wallet: one up, one strategy update per wallet, nothing left to change", async () => {
    await project().pulumi(["config", "set", "bench:positions", JSON.stringify(REWEIGHTED)]);
    await armBurst("PATCH", "/v2/portfolio-wallets/:id/strategy");
    await resetRequestCounts(access());
    await project().pulumi(["up", "--yes", "--skip-preview"]);

    expect(await armedFaults()).toEqual([]);
    // More PATCHes than wallets: the faulted ones were sent again, and the provider replays each
    // (same requestId, same body) while it waits for the rebalance; the service made one update each.
    expect((await requestCounts(access()))[REWEIGHT]).toBeGreaterThan(WALLETS);
    const wallets = await fleet.walletsAtTheService();
    expect(wallets).toHaveLength(WALLETS);
    for (const wallet of wallets) {
      const syrup = wallet.strategyConfig.positions.find(
        (p: { positionKey: string }) => p.positionKey === "syrupUsdc",
      );
      expect(syrup?.targetWeightBps).toBe(7000);
      expect(await fleet.strategyUpdatesOf(wallet.id)).toHaveLength(1);
    }
    await project().pulumi(["preview", "--expect-no-changes"]);
  }, 600_000);

  test("a fault that never ends: the up fails once the budget is spent, saying so; the next up duplicates nothing", async () => {
    await project().pulumi(
      configSetAll({ "portfolio-wallet:retryTimeoutSeconds": "4", "bench:count": String(WALLETS + 1) }),
    );
    // Every answer to a create is lost after the service made the wallet.
    await callSandbox(access(), "POST", "/_sandbox/faults", {
      method: "POST",
      path: "/v2/portfolio-wallets",
      kind: "drop",
      times: 1000,
    });
    const failed = await project()
      .pulumi(["up", "--yes", "--skip-preview"])
      .catch((error: Error) => error);
    expect(failed).toBeInstanceOf(Error);
    const text = (failed as Error).message;
    expect(text).toMatch(
      /POST \/v2\/portfolio-wallets was tried \d+ times over [\d.]+ s; the last answer was no connection/,
    );
    expect(text).toContain("running the Pulumi operation again is safe");
    expect(text).toContain("raise portfolio-wallet:retryTimeoutSeconds (now 4 s)");
    expect(text).not.toMatch(/maxRetries|the client's/);
    // Every attempt reached the service and carried the same requestId: one wallet, not one per attempt.
    expect(await fleet.walletsAtTheService()).toHaveLength(WALLETS + 1);

    await callSandbox(access(), "DELETE", "/_sandbox/faults");
    await project().pulumi(["config", "rm", "portfolio-wallet:retryTimeoutSeconds"]);
    await project().pulumi(["up", "--yes", "--skip-preview"]);
    const wallets = await fleet.walletsAtTheService();
    expect(wallets).toHaveLength(WALLETS + 1);
    expect((await fleet.checkpoint()).walletIds).toEqual(wallets.map((w) => String(w.id)).sort());
    await project().pulumi(["preview", "--expect-no-changes"]);
  }, 600_000);
});
