import { afterAll, beforeAll, expect, test, vi } from "vitest";
import { SERVICE_OPERATIONS, type ApiOperation } from "../../sdk/contract/index.ts";
import { PortfolioWalletClient } from "../../sdk/client/index.ts";
import { Requester, type RequestSpec } from "../../sdk/client/core/requester.ts";
import { startTestSandbox, TOKEN, uuid, walletBody, type TestSandbox } from "../sandbox/helpers.ts";

/**
 * The TypeScript client and the OpenAPI document cannot drift: every call of the client is matched
 * to the document's operation (method and path template), the body it checks before sending is the
 * very schema the document's request body is generated from, and its query parameters are the
 * operation's. Every operation of the service is reached by some client method.
 */
let t: TestSandbox;
beforeAll(async () => {
  t = await startTestSandbox();
});
afterAll(() => t.close());

const templateOf = (operation: ApiOperation) =>
  new RegExp(`^${operation.path.replace(/\{\w+\}/g, "[^/]+")}$`);

test("every client call is a documented operation with the document's request schema", async () => {
  const calls: RequestSpec<unknown>[] = [];
  const original = Requester.prototype.request;
  const spy = vi.spyOn(Requester.prototype, "request").mockImplementation(function (this: Requester, spec) {
    calls.push(spec as RequestSpec<unknown>);
    return original.call(this, spec);
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

  const reached = new Set<string>();
  for (const call of calls) {
    const path = call.path.split("?")[0] ?? "";
    const operation = SERVICE_OPERATIONS.find(
      (candidate) => candidate.method === call.method.toLowerCase() && templateOf(candidate).test(path),
    );
    expect(operation, `${call.method} ${path} is not a documented operation`).toBeDefined();
    if (operation === undefined) continue;
    reached.add(operation.operationId);
    // The body the client checks is the schema the document shows, not a copy that could drift.
    expect(call.requestSchema, operation.operationId).toBe(operation.body?.schema);
    const queryNames = Object.keys(call.query ?? {});
    const documented = Object.keys(operation.query?.shape ?? {});
    expect(
      queryNames.filter((name) => !documented.includes(name)),
      operation.operationId,
    ).toEqual([]);
  }
  expect([...reached].sort()).toEqual(SERVICE_OPERATIONS.map((operation) => operation.operationId).sort());
});
