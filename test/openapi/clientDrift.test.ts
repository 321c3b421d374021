import { afterAll, beforeAll, expect, test, vi } from "vitest";
import { SERVICE_OPERATIONS, type ApiOperation } from "../../sdk/nodejs/contract/index.ts";
import { PortfolioWalletClient } from "../../sdk/nodejs/client/index.ts";
import { Requester } from "../../sdk/nodejs/client/core/requester.ts";
import { ApiResource } from "../../sdk/nodejs/client/core/resource.ts";
import { startTestSandbox, TOKEN, uuid, walletBody, type TestSandbox } from "../sandbox/helpers.ts";

/**
 * The client sends every call from the contract's operation table (`Requester.send`), so its
 * methods cannot use another method, path or schema than the document shows. What could still be
 * missed is an operation: the first test holds that every operation of the service is sent by some
 * client method, found by walking the client's resources (so a new operation needs no edit here);
 * the second that the client's calls, against a sandbox, are answered as their entries say.
 */
let t: TestSandbox;
beforeAll(async () => {
  t = await startTestSandbox();
});
afterAll(() => t.close());

/** The client's resources (`client.wallets`, ...) and their methods, whatever they are named. */
function resourceMethods(client: PortfolioWalletClient): (() => unknown)[] {
  return Object.values(client)
    .filter((value): value is ApiResource => value instanceof ApiResource)
    .flatMap((resource) => {
      const prototype = Object.getPrototypeOf(resource) as Record<string, unknown>;
      return Object.getOwnPropertyNames(prototype)
        .filter((name) => name !== "constructor" && typeof prototype[name] === "function")
        .map((name) => {
          const method = prototype[name] as (...args: unknown[]) => unknown;
          // Ids where a method takes ids; nothing is sent, so a body or query of any shape will do.
          return () => method.call(resource, uuid(), uuid(), uuid());
        });
    });
}

test("every operation of the service is sent by some client method", async () => {
  const sent = new Set<string>();
  // Records the operation instead of sending it; answers a page, which list methods read.
  const spy = vi.spyOn(Requester.prototype, "send").mockImplementation(async (operation: ApiOperation) => {
    sent.add(operation.operationId);
    return { data: [], pageSize: 0, nextCursor: null } as never;
  });
  const client = new PortfolioWalletClient({ baseUrl: t.url, apiToken: TOKEN, maxRetries: 0, env: {} });
  try {
    const methods = resourceMethods(client);
    expect(methods.length).toBeGreaterThan(0);
    // A list method sends on its first page, when its PagePromise is awaited.
    for (const call of methods) await call();
  } finally {
    spy.mockRestore();
    await client.close();
  }
  expect([...sent].sort()).toEqual(SERVICE_OPERATIONS.map((operation) => operation.operationId).sort());
});

test("the client's calls are answered as their operations' entries say", async () => {
  const attempted = new Set<string>();
  const reached = new Set<string>();
  const original = Requester.prototype.send;
  const spy = vi.spyOn(Requester.prototype, "send").mockImplementation(async function (
    this: Requester,
    operation: ApiOperation,
    call,
  ) {
    attempted.add(operation.operationId);
    // Parsed with the entry's schema for its status: an answer of another shape throws here.
    const answer = await original.call(this, operation, call);
    reached.add(operation.operationId);
    return answer;
  });
  const client = new PortfolioWalletClient({ baseUrl: t.url, apiToken: TOKEN, maxRetries: 0, env: {} });
  try {
    await client.catalog.listStrategies();
    await client.catalog.listYieldSources();
    await client.quotes.create({ minApyTargetBps: 400 });
    const wallet = await client.wallets.create(walletBody());
    await client.wallets.retrieve(wallet.id);
    await client.wallets.list({ pageSize: 5 });
    await client.wallets.updateStrategy(wallet.id, {
      requestId: uuid(),
      positions: [{ positionKey: "tbills", targetWeightBps: 10000 }],
    });
    const deposit = await t.api("POST", "/_sandbox/deposits", {
      body: {
        chain: "ethereum",
        address: wallet.depositAddresses.ethereum?.address,
        amount: 500,
        txHash: "0xdrift",
      },
    });
    await t.api("POST", "/_sandbox/clock/advance", { body: { seconds: 60 } });
    await client.deposits.list(wallet.id, { pageSize: 2 });
    await client.deposits.retrieve(wallet.id, deposit.body.id);
    const withdrawal = await client.withdrawals.create(wallet.id, {
      requestId: uuid(),
      destinationAddress: `0x${"34".repeat(20)}`,
      withdrawalAmount: 10,
      destinationToken: "usdc",
      destinationChain: "ethereum",
    });
    await client.withdrawals.list(wallet.id);
    await client.withdrawals.retrieve(wallet.id, withdrawal.id);
    await client.yieldMetrics.retrieve({ portfolioWalletIds: [wallet.id] });
    const registration = await client.webhookRegistrations.create({
      url: "https://example.com/drift",
      eventTypes: ["portfolio_wallet.balance.updated"],
      description: null,
    });
    await client.webhookRegistrations.retrieve(registration.id);
    await client.webhookRegistrations.list();
    await client.webhookRegistrations.updateStatus(registration.id, {
      status: "disabled",
      disabledReason: "drift test",
    });
    await client.webhookRegistrations.delete(registration.id);
  } finally {
    spy.mockRestore();
    await client.close();
  }

  // Coverage of every operation is the test above's; this one holds that each call made was answered.
  expect(reached.size).toBeGreaterThan(0);
  expect([...reached].sort()).toEqual([...attempted].sort());
});
