import { randomUUID } from "node:crypto";
import { describe, expect, test, vi } from "vitest";
import {
  ApiConnectionError,
  ApiTimeoutError,
  InternalServerError,
  NotFoundError,
  RateLimitError,
} from "../../../sdk/nodejs/client/index.ts";
import {
  retryHistoryOf,
  withRetries,
  type RetryNotice,
  type RetryPolicy,
} from "../../../sdk/nodejs/client/core/retry.ts";
import { createWalletBody, testClient, walletJson, useMockService } from "./helpers/fixtures.ts";
import { errorReply, type Handler } from "./helpers/mockServer.ts";

const { setup } = useMockService();

/** Fails the first `failures` requests with `reply`, then answers with a wallet. */
function failThenWallet(failures: number, reply: ReturnType<typeof errorReply> | "drop"): Handler {
  return (_request, index) => (index < failures ? reply : { status: 200, body: walletJson() });
}

describe("retry policy over HTTP", () => {
  test("retries a GET after 503 and 500 and returns the third answer", async () => {
    const { server, client } = await setup(
      (_r, i) =>
        [errorReply(503, "unavailable"), errorReply(500, "internal_error")][i] ?? {
          status: 200,
          body: walletJson(),
        },
    );
    const wallet = await client.wallets.retrieve(randomUUID());
    expect(wallet.status).toBe("active");
    expect(server.requests).toHaveLength(3);
  });

  test("retries a GET after a dropped connection", async () => {
    const { server, client } = await setup(failThenWallet(1, "drop"));
    await client.wallets.retrieve(randomUUID());
    expect(server.requests).toHaveLength(2);
  });

  test("retries on 408 and 429", async () => {
    const { server, client } = await setup(
      (_r, i) =>
        [errorReply(408, "timeout"), errorReply(429, "rate_limited")][i] ?? {
          status: 200,
          body: walletJson(),
        },
    );
    await client.wallets.retrieve(randomUUID());
    expect(server.requests).toHaveLength(3);
  });

  test("gives up after maxRetries + 1 attempts with the last error", async () => {
    const { server, client } = await setup(() => errorReply(503, "unavailable", "down for maintenance"));
    const error = await client.wallets.retrieve(randomUUID()).catch((e: unknown) => e);
    expect(InternalServerError.isInstance(error)).toBe(true);
    expect((error as InternalServerError).status).toBe(503);
    expect(server.requests).toHaveLength(3);
  });

  test("maxRetries 0 sends exactly one attempt", async () => {
    const { server, client } = await setup(() => errorReply(503, "unavailable"), { maxRetries: 0 });
    await expect(client.wallets.retrieve(randomUUID())).rejects.toThrow(InternalServerError);
    expect(server.requests).toHaveLength(1);
  });

  test("a per-call maxRetries overrides the client's", async () => {
    const { server, client } = await setup(() => errorReply(503, "unavailable"));
    await expect(client.wallets.retrieve(randomUUID(), { maxRetries: 4 })).rejects.toThrow(
      InternalServerError,
    );
    expect(server.requests).toHaveLength(5);
  });

  test("does not retry a 4xx other than 408 and 429", async () => {
    const { server, client } = await setup(() => errorReply(404, "not_found"));
    await expect(client.wallets.retrieve(randomUUID())).rejects.toThrow(NotFoundError);
    expect(server.requests).toHaveLength(1);
  });

  test("retries a create carrying a requestId and sends the same requestId and body on every attempt", async () => {
    const { server, client } = await setup((_r, i) =>
      i === 0 ? "drop" : i === 1 ? errorReply(503, "unavailable") : { status: 201, body: walletJson() },
    );
    const body = createWalletBody();
    await client.wallets.create(body);
    expect(server.requests).toHaveLength(3);
    for (const seen of server.requests) {
      expect(seen.method).toBe("POST");
      expect((seen.json as { requestId: string }).requestId).toBe(body.requestId);
      expect(seen.body).toBe(server.requests[0]?.body);
    }
  });

  test("never retries a mutation without a requestId (webhook creation POST)", async () => {
    const { server, client } = await setup(() => errorReply(503, "unavailable"));
    await expect(
      client.webhookRegistrations.create({
        url: "https://example.com/h",
        eventTypes: ["portfolio_wallet.balance.updated"],
      }),
    ).rejects.toThrow(InternalServerError);
    expect(server.requests).toHaveLength(1);
  });

  test("retries POSTs that only read (yield metrics after a 503, a quote after a dropped connection)", async () => {
    const yieldMetrics = {
      period: { start: "2025-12-01T00:00:00Z", end: "2026-01-01T00:00:00Z" },
      global: { generated: 0, withdrawn: 0, accruedDelta: 0 },
      portfolioWallets: {},
    };
    const { server, client } = await setup((request, i) => {
      if (i === 0) return errorReply(503, "unavailable");
      if (i === 2) return "drop";
      return request.url.endsWith("/yield") ? { status: 200, body: yieldMetrics } : { status: 200, body: [] };
    });
    await client.yieldMetrics.retrieve({});
    await client.quotes.create({ minApyTargetBps: 400 });
    expect(server.requests.map((r) => r.url)).toEqual([
      "/v2/portfolio-wallets/yield",
      "/v2/portfolio-wallets/yield",
      "/v2/portfolio-wallets/quote",
      "/v2/portfolio-wallets/quote",
    ]);
  });

  test("never retries a webhook status PATCH (no requestId) or a DELETE", async () => {
    const { server, client } = await setup(() => errorReply(502, "unavailable"));
    await expect(client.webhookRegistrations.updateStatus("wh_1", { status: "disabled" })).rejects.toThrow(
      InternalServerError,
    );
    await expect(client.webhookRegistrations.delete("wh_1")).rejects.toThrow(InternalServerError);
    expect(server.requests.map((r) => r.method)).toEqual(["PATCH", "DELETE"]);
  });

  test("retries a quote that carries a requestId", async () => {
    const { server, client } = await setup((_r, i) =>
      i === 0 ? errorReply(503, "unavailable") : { status: 200, body: [] },
    );
    await client.quotes.create({ requestId: randomUUID() });
    expect(server.requests).toHaveLength(2);
  });
});

describe("Retry-After", () => {
  test("waits the delta-seconds the service asks for", async () => {
    const { server, client } = await setup((_r, i) =>
      i === 0
        ? errorReply(429, "rate_limited", "slow down", { headers: { "retry-after": "1" } })
        : { status: 200, body: walletJson() },
    );
    const started = performance.now();
    await client.wallets.retrieve(randomUUID());
    expect(performance.now() - started).toBeGreaterThanOrEqual(950);
    expect(server.requests).toHaveLength(2);
  });

  test("waits until an HTTP date", async () => {
    // HTTP dates have whole seconds, so aim at a whole second 1 to 2 s ahead.
    const at = Math.ceil(Date.now() / 1000) * 1000 + 1000;
    const { server, client } = await setup((_r, i) =>
      i === 0
        ? errorReply(503, "unavailable", "later", { headers: { "retry-after": new Date(at).toUTCString() } })
        : { status: 200, body: walletJson() },
    );
    await client.wallets.retrieve(randomUUID());
    expect(server.requests).toHaveLength(2);
    // Timers never fire early; allow a few ms for clock rounding.
    expect(Date.now()).toBeGreaterThanOrEqual(at - 5);
  });

  test("caps a long Retry-After at maxRetryAfterMs", async () => {
    // The wait the client chose, not the time the call took: that depends on the machine's load.
    const notices: RetryNotice[] = [];
    const { server, client } = await setup(
      (_r, i) =>
        i === 0
          ? errorReply(429, "rate_limited", "wait", { headers: { "retry-after": "3600" } })
          : { status: 200, body: walletJson() },
      { maxRetryAfterMs: 50, onRetry: (notice) => notices.push(notice) },
    );
    await client.wallets.retrieve(randomUUID());
    expect(notices.map(({ delayMs, serviceAskedForDelay }) => ({ delayMs, serviceAskedForDelay }))).toEqual([
      { delayMs: 50, serviceAskedForDelay: true },
    ]);
    expect(server.requests).toHaveLength(2);
  });

  test("exposes Retry-After on the RateLimitError when retries run out", async () => {
    const { client } = await setup(() =>
      errorReply(429, "rate_limited", "wait", { headers: { "retry-after": "0" } }),
    );
    const error = await client.wallets.retrieve(randomUUID()).catch((e: unknown) => e);
    expect(RateLimitError.isInstance(error)).toBe(true);
    expect((error as RateLimitError).headers["retry-after"]).toBe("0");
  });
});

describe("timeouts", () => {
  test("times out each attempt and retries a GET, then throws ApiTimeoutError without a status", async () => {
    const { server, client } = await setup(() => "hang", { timeoutMs: 50, maxRetries: 1 });
    const error = await client.wallets.retrieve(randomUUID()).catch((e: unknown) => e);
    expect(ApiTimeoutError.isInstance(error)).toBe(true);
    expect(error).not.toHaveProperty("status");
    expect((error as Error).message).toMatch(/within 50 ms/);
    expect(server.requests).toHaveLength(2);
  });

  test("a slow answer within the timeout succeeds", async () => {
    const { client } = await setup(() => ({ status: 200, body: walletJson(), delayMs: 50 }), {
      timeoutMs: 1_000,
    });
    await expect(client.wallets.retrieve(randomUUID())).resolves.toMatchObject({ status: "active" });
  });

  test("a per-call timeoutMs overrides the client's", async () => {
    const { client } = await setup(() => ({ status: 200, body: walletJson(), delayMs: 300 }), {
      timeoutMs: 5_000,
      maxRetries: 0,
    });
    await expect(client.wallets.retrieve(randomUUID(), { timeoutMs: 30 })).rejects.toThrow(ApiTimeoutError);
  });
});

describe("withRetries backoff", () => {
  const policy = (random: () => number): RetryPolicy => ({
    maxRetries: 4,
    baseDelayMs: 40,
    maxDelayMs: 100,
    maxRetryAfterMs: 1_000,
    random,
    budgetMs: undefined,
    onRetry: undefined,
  });

  /** The waits withRetries schedules between five failing attempts, read from setTimeout. */
  async function scheduledDelays(random: () => number): Promise<number[]> {
    const setTimeoutSpy = vi.spyOn(globalThis, "setTimeout");
    try {
      let attempts = 0;
      await withRetries(
        policy(random),
        { method: "GET", path: "/x", body: undefined, signal: undefined },
        async (n) => {
          attempts = n;
          throw new ApiConnectionError("GET", "/x", new Error("reset"), n);
        },
      ).catch(() => undefined);
      expect(attempts).toBe(5);
      return setTimeoutSpy.mock.calls.map((call) => call[1] ?? 0);
    } finally {
      setTimeoutSpy.mockRestore();
    }
  }

  test("the ceiling doubles per retry up to retryMaxDelayMs, and the wait is random below it", async () => {
    // Ceilings 40, 80, 100 (capped), 100; the wait is random() times the ceiling.
    expect(await scheduledDelays(() => 0.5)).toEqual([20, 40, 50, 50]);
    expect(await scheduledDelays(() => 0.999)).toEqual([39, 79, 99, 99]);
  });

  test("full jitter can wait nothing at all", async () => {
    expect(await scheduledDelays(() => 0)).toEqual([0, 0, 0, 0]);
  });
});

const testPolicy = (): RetryPolicy => ({
  maxRetries: 2,
  budgetMs: undefined,
  baseDelayMs: 1,
  maxDelayMs: 2,
  maxRetryAfterMs: 1_000,
  random: Math.random,
  onRetry: undefined,
});

describe("a retry budget (retryTimeoutMs with maxRetries Infinity, as the provider runs)", () => {
  test("keeps retrying past the default two retries until an answer comes, telling onRetry each time", async () => {
    const notices: RetryNotice[] = [];
    const { server, client } = await setup(failThenWallet(6, errorReply(503, "unavailable", "deploying")), {
      maxRetries: Infinity,
      retryTimeoutMs: 10_000,
      onRetry: (notice) => notices.push(notice),
    });
    await expect(client.wallets.retrieve(randomUUID())).resolves.toMatchObject({ status: "active" });
    expect(server.requests).toHaveLength(7);
    expect(notices.map((n) => n.failedAttempt)).toEqual([1, 2, 3, 4, 5, 6]);
    expect(notices[0]).toMatchObject({
      method: "GET",
      failure: "503 unavailable (deploying)",
      budgetMs: 10_000,
    });
  });

  test("gives up when the budget is spent, with the attempts and time on the error", async () => {
    const { server, client } = await setup(() => errorReply(503, "unavailable"), {
      maxRetries: Infinity,
      retryTimeoutMs: 150,
      retryBaseDelayMs: 20,
      retryMaxDelayMs: 20,
    });
    const started = performance.now();
    const error = await client.wallets.retrieve(randomUUID()).catch((e: unknown) => e);
    expect(InternalServerError.isInstance(error)).toBe(true);
    const history = retryHistoryOf(error);
    expect(history).toMatchObject({ method: "GET", attempts: server.requests.length, repeatable: true });
    // It retried, and gave up only once the budget was spent: how many attempts fit in 150 ms
    // depends on the machine's load, the time they took does not.
    expect(server.requests.length).toBeGreaterThanOrEqual(2);
    expect(history!.elapsedMs).toBeGreaterThanOrEqual(150);
    expect(history!.elapsedMs).toBeLessThanOrEqual(performance.now() - started);
  });

  test("a Retry-After longer than what is left of the budget ends the call at once instead of sleeping to give up", async () => {
    const notices: RetryNotice[] = [];
    const { server, client } = await setup(
      () => errorReply(429, "rate_limited", undefined, { headers: { "retry-after": "30" } }),
      {
        maxRetries: Infinity,
        retryTimeoutMs: 5_000,
        onRetry: (notice) => notices.push(notice),
      },
    );
    const error = await client.wallets.retrieve(randomUUID()).catch((e: unknown) => e);
    expect(RateLimitError.isInstance(error)).toBe(true);
    expect(server.requests).toHaveLength(1);
    // No wait begun (a wait is told to onRetry before it starts), whatever the machine's load.
    expect(notices).toEqual([]);
    expect(retryHistoryOf(error)).toMatchObject({ attempts: 1, budgetMs: 5_000 });
  });

  test("maxRetries Infinity without a retryTimeoutMs is refused: the call could retry forever", () => {
    expect(() => testClient("http://127.0.0.1:1", { maxRetries: Infinity })).toThrow(/needs retryTimeoutMs/);
  });

  test("a mutation without a requestId is still sent once, and its history says it was not repeatable", async () => {
    let attempts = 0;
    const error = await withRetries(
      { ...testPolicy(), maxRetries: Infinity, budgetMs: 5_000 },
      { method: "POST", path: "/x", body: { amountUsd: 1 }, signal: undefined },
      async () => {
        attempts += 1;
        throw new ApiConnectionError("POST", "/x", new Error("reset"), attempts);
      },
    ).catch((e: unknown) => e);
    expect(attempts).toBe(1);
    expect(retryHistoryOf(error)).toMatchObject({ attempts: 1, repeatable: false });
  });
});
