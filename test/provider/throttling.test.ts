// When the service throttles, the whole deployment slows down: the provider's clients share one
// adaptive concurrency limiter (provider/serviceConnection.ts). Shown against a model of a service
// that serves each create in 200 ms and answers 429 (Retry-After: 1, nothing applied) to any
// request arriving while more than five of the organization's requests are in flight, as the
// sandbox's `concurrency` fault does: 40 creates sent at once, as an engine running 40 steps in
// parallel sends them.
//
// The model runs on vitest's fake clock (the client's waits, its per-attempt timeouts and its
// budget, and the model's 200 ms), so the counts are the same on an idle machine and on a loaded
// one: against the real sandbox on the wall clock, the 429s counted depended on how fast the
// machine sent and answered (37 with the limiter against 56 without, once, on a loaded machine:
// "expected 37 to be less than 28"). The same run over real HTTP, with its seconds, is a benchmark:
// `npm run bench:throttling` (test/bench/throttling.ts).
import { randomUUID } from "node:crypto";
import { afterEach, beforeEach, describe, expect, test, vi } from "vitest";
import { ServiceConnectionPool } from "../../provider/serviceConnection.ts";
import {
  PortfolioWalletClient,
  type Transport,
  type TransportRequest,
  type TransportResponse,
} from "../../sdk/nodejs/client/index.ts";
import { deploymentRetryOptions } from "../../sdk/nodejs/client/serviceClient.ts";
import { walletJson } from "../sdk/client/helpers/fixtures.ts";
import { configSource, POSITIONS_A } from "./helpers.ts";

const CREATES = 40;
const MAX_IN_FLIGHT = 5;
const SERVE_MS = 200;
const BASE_URL = "http://127.0.0.1:9";

/**
 * The throttling service, per organization (the bearer token): a create arriving while more than
 * MAX_IN_FLIGHT of the organization's requests are in flight, itself included, is answered 429
 * with Retry-After: 1 at once; the others are served in SERVE_MS. Counts what it was sent.
 */
class ThrottlingService implements Transport {
  readonly #inFlight = new Map<string, number>();
  /** Per organization: creates sent and 429s answered. */
  readonly seen = new Map<string, { sent: number; throttled: number }>();

  async makeRequest(request: TransportRequest): Promise<TransportResponse> {
    const organization = request.headers["authorization"] ?? "";
    const seen = this.seen.get(organization) ?? { sent: 0, throttled: 0 };
    this.seen.set(organization, seen);
    const inFlight = (this.#inFlight.get(organization) ?? 0) + 1;
    this.#inFlight.set(organization, inFlight);
    seen.sent += 1;
    try {
      if (inFlight > MAX_IN_FLIGHT) {
        seen.throttled += 1;
        return {
          status: 429,
          headers: { "content-type": "application/json", "retry-after": "1" },
          body: JSON.stringify({
            error: { code: "rate_limited", message: "too many requests in flight", requestId: randomUUID() },
          }),
        };
      }
      await new Promise((resolve) => setTimeout(resolve, SERVE_MS));
      const body = JSON.parse(request.body ?? "{}") as { requestId: string };
      return {
        status: 201,
        headers: { "content-type": "application/json" },
        body: JSON.stringify(walletJson({ requestId: body.requestId })),
      };
    } finally {
      this.#inFlight.set(organization, (this.#inFlight.get(organization) ?? 1) - 1);
    }
  }
}

const config = (token: string) =>
  configSource({ "portfolio-wallet:baseUrl": BASE_URL, "portfolio-wallet:apiToken": token });

/** Runs `work` to its end on the fake clock, moving it in steps of 10 ms; answers its result and the clock's ms. */
async function onFakeClock<T>(work: () => Promise<T>): Promise<{ result: T; ms: number }> {
  const started = performance.now();
  let settled = false;
  const running = work().finally(() => (settled = true));
  // A limit on the fake clock, so a limiter that never lets a request through fails here, not by
  // hanging: the budget of the creates is 300 s.
  while (!settled && performance.now() - started < 600_000) await vi.advanceTimersByTimeAsync(10);
  return { result: await running, ms: performance.now() - started };
}

/** Sends the creates all at once; answers what the service saw of the client's organization. */
async function createAllAtOnce(client: PortfolioWalletClient, service: ThrottlingService, token: string) {
  const { result: wallets, ms } = await onFakeClock(() =>
    Promise.all(
      Array.from({ length: CREATES }, () =>
        client.wallets.create({ requestId: randomUUID(), positions: POSITIONS_A }),
      ),
    ),
  );
  const seen = service.seen.get(`Bearer ${token}`)!;
  return { wallets: wallets.length, ...seen, seconds: ms / 1000 };
}

beforeEach(() => {
  vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout", "Date", "performance"] });
});

afterEach(() => {
  vi.useRealTimers();
});

describe("the provider's concurrency limiter under sustained 429s", () => {
  test("one limiter per provider process: 429s heard by one client hold back the process's every client", async () => {
    const service = new ThrottlingService();
    const pool = new ServiceConnectionPool({ transport: service });
    try {
      const first = pool.for(config("token-a"));
      const second = pool.for(config("token-b"));
      expect(second.client).not.toBe(first.client);
      expect(pool.limiter.limit).toBe(Infinity);
      const throttled = await createAllAtOnce(first.client, service, "token-a");
      expect(throttled.wallets).toBe(CREATES);
      expect(throttled.throttled).toBeGreaterThan(0);
      // The throttling lowered the one limit ...
      expect(pool.limiter.limit).toBeLessThan(CREATES);
      // ... which the other client's requests now keep to, though its organization was never
      // throttled: sent all at once, as the first client's were, 35 of its 40 would be refused.
      const other = await createAllAtOnce(second.client, service, "token-b");
      expect(other.wallets).toBe(CREATES);
      expect(other.throttled).toBeLessThan((CREATES - MAX_IN_FLIGHT) / 2);
    } finally {
      await pool.closeAll();
    }
  });

  test("slows the deployment down: far fewer refused requests than clients that each retry on their own", async () => {
    const service = new ThrottlingService();
    // Without the limiter: the same retry policy (Retry-After honoured, a budget of minutes), no shared limit.
    const alone = new PortfolioWalletClient({
      baseUrl: BASE_URL,
      apiToken: "alone",
      transport: service,
      ...deploymentRetryOptions({ retryTimeoutMs: 300_000 }),
    });
    const unlimited = await createAllAtOnce(alone, service, "alone").finally(() => alone.close());

    const pool = new ServiceConnectionPool({ transport: service });
    let limited: Awaited<ReturnType<typeof createAllAtOnce>>;
    try {
      limited = await createAllAtOnce(pool.for(config("pooled")).client, service, "pooled");
    } finally {
      await pool.closeAll();
    }
    console.log(
      `[throttling] ${CREATES} creates, at most ${MAX_IN_FLIGHT} in flight served, on the fake clock: ` +
        `without the limiter ${unlimited.throttled} × 429 in ${unlimited.seconds.toFixed(1)} s, ` +
        `with it ${limited.throttled} × 429 in ${limited.seconds.toFixed(1)} s`,
    );
    // Every create succeeds both ways (the retry budget rides it out) ...
    expect(unlimited.wallets).toBe(CREATES);
    expect(limited.wallets).toBe(CREATES);
    expect(unlimited.throttled).toBeGreaterThan(0);
    // ... but with the limiter the deployment stops pressing: it hears "slow down" less than half as
    // often (on this model, 39 times against 140).
    expect(limited.throttled).toBeLessThan(unlimited.throttled / 2);
  });
});
