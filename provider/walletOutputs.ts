import { canonicalAllocation } from "../sdk/contract/allocation.ts";
import type {
  DepositAddress,
  LiquidityProfileEntry,
  PortfolioWallet,
  StrategyConfig,
  WalletPosition,
} from "../sdk/contract/wallet.ts";
import type { TargetPosition } from "./inputs.ts";

/**
 * What a wallet looks like at the service, as resource outputs (spec 2.1). Balances, actual
 * weights, drift and rates move on their own; they are outputs only and never take part in a diff.
 */
export interface LiveWalletOutputs {
  walletId: string;
  status: string;
  createdAt: string;
  updatedAt: string;
  totalBalanceUsd: number;
  instantWithdrawableUsd: number;
  pendingAllocationsUsd: number;
  /** Every chain the service offers, including chains added after this provider was written. */
  depositAddresses: Record<string, DepositAddress>;
  /** The same addresses as plain strings, `{ ethereum: "0x…", solana: "…" }`, for feeding other stacks. */
  depositAddressByChain: Record<string, string>;
  blendedRateBps: number;
  liquidityProfile: LiquidityProfileEntry[];
  /** The allocation the service applies now (spec 2.3). */
  strategyConfig: StrategyConfig;
  /** Current positions with balances, actual weights and drift (spec 2.4). */
  currentPositions: WalletPosition[];
}

export function liveWalletOutputs(wallet: PortfolioWallet): LiveWalletOutputs {
  return {
    walletId: wallet.id,
    status: wallet.status,
    createdAt: wallet.createdAt,
    updatedAt: wallet.updatedAt,
    totalBalanceUsd: wallet.totalBalanceUsd,
    instantWithdrawableUsd: wallet.instantWithdrawableUsd,
    pendingAllocationsUsd: wallet.pendingAllocationsUsd,
    depositAddresses: wallet.depositAddresses,
    depositAddressByChain: Object.fromEntries(
      Object.entries(wallet.depositAddresses).map(([chain, entry]) => [chain, entry.address]),
    ),
    blendedRateBps: wallet.blendedRateBps,
    liquidityProfile: wallet.liquidityProfile,
    strategyConfig: wallet.strategyConfig,
    currentPositions: wallet.positions,
  };
}

/** The target allocation the service applies now, in the canonical form inputs are kept in. */
export function appliedTarget(wallet: PortfolioWallet): TargetPosition[] {
  return canonicalAllocation(wallet.strategyConfig.positions);
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
