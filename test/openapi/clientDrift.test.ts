import { afterAll, beforeAll, expect, test, vi } from "vitest";
import { SERVICE_OPERATIONS, type ApiOperation } from "../../sdk/nodejs/contract/index.ts";
import { PortfolioWalletClient } from "../../sdk/nodejs/client/index.ts";
import { Requester } from "../../sdk/nodejs/client/core/requester.ts";
import { startTestSandbox, TOKEN, uuid, walletBody, type TestSandbox } from "../sandbox/helpers.ts";

/**
 * The client sends every call from the contract's operation table (`Requester.send`), so its
 * methods cannot use another method, path or schema than the document shows. What could still be
 * missed is an operation: this holds that every operation of the service is reached by some client
 * method, and that each call answered as its entry says.
 */
let t: TestSandbox;
beforeAll(async () => {
  t = await startTestSandbox();
});
afterAll(() => t.close());

test("every operation of the service is reached by a client method", async () => {
  const reached = new Set<string>();
  const original = Requester.prototype.send;
  const spy = vi.spyOn(Requester.prototype, "send").mockImplementation(async function (
    this: Requester,
    operation: ApiOperation,
    call,
  ) {
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

  expect([...reached].sort()).toEqual(SERVICE_OPERATIONS.map((operation) => operation.operationId).sort());
});
