import { randomUUID } from "node:crypto";
import { PortfolioWalletClient, type PortfolioWalletClientOptions } from "../../../sdk/client/index.ts";

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
