// The service's rate limit, emulated (docs/sandbox.md "Rate limit"): per organization, requests
// per second with a burst, answered 429 with Retry-After, counted, and changeable per organization.
import { afterEach, describe, expect, test } from "vitest";
import { OTHER_TOKEN, startTestSandbox, type TestSandbox } from "../helpers.ts";

const sandboxes: TestSandbox[] = [];
afterEach(async () => {
  for (const t of sandboxes.splice(0)) await t.close();
});
async function sandbox(options: Parameters<typeof startTestSandbox>[0] = {}) {
  const t = await startTestSandbox(options);
  sandboxes.push(t);
  return t;
}

describe("the emulated rate limit", () => {
  test("a burst passes, the next request is 429 with Retry-After, counted, and applies nothing", async () => {
    const t = await sandbox({ rateLimit: { requestsPerSecond: 0.5, burst: 3 } });
    const statuses: number[] = [];
    for (let i = 0; i < 3; i++) statuses.push((await t.api("GET", "/v2/portfolio-wallets")).status);
    expect(statuses).toEqual([200, 200, 200]);
    const refused = await t.api("POST", "/v2/portfolio-wallets", {
      body: {
        requestId: "3f1c2a9e-8b7d-4c1e-9f0a-2b3c4d5e6f70",
        positions: [{ positionKey: "tbills", targetWeightBps: 10000 }],
      },
    });
    expect(refused.status).toBe(429);
    expect(refused.body.error.code).toBe("rate_limited");
    expect(refused.body.error.message).toMatch(/0.5 requests per second \(bursts of 3\)/);
    expect(Number(refused.headers.get("retry-after"))).toBe(2);
    // Another organization has a bucket of its own; admin calls are never limited.
    expect((await t.api("GET", "/v2/portfolio-wallets", { token: OTHER_TOKEN })).status).toBe(200);
    const counts = await t.api("GET", "/_sandbox/request-counts");
    expect(counts.body.counts["POST /v2/portfolio-wallets"]).toBe(1);
    expect(counts.body.rateLimited).toBe(1);
    expect((await t.api("GET", "/_sandbox/rate-limit")).body).toEqual({ requestsPerSecond: 0.5, burst: 3 });
    // The refused creation created nothing.
    await t.api("PUT", "/_sandbox/rate-limit", { body: { requestsPerSecond: null } });
    expect((await t.api("GET", "/v2/portfolio-wallets")).body.data).toEqual([]);
  });

  test("requests per second stay within the limit under a steady hammering", async () => {
    const t = await sandbox();
    expect(
      (await t.api("PUT", "/_sandbox/rate-limit", { body: { requestsPerSecond: 20, burst: 5 } })).body,
    ).toEqual({
      requestsPerSecond: 20,
      burst: 5,
    });
    const started = Date.now();
    let passed = 0;
    let refused = 0;
    while (Date.now() - started < 1500) {
      const status = (await t.api("GET", "/v2/portfolio-wallets/strategies")).status;
      if (status === 200) passed += 1;
      else if (status === 429) refused += 1;
      else throw new Error(`unexpected ${status}`);
    }
    const seconds = (Date.now() - started) / 1000;
    expect(refused).toBeGreaterThan(0);
    expect(passed).toBeLessThanOrEqual(5 + Math.ceil(20 * seconds));
    expect((await t.api("GET", "/_sandbox/request-counts")).body.rateLimited).toBe(refused);
  });

  test("a limit for one organization leaves the others alone, and bad limits are 400 naming the field", async () => {
    const t = await sandbox();
    await t.api("PUT", "/_sandbox/rate-limit", { body: { requestsPerSecond: 0.01, burst: 1 } });
    expect((await t.api("GET", "/v2/portfolio-wallets")).status).toBe(200);
    expect((await t.api("GET", "/v2/portfolio-wallets")).status).toBe(429);
    expect((await t.api("GET", "/v2/portfolio-wallets", { token: OTHER_TOKEN })).status).toBe(200);
    expect((await t.api("GET", "/_sandbox/rate-limit", { token: OTHER_TOKEN })).body).toEqual({
      requestsPerSecond: null,
    });
    for (const [body, field] of [
      [{ requestsPerSecond: 0 }, "requestsPerSecond"],
      [{ requestsPerSecond: 5, burst: 0.5 }, "burst"],
      [{ requestsPerSecond: null, burst: 2 }, "burst"],
    ] as const) {
      const res = await t.api("PUT", "/_sandbox/rate-limit", { body });
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body.error.details[0].field).toBe(field);
    }
    await expect(startTestSandbox({ rateLimit: { requestsPerSecond: -1 } })).rejects.toThrow(
      /requestsPerSecond must be a number above 0/,
    );
  });
});
