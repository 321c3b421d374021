import { randomUUID } from "node:crypto";
import { describe, expect, test } from "vitest";
import { ApiAbortError } from "../../../sdk/nodejs/client/index.ts";
import { walletJson, useMockService } from "./helpers/fixtures.ts";
import { errorReply } from "./helpers/mockServer.ts";

const { setup } = useMockService();

describe("caller AbortSignal", () => {
  test("aborting an in-flight request rejects with ApiAbortError carrying the reason, and is not retried", async () => {
    const controller = new AbortController();
    const reason = new Error("user pressed ctrl-c");
    // Abort once the server holds the request, so the abort hits an in-flight attempt.
    const { server, client } = await setup(
      () => {
        controller.abort(reason);
        return "hang";
      },
      { timeoutMs: 5_000 },
    );
    const error = await client.wallets
      .retrieve(randomUUID(), { signal: controller.signal })
      .catch((e: unknown) => e);
    expect(ApiAbortError.isInstance(error)).toBe(true);
    expect((error as ApiAbortError).cause).toBe(reason);
    expect(server.requests).toHaveLength(1);
  });

  test("an already-aborted signal sends nothing", async () => {
    const { server, client } = await setup(() => ({ status: 200, body: walletJson() }));
    await expect(client.wallets.retrieve(randomUUID(), { signal: AbortSignal.abort() })).rejects.toThrow(
      ApiAbortError,
    );
    expect(server.requests).toHaveLength(0);
  });

  test("aborting during the wait before a retry stops at once", async () => {
    const { server, client } = await setup(
      () => errorReply(503, "unavailable", "later", { headers: { "retry-after": "30" } }),
      {
        maxRetryAfterMs: 30_000,
      },
    );
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 100);
    const started = performance.now();
    await expect(client.wallets.retrieve(randomUUID(), { signal: controller.signal })).rejects.toThrow(
      ApiAbortError,
    );
    // Well before the 30 s wait would have ended: a third of it leaves room for any load.
    expect(performance.now() - started).toBeLessThan(10_000);
    expect(server.requests).toHaveLength(1);
  });

  test("an abort is not mistaken for a timeout", async () => {
    const { client } = await setup(() => "hang", { timeoutMs: 200 });
    const error = await client.wallets
      .retrieve(randomUUID(), { signal: AbortSignal.timeout(20) })
      .catch((e: unknown) => e);
    expect(ApiAbortError.isInstance(error)).toBe(true);
  });
});
