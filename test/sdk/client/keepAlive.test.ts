import { randomUUID } from "node:crypto";
import { afterEach, describe, expect, test } from "vitest";
import { PortfolioWalletError } from "../../../sdk/nodejs/client/index.ts";
import { testClient, walletJson } from "./helpers/fixtures.ts";
import { startMockServer, type MockServer } from "./helpers/mockServer.ts";

let server: MockServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

describe("connection reuse", () => {
  test("sequential calls of one client reuse keep-alive connections", async () => {
    server = await startMockServer(() => ({ status: 200, body: walletJson() }));
    const client = testClient(server.url);
    for (let i = 0; i < 10; i++) await client.wallets.retrieve(randomUUID());
    // undici may open a second connection while the first finishes its bookkeeping after a
    // response, so "reuse" means a couple of connections for ten calls, never one per call.
    expect(server.requests).toHaveLength(10);
    expect(server.connectionCount()).toBeLessThanOrEqual(2);
    await client.close();
  });

  test("two clients do not share a pool", async () => {
    server = await startMockServer(() => ({ status: 200, body: walletJson() }));
    const a = testClient(server.url);
    const b = testClient(server.url);
    await a.wallets.retrieve(randomUUID());
    await b.wallets.retrieve(randomUUID());
    expect(server.connectionCount()).toBe(2);
    await Promise.all([a.close(), b.close()]);
  });

  test("close() refuses further calls and can be called twice", async () => {
    server = await startMockServer(() => ({ status: 200, body: walletJson() }));
    const client = testClient(server.url);
    await client.wallets.retrieve(randomUUID());
    await client.close();
    await client.close();
    const error = await client.wallets.retrieve(randomUUID()).catch((e: unknown) => e);
    expect(PortfolioWalletError.isInstance(error)).toBe(true);
    expect((error as Error).message).toMatch(/closed/);
    expect(server.requests).toHaveLength(1);
  });
});
