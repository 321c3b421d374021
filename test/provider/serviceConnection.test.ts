// The dynamic-provider process's connection pool: one client and one catalog read per service and
// token, a failed catalog read tried again, and every client closed at the end.
import { describe, expect, test } from "vitest";
import { ServiceConnectionPool } from "../../provider/serviceConnection.ts";
import {
  OTHER_TOKEN,
  baseConfig,
  configSource,
  requestCounts,
  resetRequestCounts,
  useProviderSandbox,
} from "./helpers.ts";

const t = useProviderSandbox();
const CATALOG_READ = "GET /v2/portfolio-wallets/strategies";

describe("ServiceConnectionPool", () => {
  test("one client and one catalog read per service and token, however many calls", async () => {
    const pool = new ServiceConnectionPool();
    try {
      await resetRequestCounts(t);
      const first = pool.for(configSource(baseConfig(t)));
      const second = pool.for(configSource(baseConfig(t)));
      expect(second.client).toBe(first.client);
      const [a, b] = await Promise.all([first.catalog(), second.catalog()]);
      expect(await first.catalog()).toBe(a);
      expect(b).toBe(a);
      expect(a.length).toBeGreaterThan(0);
      expect((await requestCounts(t))[CATALOG_READ]).toBe(1);

      // Another token is another organization: its own client.
      expect(pool.for(configSource(baseConfig(t, OTHER_TOKEN))).client).not.toBe(first.client);
    } finally {
      await pool.closeAll();
    }
  });

  test("a failed catalog read is not kept: the next call reads again", async () => {
    const pool = new ServiceConnectionPool();
    try {
      const fault = await t.api("POST", "/_sandbox/faults", {
        body: {
          method: "GET",
          path: "/v2/portfolio-wallets/strategies",
          kind: "status",
          status: 503,
          times: 1,
        },
      });
      expect(fault.status, JSON.stringify(fault.body)).toBe(201);
      // With no retry budget the one attempt meets the 503.
      const connection = pool.for(
        configSource({ ...baseConfig(t), "portfolio-wallet:retryTimeoutSeconds": "0" }),
      );
      await expect(connection.catalog()).rejects.toThrow(/503/);
      await expect(connection.catalog()).resolves.not.toHaveLength(0);
    } finally {
      await pool.closeAll();
    }
  });

  test("closeAll closes every client: a closed one refuses requests, and the pool makes a new one", async () => {
    const pool = new ServiceConnectionPool();
    const before = pool.for(configSource(baseConfig(t)));
    await pool.closeAll();
    await expect(before.client.catalog.listStrategies()).rejects.toThrow(/closed/);
    const after = pool.for(configSource(baseConfig(t)));
    try {
      expect(after.client).not.toBe(before.client);
      await expect(after.catalog()).resolves.not.toHaveLength(0);
    } finally {
      await pool.closeAll();
    }
  });
});
