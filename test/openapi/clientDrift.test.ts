import { afterAll, beforeAll, expect, test, vi } from "vitest";
import { SERVICE_OPERATIONS, type ApiOperation } from "../../sdk/nodejs/contract/index.ts";
import type { SERVICE_OPERATIONS_BY_ID } from "../../sdk/nodejs/contract/operations.ts";
import { PortfolioWalletClient } from "../../sdk/nodejs/client/index.ts";
import { Requester } from "../../sdk/nodejs/client/core/requester.ts";
import { startTestSandbox, TOKEN, uuid, walletBody, type TestSandbox } from "../sandbox/helpers.ts";

/**
 * The client sends every call from the contract's operation table (`Requester.send`), so its
 * methods cannot use another method, path or schema than the document shows. What could still be
 * missed is an operation: this holds that every operation of the service is reached by a client
 * method (its call in CALLS reaches that operation and no other), and that each call answered as its
 * entry says.
 */
let t: TestSandbox;
beforeAll(async () => {
  t = await startTestSandbox();
});
afterAll(() => t.close());

type ServiceOperationId = keyof typeof SERVICE_OPERATIONS_BY_ID;
type Wallet = Awaited<ReturnType<PortfolioWalletClient["wallets"]["create"]>>;

/** What the calls share: what earlier calls made, for later calls to read. */
interface Made {
  wallet?: Wallet;
  depositId?: string;
  withdrawalId?: string;
  registrationId?: string;
}

/**
 * One client call per operation of the service, keyed by its operationId, so that a new operation
 * in the table is a compile error here until a client method reaches it. They run in this order:
 * later calls read what earlier ones made.
 */
const CALLS: Record<ServiceOperationId, (client: PortfolioWalletClient, made: Made) => Promise<unknown>> = {
  listStrategies: (client) => client.catalog.listStrategies(),
  listYieldSources: (client) => client.catalog.listYieldSources(),
  quotePortfolioWallet: (client) => client.quotes.create({ minApyTargetBps: 400 }),
  createPortfolioWallet: async (client, made) => (made.wallet = await client.wallets.create(walletBody())),
  getPortfolioWallet: (client, made) => client.wallets.retrieve(made.wallet!.id),
  listPortfolioWallets: (client) => client.wallets.list({ pageSize: 5 }),
  updatePortfolioWalletStrategy: (client, made) =>
    client.wallets.updateStrategy(made.wallet!.id, {
      requestId: uuid(),
      positions: [{ positionKey: "tbills", targetWeightBps: 10000 }],
    }),
  listDeposits: async (client, made) => {
    // A deposit to list and read, made through the sandbox's own controls (the service has no
    // operation that makes one).
    const deposit = await t.api("POST", "/_sandbox/deposits", {
      body: {
        chain: "ethereum",
        address: made.wallet!.depositAddresses.ethereum?.address,
        amount: 500,
        txHash: "0xdrift",
      },
    });
    await t.api("POST", "/_sandbox/clock/advance", { body: { seconds: 60 } });
    made.depositId = deposit.body.id;
    return client.deposits.list(made.wallet!.id, { pageSize: 2 });
  },
  getDeposit: (client, made) => client.deposits.retrieve(made.wallet!.id, made.depositId!),
  withdrawFromPortfolioWallet: async (client, made) => {
    const withdrawal = await client.withdrawals.create(made.wallet!.id, {
      requestId: uuid(),
      destinationAddress: `0x${"34".repeat(20)}`,
      withdrawalAmount: 10,
      destinationToken: "usdc",
      destinationChain: "ethereum",
    });
    made.withdrawalId = withdrawal.id;
  },
  listWithdrawals: (client, made) => client.withdrawals.list(made.wallet!.id),
  getWithdrawal: (client, made) => client.withdrawals.retrieve(made.wallet!.id, made.withdrawalId!),
  getYieldMetrics: (client, made) => client.yieldMetrics.retrieve({ portfolioWalletIds: [made.wallet!.id] }),
  createWebhookRegistration: async (client, made) => {
    const registration = await client.webhookRegistrations.create({
      url: "https://example.com/drift",
      eventTypes: ["portfolio_wallet.balance.updated"],
      description: null,
    });
    made.registrationId = registration.id;
  },
  getWebhookRegistration: (client, made) => client.webhookRegistrations.retrieve(made.registrationId!),
  listWebhookRegistrations: (client) => client.webhookRegistrations.list(),
  updateWebhookRegistrationStatus: (client, made) =>
    client.webhookRegistrations.updateStatus(made.registrationId!, {
      status: "disabled",
      disabledReason: "drift test",
    }),
  deleteWebhookRegistration: (client, made) => client.webhookRegistrations.delete(made.registrationId!),
};

test("every operation of the service is reached by its client call", async () => {
  let reached: string[] = [];
  const original = Requester.prototype.send;
  const spy = vi.spyOn(Requester.prototype, "send").mockImplementation(async function (
    this: Requester,
    operation: ApiOperation,
    call,
  ) {
    const answer = await original.call(this, operation, call);
    reached.push(operation.operationId);
    return answer;
  });
  const client = new PortfolioWalletClient({ baseUrl: t.url, apiToken: TOKEN, maxRetries: 0, env: {} });
  const made: Made = {};
  try {
    for (const [operationId, call] of Object.entries(CALLS)) {
      reached = [];
      await call(client, made);
      expect(reached, operationId).toEqual([operationId]);
    }
  } finally {
    spy.mockRestore();
    await client.close();
  }
  expect(Object.keys(CALLS).sort()).toEqual(
    SERVICE_OPERATIONS.map((operation) => operation.operationId).sort(),
  );
});
