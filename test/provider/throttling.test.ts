// When the service throttles, the whole deployment slows down: the provider's clients share one
// adaptive concurrency limiter (provider/serviceConnection.ts). Shown against a sandbox that serves
// each create in 200 ms and answers 429 (Retry-After: 1, nothing applied) to any request arriving
// while more than five of the organization's requests are in flight: 40 creates sent at once, as
// an engine running 40 steps in parallel sends them.
import { randomUUID } from "node:crypto";
import { describe, expect, test } from "vitest";
import { ServiceConnectionPool } from "../../provider/serviceConnection.ts";
import { PortfolioWalletClient } from "../../sdk/nodejs/client/index.ts";
import { deploymentRetryOptions } from "../../sdk/nodejs/stackSettings.ts";
import {
  OTHER_TOKEN,
  POSITIONS_A,
  addFault,
  baseConfig,
  configSource,
  requestCounts,
  requestsInFlight,
  resetRequestCounts,
  useProviderSandbox,
} from "./helpers.ts";

const t = useProviderSandbox();

const CREATES = 40;
const MAX_IN_FLIGHT = 5;
const CREATE_ROUTE = "POST /v2/portfolio-wallets";

/** A throttling service for `token`'s organization: the two faults stay armed for the whole test. */
async function throttle(token: string): Promise<void> {
  await addFault(
    t,
    {
      method: "POST",
      path: "/v2/portfolio-wallets",
      kind: "concurrency",
      maxInFlight: MAX_IN_FLIGHT,
      times: 1000,
    },
    token,
  );
  await addFault(
    t,
    { method: "POST", path: "/v2/portfolio-wallets", kind: "delay", delayMs: 200, times: 1000 },
    token,
  );
}

/** Sends the creates all at once; returns how many 429s the service answered and the wallets made. */
async function createAllAtOnce(client: PortfolioWalletClient, token: string) {
  await resetRequestCounts(t, token);
  const started = performance.now();
  await Promise.all(
    Array.from({ length: CREATES }, () =>
      client.wallets.create({ requestId: randomUUID(), positions: POSITIONS_A }),
    ),
  );
  const sent = (await requestCounts(t, token))[CREATE_ROUTE] ?? 0;
  return {
    throttled: sent - CREATES,
    seconds: (performance.now() - started) / 1000,
    peakInFlight: (await requestsInFlight(t, token)).peak,
  };
}

describe("the provider's concurrency limiter under sustained 429s", () => {
  test("one limiter per provider process: 429s heard by one client hold back the process's every client", async () => {
    const pool = new ServiceConnectionPool();
    try {
      const first = pool.for(configSource(baseConfig(t)));
      const second = pool.for(configSource(baseConfig(t, OTHER_TOKEN)));
      expect(second.client).not.toBe(first.client);
      expect(pool.limiter.limit).toBe(Infinity);
      await throttle(baseConfig(t)["portfolio-wallet:apiToken"]!);
      await createAllAtOnce(first.client, baseConfig(t)["portfolio-wallet:apiToken"]!);
      // The throttling lowered the one limit, which the other client's requests now wait for too.
      expect(pool.limiter.limit).toBeLessThan(CREATES);
    } finally {
      await pool.closeAll();
    }
  }, 120_000);

  test("slows the deployment down: far fewer refused requests than clients that each retry on their own", async () => {
    const token = baseConfig(t)["portfolio-wallet:apiToken"]!;
    await throttle(token);
    // Without the limiter: the same retry policy (Retry-After honoured, a budget of minutes), no shared limit.
    const alone = new PortfolioWalletClient({
      baseUrl: t.url,
      apiToken: token,
      ...deploymentRetryOptions({ retryTimeoutMs: 300_000 }),
    });
    const unlimited = await createAllAtOnce(alone, token).finally(() => alone.close());

    const pool = new ServiceConnectionPool();
    let limited: Awaited<ReturnType<typeof createAllAtOnce>>;
    try {
      limited = await createAllAtOnce(pool.for(configSource(baseConfig(t))).client, token);
    } finally {
      await pool.closeAll();
    }
    console.log(
      `[throttling] ${CREATES} creates, at most ${MAX_IN_FLIGHT} in flight served: ` +
        `without the limiter ${unlimited.throttled} × 429 in ${unlimited.seconds.toFixed(1)} s (peak ${unlimited.peakInFlight} in flight), ` +
        `with it ${limited.throttled} × 429 in ${limited.seconds.toFixed(1)} s (peak ${limited.peakInFlight})`,
    );
    // Every create succeeds both ways (the retry budget rides it out) ...
    expect(unlimited.throttled).toBeGreaterThan(0);
    // ... but with the limiter the deployment stops pressing: it hears "slow down" less than half as often.
    expect(limited.throttled).toBeLessThan(unlimited.throttled / 2);
  }, 180_000);
});
