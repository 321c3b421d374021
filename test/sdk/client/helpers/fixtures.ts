import { randomUUID } from "node:crypto";
import { afterEach } from "vitest";
import {
  PortfolioWalletClient,
  type PortfolioWalletClientOptions,
} from "../../../../sdk/nodejs/client/index.ts";
import { startMockServer, type Handler, type MockServer } from "./mockServer.ts";

/** Token used by the tests; asserted never to appear in an error message. */
export const TEST_TOKEN = "test-token-s3cr3t-do-not-leak";

/** A client with tiny retry delays, so retry tests take milliseconds. */
export function testClient(
  baseUrl: string,
  options: PortfolioWalletClientOptions = {},
): PortfolioWalletClient {
  return new PortfolioWalletClient({
    baseUrl,
    apiToken: TEST_TOKEN,
    timeoutMs: 2_000,
    maxRetries: 2,
    retryBaseDelayMs: 5,
    retryMaxDelayMs: 20,
    env: {},
    ...options,
  });
}

/** A wallet as the service answers it, with the given creation time. */
export function walletJson(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  const now = "2026-01-02T03:04:05.000Z";
  return {
    id: randomUUID(),
    requestId: randomUUID(),
    label: "treasury",
    status: "active",
    createdAt: now,
    updatedAt: now,
    totalBalanceUsd: 0,
    instantWithdrawableUsd: 0,
    pendingAllocationsUsd: 0,
    depositAddresses: {
      ethereum: { address: "0xabc", totalBalanceUsd: 0, pendingAllocationsUsd: 0 },
    },
    blendedRateBps: 450,
    strategyConfig: {
      positions: [
        { positionKey: "tbills", targetWeightBps: 10_000, maxProcessingTime: "PT0H", asset: "tbills" },
      ],
    },
    liquidityProfile: [{ maxProcessingTime: "PT0H", weightBps: 10_000 }],
    positions: [],
    ...overrides,
  };
}

/** A body for POST /v2/portfolio-wallets. */
export function createWalletBody(requestId: string = randomUUID()) {
  return { requestId, positions: [{ positionKey: "tbills", targetWeightBps: 10_000 }], label: "treasury" };
}

/**
 * A mock service and a test client per test, both closed after each test (it registers the
 * afterEach). `track` hands anything else a test opens to the same clean-up.
 */
export function useMockService(defaults: PortfolioWalletClientOptions = {}) {
  const opened: { close(): Promise<void> }[] = [];
  afterEach(async () => {
    // Clients before the servers they talk to.
    for (const resource of opened.splice(0).reverse()) await resource.close();
  });
  const track = <T extends { close(): Promise<void> }>(resource: T): T => {
    opened.push(resource);
    return resource;
  };
  return {
    track,
    async setup(
      handler: Handler,
      options: PortfolioWalletClientOptions = {},
    ): Promise<{ server: MockServer; client: PortfolioWalletClient }> {
      const server = track(await startMockServer(handler));
      const client = track(testClient(server.url, { ...defaults, ...options }));
      return { server, client };
    },
  };
}
