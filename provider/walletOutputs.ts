import { TargetAllocation } from "../sdk/nodejs/contract/allocation.ts";
import type { PortfolioWallet } from "../sdk/nodejs/contract/wallet.ts";
import type { portfolioWalletDescriptor } from "../sdk/nodejs/resources/portfolioWalletDescriptor.ts";
import type { ResourceOutputs } from "../sdk/nodejs/resources/resourceDescriptor.ts";

/**
 * What a wallet's resource keeps of the wallet (spec 2.1) as outputs. State is kept lean: one
 * shape per fact, and nothing that moves on its own. Balances, positions with drift, the liquidity
 * profile (it follows the actual weights) and per-chain balances change without any change to the
 * stack: read them live with `getWallet()` or `portfolio-wallet wallets show`, not from a snapshot
 * in state. The blended rate moves too, but it is what other stacks and reviewers ask for.
 */
export type LiveWalletOutputs = Pick<
  ResourceOutputs<typeof portfolioWalletDescriptor>,
  "walletId" | "status" | "depositAddressByChain" | "blendedRateBps"
>;

export function liveWalletOutputs(wallet: PortfolioWallet): LiveWalletOutputs {
  return {
    walletId: wallet.id,
    status: wallet.status,
    depositAddressByChain: Object.fromEntries(
      Object.entries(wallet.depositAddresses).map(([chain, entry]) => [chain, entry.address]),
    ),
    blendedRateBps: wallet.blendedRateBps,
  };
}

/** The target allocation the service applies now, in the canonical form inputs are kept in. */
export function appliedTarget(wallet: PortfolioWallet): TargetAllocation {
  return TargetAllocation.ofPositions(wallet.strategyConfig.positions);
}

/**
 * Whether a wallet holds any money: its balance, allocations not yet made to positions, or
 * deposits still pending on a chain. Dropping such a wallet from a stack must be explicit.
 */
export function holdsFunds(wallet: PortfolioWallet): boolean {
  return (
    wallet.totalBalanceUsd > 0 ||
    wallet.pendingAllocationsUsd > 0 ||
    Object.values(wallet.depositAddresses).some((entry) => entry.pendingAllocationsUsd > 0)
  );
}
