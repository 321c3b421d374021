import { describe, expect, test } from "vitest";
import type { PortfolioWallet } from "../../sdk/nodejs/contract/wallet.ts";
import { holdingOf } from "../../provider/earlierWallet.ts";
import type { ServiceConnection } from "../../provider/serviceConnection.ts";

/**
 * The rule for taking over a resource's earlier wallet (provider/earlierWallet.ts), on the
 * service's own figures: empty means no balance, nothing pending on any chain, and no withdrawal
 * under way. The take-over and the refusal themselves go through the sandbox in
 * portfolioWallet.test.ts and through the engine in test/consumer/recreateAfterDestroy.engine.test.ts.
 */

const WALLET_ID = "0b3f5c1e-1d2a-4c7e-9f10-5a6b7c8d9e01";

function wallet(figures: { total?: number; pending?: number; chainPending?: number } = {}): PortfolioWallet {
  return {
    id: WALLET_ID,
    totalBalanceUsd: figures.total ?? 0,
    pendingAllocationsUsd: figures.pending ?? 0,
    depositAddresses: {
      ethereum: {
        address: "0xabc",
        totalBalanceUsd: 5_000,
        pendingAllocationsUsd: figures.chainPending ?? 0,
      },
    },
  } as unknown as PortfolioWallet;
}

/** A connection whose only call is the wallet's withdrawals list, answering `statuses`. */
function withWithdrawals(statuses: string[]): ServiceConnection {
  return {
    client: {
      withdrawals: {
        async *list(walletId: string) {
          expect(walletId).toBe(WALLET_ID);
          yield* statuses.map((status, index) => ({ id: `w-${index}`, status }));
        },
      },
    },
  } as unknown as ServiceConnection;
}

describe("holdingOf", () => {
  test("an empty wallet whose withdrawals all ended holds nothing (a chain's lifetime receipts do not count)", async () => {
    expect(await holdingOf(withWithdrawals(["completed", "failed"]), wallet())).toBeUndefined();
  });

  test.each([
    ["a balance", { total: 10 }],
    ["allocations pending", { pending: 10 }],
    ["a deposit pending on a chain", { chainPending: 10 }],
  ])("%s is funds", async (_what, figures) => {
    expect((await holdingOf(withWithdrawals([]), wallet(figures)))?.kind).toBe("funds");
  });

  test("a withdrawal still under way is a holding, named", async () => {
    const holding = await holdingOf(
      withWithdrawals(["completed", "processing", "pending_approval", "partially_completed"]),
      wallet(),
    );
    expect(holding).toEqual({ kind: "withdrawals", ids: ["w-1", "w-2", "w-3"] });
  });
});
