import type { DatabaseSync } from "node:sqlite";
import type {
  DepositAddress,
  LiquidityProfileEntry,
  PortfolioWallet,
  WalletPosition,
  YieldSource,
} from "../../sdk/contract/index.ts";
import { TOTAL_WEIGHT_BPS } from "../../sdk/contract/index.ts";
import {
  listBalances,
  listDepositAddresses,
  listTargets,
  type BalanceRecord,
  type TargetRecord,
  type WalletRecord,
} from "../store/walletStore.ts";
import { parseIsoDurationSeconds } from "./quoteEngine.ts";

const speedOf = (duration: string) => parseIsoDurationSeconds(duration) ?? Number.POSITIVE_INFINITY;
const isInstant = (duration: string) => speedOf(duration) === 0;

/** Money is reported to the cent's hundredth; weights to a hundredth of a bp. Avoids 0.30000000000000004. */
const round = (value: number, places: number) => Math.round(value * 10 ** places) / 10 ** places;

interface PositionFigures {
  positionKey: string;
  asset: string;
  maxProcessingTime: string;
  targetWeightBps: number;
  balanceUnits: number;
  valueUsd: number;
  rateBps: number;
}

/**
 * Positions = every target, plus any position still holding money that is no longer targeted
 * (target 0), so no balance is ever hidden.
 */
function positionFigures(
  targets: readonly TargetRecord[],
  balances: readonly BalanceRecord[],
  catalog: readonly YieldSource[],
): PositionFigures[] {
  const rateOf = (key: string) => catalog.find((entry) => entry.positionKey === key)?.currentRateBps ?? 0;
  const balanceOf = (key: string) => balances.find((b) => b.positionKey === key);
  const figures: PositionFigures[] = targets.map((target) => ({
    positionKey: target.positionKey,
    asset: target.asset,
    maxProcessingTime: target.maxProcessingTime,
    targetWeightBps: target.targetWeightBps,
    balanceUnits: balanceOf(target.positionKey)?.balanceUnits ?? 0,
    valueUsd: balanceOf(target.positionKey)?.valueUsd ?? 0,
    rateBps: rateOf(target.positionKey),
  }));
  for (const balance of balances) {
    if (balance.valueUsd === 0 || targets.some((t) => t.positionKey === balance.positionKey)) continue;
    const entry = catalog.find((e) => e.positionKey === balance.positionKey);
    figures.push({
      positionKey: balance.positionKey,
      asset: entry?.asset ?? balance.positionKey,
      maxProcessingTime: entry?.maxProcessingTime ?? "PT0H",
      targetWeightBps: 0,
      balanceUnits: balance.balanceUnits,
      valueUsd: balance.valueUsd,
      rateBps: rateOf(balance.positionKey),
    });
  }
  return figures;
}

/**
 * The weights that describe the wallet: actual weights once it holds money; for an empty wallet
 * the target weights, so blendedRateBps and liquidityProfile say what the wallet will earn and
 * how liquid it will be (see docs/spec-gaps.md).
 */
function describingWeights(figures: readonly PositionFigures[], totalUsd: number): number[] {
  return figures.map((f) => (totalUsd > 0 ? (f.valueUsd / totalUsd) * TOTAL_WEIGHT_BPS : f.targetWeightBps));
}

/** Share of the wallet per liquidity limit, fastest first; entries sum to 10000. */
function liquidityProfile(
  figures: readonly PositionFigures[],
  weights: readonly number[],
): LiquidityProfileEntry[] {
  const byTime = new Map<string, number>();
  figures.forEach((f, i) =>
    byTime.set(f.maxProcessingTime, (byTime.get(f.maxProcessingTime) ?? 0) + (weights[i] ?? 0)),
  );
  return [...byTime.entries()]
    .filter(([, weightBps]) => weightBps > 0)
    .sort(([a], [b]) => speedOf(a) - speedOf(b))
    .map(([maxProcessingTime, weightBps]) => ({ maxProcessingTime, weightBps: round(weightBps, 2) }));
}

/** Builds the API view of a wallet (spec 2.1) from its stored rows and the current catalog rates. */
export function walletView(
  db: DatabaseSync,
  wallet: WalletRecord,
  catalog: readonly YieldSource[],
  options: { includeRequestId: boolean },
): PortfolioWallet {
  const targets = listTargets(db, wallet.id);
  const figures = positionFigures(targets, listBalances(db, wallet.id), catalog);
  const totalUsd = figures.reduce((sum, f) => sum + f.valueUsd, 0);
  const weights = describingWeights(figures, totalUsd);
  const positions: WalletPosition[] = figures.map((f) => {
    const weightBps = totalUsd > 0 ? round((f.valueUsd / totalUsd) * TOTAL_WEIGHT_BPS, 2) : 0;
    return {
      positionKey: f.positionKey,
      meta: { asset: f.asset, maxProcessingTime: f.maxProcessingTime },
      targetWeightBps: f.targetWeightBps,
      balanceUnits: f.balanceUnits,
      valueUsd: round(f.valueUsd, 6),
      weightBps,
      currentApyBps: f.rateBps,
      driftBps: round(weightBps - f.targetWeightBps, 2),
    };
  });
  const blendedRateBps = round(
    figures.reduce((sum, f, i) => sum + (weights[i] ?? 0) * f.rateBps, 0) / TOTAL_WEIGHT_BPS,
    2,
  );
  const depositAddresses: Record<string, DepositAddress> = {};
  for (const entry of listDepositAddresses(db, wallet.id)) {
    depositAddresses[entry.chain] = {
      address: entry.address,
      totalBalanceUsd: entry.totalBalanceUsd,
      pendingAllocationsUsd: entry.pendingAllocationsUsd,
    };
  }
  return {
    id: wallet.id,
    ...(options.includeRequestId ? { requestId: wallet.requestId } : {}),
    label: wallet.label,
    status: wallet.status,
    createdAt: wallet.createdAt,
    updatedAt: wallet.updatedAt,
    totalBalanceUsd: round(totalUsd + wallet.pendingAllocationsUsd, 6),
    instantWithdrawableUsd: round(
      figures.filter((f) => isInstant(f.maxProcessingTime)).reduce((sum, f) => sum + f.valueUsd, 0),
      6,
    ),
    pendingAllocationsUsd: wallet.pendingAllocationsUsd,
    depositAddresses,
    blendedRateBps,
    strategyConfig: {
      positions: targets.map((t) => ({
        positionKey: t.positionKey,
        targetWeightBps: t.targetWeightBps,
        maxProcessingTime: t.maxProcessingTime,
        asset: t.asset,
      })),
    },
    liquidityProfile: liquidityProfile(figures, weights),
    positions,
  };
}
