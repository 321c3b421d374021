import type { DatabaseSync } from "node:sqlite";
import {
  TOTAL_WEIGHT_BPS,
  compareLiquidity,
  isInstantlyWithdrawable,
  microsToUsd,
  type DepositAddress,
  type LiquidityProfileEntry,
  type PortfolioWallet,
  type WalletPosition,
  type YieldSource,
} from "../../sdk/nodejs/contract/index.ts";
import { readAccrualHoldingsOfWallets } from "../store/holdingsStore.ts";
import {
  listDepositAddresses,
  listDepositAddressesOfWallets,
  listTargets,
  listTargetsOfWallets,
  type BalanceRecord,
  type DepositAddressRecord,
  type TargetRecord,
  type WalletRecord,
} from "../store/walletStore.ts";
import { livePositionMicros, livePositionMicrosOf, type RateHistories } from "./money/accrual.ts";
import { sumMicros } from "./money/micros.ts";

interface PositionFigures {
  positionKey: string;
  asset: string;
  maxProcessingTime: string;
  targetWeightBps: number;
  valueMicros: bigint;
  rateBps: number;
}

/** Weights are reported to a hundredth of a bp: whole hundredths per 100% of the wallet. */
const HUNDREDTHS_PER_WHOLE = BigInt(TOTAL_WEIGHT_BPS * 100);

/** `part / whole` of the wallet in bps, to the nearest hundredth of a bp (exact integer arithmetic). */
function weightBpsOf(part: bigint, whole: bigint): number {
  if (whole <= 0n) return 0;
  const hundredths = (2n * part * HUNDREDTHS_PER_WHOLE + whole) / (2n * whole);
  return Number(hundredths) / 100;
}

/** A rate in bps to a hundredth of a bp; rates are catalog numbers, not money. */
const hundredthOfBp = (bps: number) => Math.round(bps * 100) / 100;

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
  const valueOf = (key: string) => balances.find((b) => b.positionKey === key)?.valueMicros ?? 0n;
  const figures: PositionFigures[] = targets.map((target) => ({
    positionKey: target.positionKey,
    asset: target.asset,
    maxProcessingTime: target.maxProcessingTime,
    targetWeightBps: target.targetWeightBps,
    valueMicros: valueOf(target.positionKey),
    rateBps: rateOf(target.positionKey),
  }));
  for (const balance of balances) {
    if (balance.valueMicros === 0n || targets.some((t) => t.positionKey === balance.positionKey)) continue;
    const entry = catalog.find((e) => e.positionKey === balance.positionKey);
    figures.push({
      positionKey: balance.positionKey,
      asset: entry?.asset ?? balance.positionKey,
      maxProcessingTime: entry?.maxProcessingTime ?? "PT0H",
      targetWeightBps: 0,
      valueMicros: balance.valueMicros,
      rateBps: rateOf(balance.positionKey),
    });
  }
  return figures;
}

/**
 * Share of the wallet per liquidity limit, fastest first (a limit that does not parse is never
 * liquid, so last; sdk/nodejs/contract/duration.ts). Once the wallet holds money the shares are those of
 * the money; an empty wallet is described by its target weights (see docs/spec-gaps.md).
 */
function liquidityProfile(figures: readonly PositionFigures[], totalMicros: bigint): LiquidityProfileEntry[] {
  const byTime = new Map<string, bigint>();
  for (const f of figures) {
    const share = totalMicros > 0n ? f.valueMicros : BigInt(f.targetWeightBps);
    byTime.set(f.maxProcessingTime, (byTime.get(f.maxProcessingTime) ?? 0n) + share);
  }
  const whole = totalMicros > 0n ? totalMicros : sumMicros(byTime.values());
  return [...byTime.entries()]
    .filter(([, share]) => share > 0n)
    .sort(([a], [b]) => compareLiquidity(a, b))
    .map(([maxProcessingTime, share]) => ({ maxProcessingTime, weightBps: weightBpsOf(share, whole) }));
}

/** Blended rate: the rates weighted by the money held, or by the targets while the wallet is empty. */
function blendedRateBps(figures: readonly PositionFigures[], totalMicros: bigint): number {
  const weighted = figures.reduce(
    (sum, f) =>
      sum +
      (totalMicros > 0n
        ? Number(f.valueMicros) / Number(totalMicros)
        : f.targetWeightBps / TOTAL_WEIGHT_BPS) *
        f.rateBps,
    0,
  );
  return hundredthOfBp(weighted);
}

/**
 * Builds the API view of a wallet (spec 2.1) as of `options.at`: its stored rows, the yield its
 * positions earned since their last settlement (computed, never written: accrual.ts), and the
 * current catalog rates. `options.rates` shares rate histories between the wallets of one request.
 */
export function walletView(
  db: DatabaseSync,
  wallet: WalletRecord,
  catalog: readonly YieldSource[],
  options: WalletViewOptions,
): PortfolioWallet {
  return viewOf(
    wallet,
    {
      targets: listTargets(db, wallet.id),
      positionMicros: livePositionMicros(db, wallet, options.at, options.rates),
      depositAddresses: listDepositAddresses(db, wallet.id),
    },
    catalog,
    options,
  );
}

/**
 * walletView of several wallets of one organization (a page of the list), their rows read in
 * three statements for all of them rather than about six for each.
 */
export function walletViews(
  db: DatabaseSync,
  organizationId: string,
  wallets: readonly WalletRecord[],
  catalog: readonly YieldSource[],
  options: WalletViewOptions,
): PortfolioWallet[] {
  const ids = wallets.map((wallet) => wallet.id);
  const targets = listTargetsOfWallets(db, ids);
  const holdings = readAccrualHoldingsOfWallets(db, ids);
  const depositAddresses = listDepositAddressesOfWallets(db, ids);
  return wallets.map((wallet) => {
    const own = holdings.get(wallet.id);
    return viewOf(
      wallet,
      {
        targets: targets.get(wallet.id) ?? [],
        positionMicros:
          own === undefined
            ? new Map()
            : livePositionMicrosOf(db, organizationId, own, options.at, options.rates),
        depositAddresses: depositAddresses.get(wallet.id) ?? [],
      },
      catalog,
      options,
    );
  });
}

export interface WalletViewOptions {
  includeRequestId: boolean;
  at: string;
  rates?: RateHistories;
}

/** What a wallet's view is made of besides its own row. */
interface WalletRows {
  targets: TargetRecord[];
  /** Position values as of the view's time (money/accrual.ts livePositionMicros). */
  positionMicros: Map<string, bigint>;
  depositAddresses: DepositAddressRecord[];
}

function viewOf(
  wallet: WalletRecord,
  rows: WalletRows,
  catalog: readonly YieldSource[],
  options: WalletViewOptions,
): PortfolioWallet {
  const { targets } = rows;
  const balances = [...rows.positionMicros].map(([positionKey, valueMicros]) => ({
    positionKey,
    valueMicros,
  }));
  const figures = positionFigures(targets, balances, catalog);
  const investedMicros = sumMicros(figures.map((f) => f.valueMicros));
  const positions: WalletPosition[] = figures.map((f) => {
    const weightBps = weightBpsOf(f.valueMicros, investedMicros);
    return {
      positionKey: f.positionKey,
      meta: { asset: f.asset, maxProcessingTime: f.maxProcessingTime },
      targetWeightBps: f.targetWeightBps,
      // 1 unit = 1 USD in the sandbox.
      balanceUnits: microsToUsd(f.valueMicros),
      valueUsd: microsToUsd(f.valueMicros),
      weightBps,
      currentApyBps: f.rateBps,
      driftBps: hundredthOfBp(weightBps - f.targetWeightBps),
    };
  });
  const depositAddresses: Record<string, DepositAddress> = {};
  for (const entry of rows.depositAddresses) {
    depositAddresses[entry.chain] = {
      address: entry.address,
      totalBalanceUsd: microsToUsd(entry.totalReceivedMicros),
      pendingAllocationsUsd: microsToUsd(entry.pendingAllocationsMicros),
    };
  }
  const instantMicros = sumMicros(
    figures.filter((f) => isInstantlyWithdrawable(f.maxProcessingTime)).map((f) => f.valueMicros),
  );
  return {
    id: wallet.id,
    ...(options.includeRequestId ? { requestId: wallet.requestId } : {}),
    label: wallet.label,
    status: wallet.status,
    createdAt: wallet.createdAt,
    updatedAt: wallet.updatedAt,
    totalBalanceUsd: microsToUsd(investedMicros + wallet.pendingAllocationsMicros),
    instantWithdrawableUsd: microsToUsd(instantMicros),
    pendingAllocationsUsd: microsToUsd(wallet.pendingAllocationsMicros),
    depositAddresses,
    blendedRateBps: blendedRateBps(figures, investedMicros),
    strategyConfig: {
      positions: targets.map((t) => ({
        positionKey: t.positionKey,
        targetWeightBps: t.targetWeightBps,
        maxProcessingTime: t.maxProcessingTime,
        asset: t.asset,
      })),
    },
    liquidityProfile: liquidityProfile(figures, investedMicros),
    positions,
  };
}
