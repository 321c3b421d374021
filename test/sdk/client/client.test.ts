import { randomUUID } from "node:crypto";
import { describe, expect, test } from "vitest";
import {
  InvalidResponseError,
  PortfolioWalletClient,
  PortfolioWalletError,
  type Transport,
  type TransportRequest,
} from "../../../sdk/nodejs/client/index.ts";
import { TEST_TOKEN, testClient, walletJson, useMockService } from "./helpers/fixtures.ts";
import { startMockServer } from "./helpers/mockServer.ts";

const { setup, track } = useMockService();

describe("PortfolioWalletClient options", () => {
  test("reads baseUrl and apiToken from the environment when not given", async () => {
    const server = track(await startMockServer(() => ({ status: 200, body: walletJson() })));
    const client = track(
      new PortfolioWalletClient({
        env: { PORTFOLIO_WALLET_BASE_URL: server.url, PORTFOLIO_WALLET_API_TOKEN: "from-env" },
      }),
    );
    await client.wallets.retrieve(randomUUID());
    expect(server.requests[0]?.headers.authorization).toBe("Bearer from-env");
    expect(client.baseUrl).toBe(`${server.url}/`);
  });

  test("explicit options win over the environment", () => {
    const c = new PortfolioWalletClient({
      baseUrl: "https://api.example.com",
      apiToken: "explicit",
      env: { PORTFOLIO_WALLET_BASE_URL: "https://other.example.com", PORTFOLIO_WALLET_API_TOKEN: "env" },
    });
    expect(c.baseUrl).toBe("https://api.example.com/");
    void c.close();
  });

  test("lists every invalid option in one error, without the token", () => {
    let error: unknown;
    try {
      new PortfolioWalletClient({ baseUrl: "ftp://x", timeoutMs: 0, maxRetries: -1, env: {} });
    } catch (e) {
      error = e;
    }
    expect(PortfolioWalletError.isInstance(error)).toBe(true);
    const message = (error as Error).message;
    expect(message).toContain("baseUrl");
    expect(message).toContain("apiToken is missing: pass it or set PORTFOLIO_WALLET_API_TOKEN");
    expect(message).toContain("timeoutMs");
    expect(message).toContain("maxRetries");
  });

  test("keeps a path prefix of the base URL", async () => {
    const server = track(await startMockServer(() => ({ status: 200, body: walletJson() })));
    const client = track(testClient(`${server.url}/api/`));
    const id = randomUUID();
    await client.wallets.retrieve(id);
    expect(server.requests[0]?.url).toBe(`/api/v2/portfolio-wallets/${id}`);
  });

  test("does not expose the token through enumeration or JSON", () => {
    const c = new PortfolioWalletClient({
      baseUrl: "https://api.example.com",
      apiToken: TEST_TOKEN,
      env: {},
    });
    expect(JSON.stringify(c)).not.toContain(TEST_TOKEN);
    void c.close();
  });
});

describe("requests", () => {
  test("send JSON with content-type only when there is a body", async () => {
    const { server, client } = await setup((r) => ({
      status: r.method === "POST" ? 201 : 200,
      body: walletJson(),
    }));
    await client.wallets.retrieve(randomUUID());
    await client.wallets.create({
      requestId: randomUUID(),
      positions: [{ positionKey: "tbills", targetWeightBps: 10_000 }],
    });
    expect(server.requests[0]?.headers["content-type"]).toBeUndefined();
    expect(server.requests[1]?.headers["content-type"]).toBe("application/json");
    expect(server.requests[1]?.headers.accept).toBe("application/json");
  });

  test("encode ids so they cannot add path segments, and refuse empty ids", async () => {
    const { server, client } = await setup(() => ({ status: 200, body: walletJson() }));
    await client.wallets.retrieve("a/../b");
    expect(server.requests[0]?.url).toBe("/v2/portfolio-wallets/a%2F..%2Fb");
    await expect(client.wallets.retrieve("")).rejects.toThrow(/walletId must be a non-empty id/);
    await expect(client.withdrawals.retrieve(randomUUID(), "")).rejects.toThrow(/withdrawalId/);
    expect(server.requests).toHaveLength(1);
  });

  test("hit the spec's method and path for every endpoint", async () => {
    const { server, client } = await setup((r) => ({
      status: r.method === "DELETE" ? 204 : 599,
      body: undefined,
    }));
    const w = randomUUID();
    const x = randomUUID();
    const positions = [{ positionKey: "tbills", targetWeightBps: 10_000 }];
    const withdrawal = {
      requestId: x,
      withdrawalAmount: 10,
      destinationToken: "usdc",
      destinationChain: "ethereum",
      destinationAddress: "0x0000000000000000000000000000000000000001",
    };
    const registration = {
      url: "https://hooks.example.com/a",
      eventTypes: ["portfolio_wallet.balance.updated"],
    };
    const calls: [() => PromiseLike<unknown>, string][] = [
      [() => client.quotes.create({}), "POST /v2/portfolio-wallets/quote"],
      [() => client.catalog.listYieldSources(), "GET /v2/portfolio-wallets/yield-sources"],
      [() => client.catalog.listStrategies(), "GET /v2/portfolio-wallets/strategies"],
      [() => client.wallets.create({ requestId: x, positions }), "POST /v2/portfolio-wallets"],
      [() => client.wallets.list(), "GET /v2/portfolio-wallets"],
      [() => client.wallets.retrieve(w), `GET /v2/portfolio-wallets/${w}`],
      [
        () => client.wallets.updateStrategy(w, { requestId: x, positions }),
        `PATCH /v2/portfolio-wallets/${w}/strategy`,
      ],
      [() => client.withdrawals.create(w, withdrawal), `POST /v2/portfolio-wallets/${w}/withdraw`],
      [() => client.withdrawals.list(w), `GET /v2/portfolio-wallets/${w}/withdrawals`],
      [() => client.withdrawals.retrieve(w, x), `GET /v2/portfolio-wallets/${w}/withdrawals/${x}`],
      [() => client.deposits.list(w), `GET /v2/portfolio-wallets/${w}/deposits`],
      [() => client.deposits.retrieve(w, x), `GET /v2/portfolio-wallets/${w}/deposits/${x}`],
      [() => client.yieldMetrics.retrieve(), "POST /v2/portfolio-wallets/yield"],
      [() => client.webhookRegistrations.create(registration as never), "POST /webhooks/registrations"],
      [() => client.webhookRegistrations.list(), "GET /webhooks/registrations"],
      [() => client.webhookRegistrations.retrieve(x), `GET /webhooks/registrations/${x}`],
      [
        () => client.webhookRegistrations.updateStatus(x, { status: "active" }),
        `PATCH /webhooks/registrations/${x}/status`,
      ],
      [() => client.webhookRegistrations.delete(x), `DELETE /webhooks/registrations/${x}`],
    ];
    for (const [call, expected] of calls) {
      server.requests.length = 0;
      await Promise.resolve(call()).catch(() => undefined);
      expect(`${server.requests[0]?.method} ${server.requests[0]?.url}`).toBe(expected);
    }
  });
});

describe("response parsing", () => {
  test("keeps unknown fields, chains and statuses", async () => {
    const { client } = await setup(() => ({
      status: 200,
      body: walletJson({
        status: "frozen",
        futureField: { nested: true },
        depositAddresses: {
          zksync: { address: "0xzk", totalBalanceUsd: 1, pendingAllocationsUsd: 0, memo: "m" },
        },
      }),
    }));
    const wallet = await client.wallets.retrieve(randomUUID());
    expect(wallet.status).toBe("frozen");
    expect(wallet["futureField"]).toEqual({ nested: true });
    expect(wallet.depositAddresses["zksync"]).toMatchObject({ address: "0xzk", memo: "m" });
  });

  test("a 2xx body that breaks the contract is an InvalidResponseError naming the fields", async () => {
    const { client } = await setup(() => ({
      status: 200,
      body: walletJson({ totalBalanceUsd: "lots" }),
      headers: { "x-request-id": "req_bad" },
    }));
    const error = await client.wallets.retrieve(randomUUID()).catch((e: unknown) => e);
    expect(InvalidResponseError.isInstance(error)).toBe(true);
    expect((error as InvalidResponseError).details.map((d) => d.field)).toContain("totalBalanceUsd");
    expect((error as InvalidResponseError).requestId).toBe("req_bad");
  });

  test("a 2xx body that is not JSON is an InvalidResponseError", async () => {
    const { client } = await setup(() => ({ status: 200 }));
    await expect(client.catalog.listStrategies()).rejects.toThrow(InvalidResponseError);
  });

  test("a 204 deletion resolves to undefined", async () => {
    const { client } = await setup(() => ({ status: 204 }));
    await expect(client.webhookRegistrations.delete("wh_1")).resolves.toBeUndefined();
  });
});

describe("transport seam", () => {
  test("a caller-supplied transport receives the prepared request and is not closed by the client", async () => {
    const seen: TransportRequest[] = [];
    let closed = false;
    const transport: Transport = {
      makeRequest: async (request) => {
        seen.push(request);
        return { status: 200, headers: {}, body: JSON.stringify({ strategies: [] }) };
      },
      close: async () => {
        closed = true;
      },
    };
    const c = new PortfolioWalletClient({
      baseUrl: "https://api.example.com",
      apiToken: "t",
      transport,
      env: {},
    });
    await expect(c.catalog.listStrategies()).resolves.toEqual({ strategies: [] });
    await c.close();
    expect(seen[0]?.url.toString()).toBe("https://api.example.com/v2/portfolio-wallets/strategies");
    expect(seen[0]?.headers.authorization).toBe("Bearer t");
    expect(seen[0]?.signal).toBeInstanceOf(AbortSignal);
    expect(closed).toBe(false);
  });
});
