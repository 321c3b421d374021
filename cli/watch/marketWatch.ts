import { weightOf, weightsByKeyOf } from "../../sdk/nodejs/contract/allocation.ts";
import type { StrategyCatalogEntry } from "../../sdk/nodejs/contract/catalog.ts";
import { shareWithdrawableWithin } from "../../sdk/nodejs/contract/duration.ts";
import { splitByWeights, sumMicros, usdToMicros, type Micros } from "../../sdk/nodejs/contract/money.ts";
import { yearlyYieldMicros } from "../../sdk/nodejs/contract/moneyImpact.ts";
import type { PortfolioWallet } from "../../sdk/nodejs/contract/wallet.ts";

/**
 * The market watch: what the market did to a stack's wallets, from the service's own figures, held
 * to the bands a treasury keeps. Never config drift (`drift` is that): nothing here was changed by
 * anyone, and nothing here is put right by `pulumi up`. Pure, so every band is tested without a
 * service. Dollars are exact micros, as the report's.
 */

/** The bands, from stack config (cli/watch/watchSettings.ts); 0 turns a floor off. */
export interface WatchBands {
  /** A position is outside its band when |driftBps| exceeds this. */
  driftBps: number;
  /** Per wallet (resource name) bands that replace `driftBps`. */
  driftBpsByWallet: Record<string, number>;
  /** The least share of a wallet withdrawable at once, bps. */
  instantMinBps: number;
  /** The least USD withdrawable at once, per wallet. */
  instantMinUsd: number;
  /** The least share withdrawable within each processing time, bps. */
  withinMinBps: { within: string; minBps: number }[];
  /** A source's rate is watched when it fell more than this below the rate its allocation was set at. */
  rateDropBps: number;
}

/** A wallet of the stack, as its state records it. */
export interface WatchedWallet {
  name: string;
  kind: string;
  walletId: string;
  /** The catalog's rates when the stack set the allocation; null when not recorded. */
  appliedRatesBps: Record<string, number> | null;
}

export type WatchFinding =
  | {
      kind: "position-off-band";
      positionKey: string;
      driftBps: number;
      bandBps: number;
      targetWeightBps: number;
      weightBps: number;
      /** valueUsd − the invested balance at the target weight: beyond (+) or short of (−) target. */
      offTargetMicros: string;
      message: string;
    }
  | {
      kind: "instant-below-floor";
      instantMicros: string;
      instantBps: number;
      floorBps: number;
      floorMicros: string;
      message: string;
    }
  | {
      kind: "within-below-floor";
      within: string;
      shareBps: number;
      floorBps: number;
      withinMicros: string;
      message: string;
    }
  | {
      kind: "rate-drop";
      positionKey: string;
      appliedRateBps: number;
      currentRateBps: number;
      bandBps: number;
      /** What the drop costs a year at the position's value now. */
      yearlyCostMicros: string;
      message: string;
    };

export interface WalletWatch {
  name: string;
  kind: string;
  walletId: string;
  balanceMicros: string;
  findings: WatchFinding[];
  /** What could not be checked, and why. */
  notes: string[];
}

export interface WatchReport {
  stack: string | null;
  checkedAt: string;
  /** True when any wallet has a finding: the command exits 2. */
  outside: boolean;
  headline: string;
  bands: WatchBands;
  wallets: WalletWatch[];
}

/** A bps figure as people read it (drift may be fractional). */
const bpsText = (bps: number) => (Number.isInteger(bps) ? String(bps) : bps.toFixed(2));

type Dollars = (micros: Micros) => string;

/** The same to a rebalance: a reviewed strategy update, as any allocation change. */
const REBALANCE =
  "To rebalance, change the allocation in a pull request (its report says what moves, in dollars); `portfolio-wallet quote` proposes one.";

function positionFindings(
  wallet: PortfolioWallet,
  bandBps: number,
  balance: Micros,
  dollars: Dollars,
): WatchFinding[] {
  const targets = weightsByKeyOf(wallet.strategyConfig.positions);
  const keys = [...new Set([...wallet.positions.map((p) => p.positionKey), ...Object.keys(targets)])].sort();
  const atTarget = splitByWeights(
    balance,
    keys.map((key) => weightOf(targets, key)),
  );
  return keys.flatMap((key, index): WatchFinding[] => {
    const position = wallet.positions.find((p) => p.positionKey === key);
    const targetWeightBps = weightOf(targets, key);
    const weightBps = position?.weightBps ?? 0;
    const driftBps = position?.driftBps ?? weightBps - targetWeightBps;
    if (Math.abs(driftBps) <= bandBps) return [];
    const offTarget = (position === undefined ? 0n : usdToMicros(position.valueUsd)) - atTarget[index]!;
    const sign = offTarget < 0n ? "−" : "+";
    const magnitude = offTarget < 0n ? -offTarget : offTarget;
    return [
      {
        kind: "position-off-band",
        positionKey: key,
        driftBps,
        bandBps,
        targetWeightBps,
        weightBps,
        offTargetMicros: offTarget.toString(),
        message:
          `${key} holds ${bpsText(weightBps)} bps against its target ${targetWeightBps} (drift ${driftBps > 0 ? "+" : ""}${bpsText(driftBps)} bps, ` +
          `band ±${bandBps}): ${sign}${dollars(magnitude)} off target. ${REBALANCE}`,
      },
    ];
  });
}

function liquidityFindings(
  wallet: PortfolioWallet,
  bands: WatchBands,
  balance: Micros,
  dollars: Dollars,
): WatchFinding[] {
  const findings: WatchFinding[] = [];
  const instant = usdToMicros(wallet.instantWithdrawableUsd);
  const instantBps = balance === 0n ? 0 : Number((instant * 10_000n) / balance);
  const floorMicros = usdToMicros(bands.instantMinUsd);
  const underShare = bands.instantMinBps > 0 && instantBps < bands.instantMinBps;
  const underUsd = floorMicros > 0n && instant < floorMicros;
  if (balance > 0n && (underShare || underUsd)) {
    const floors = [
      ...(bands.instantMinBps > 0 ? [`${bands.instantMinBps} bps`] : []),
      ...(floorMicros > 0n ? [dollars(floorMicros)] : []),
    ].join(" and ");
    findings.push({
      kind: "instant-below-floor",
      instantMicros: instant.toString(),
      instantBps,
      floorBps: bands.instantMinBps,
      floorMicros: floorMicros.toString(),
      message:
        `${dollars(instant)} (${instantBps} bps of ${dollars(balance)}) is withdrawable at once, below the floor of ${floors}. ` +
        `A withdrawal now may wait for slower sources. ${REBALANCE}`,
    });
  }
  for (const floor of bands.withinMinBps) {
    const shareBps = shareWithdrawableWithin(
      wallet.liquidityProfile.map((entry) => ({
        maxProcessingTime: entry.maxProcessingTime,
        weight: entry.weightBps,
      })),
      floor.within,
    );
    if (balance === 0n || shareBps >= floor.minBps) continue;
    const withinMicros = (balance * BigInt(Math.round(shareBps))) / 10_000n;
    findings.push({
      kind: "within-below-floor",
      within: floor.within,
      shareBps,
      floorBps: floor.minBps,
      withinMicros: withinMicros.toString(),
      message: `${bpsText(shareBps)} bps (${dollars(withinMicros)}) is withdrawable within ${floor.within}, below the floor of ${floor.minBps} bps. ${REBALANCE}`,
    });
  }
  return findings;
}

function rateFindings(
  watched: WatchedWallet,
  wallet: PortfolioWallet,
  catalog: readonly StrategyCatalogEntry[],
  bandBps: number,
  dollars: Dollars,
): WatchFinding[] {
  if (watched.appliedRatesBps === null) return [];
  return Object.keys(watched.appliedRatesBps)
    .sort()
    .flatMap((key): WatchFinding[] => {
      const applied = watched.appliedRatesBps![key]!;
      const current = catalog.find((entry) => entry.positionKey === key)?.currentRateBps;
      if (current === undefined || applied - current <= bandBps) return [];
      const position = wallet.positions.find((p) => p.positionKey === key);
      const cost = yearlyYieldMicros(
        position === undefined ? 0n : usdToMicros(position.valueUsd),
        applied - current,
      );
      return [
        {
          kind: "rate-drop",
          positionKey: key,
          appliedRateBps: applied,
          currentRateBps: current,
          bandBps,
          yearlyCostMicros: cost.toString(),
          message:
            `${key} pays ${bpsText(current)} bps, ${bpsText(applied - current)} below the ${bpsText(applied)} it paid when the allocation was set ` +
            `(band ${bandBps}): ${dollars(cost)} less a year on its ${dollars(position === undefined ? 0n : usdToMicros(position.valueUsd))}, at today's rates. ` +
            "`portfolio-wallet quote` shows what the catalog offers now; a new allocation goes through a pull request.",
        },
      ];
    });
}

/** Watches each wallet of the stack against its service answer (undefined: the service has none). */
export function watchWallets(params: {
  stack: string | null;
  checkedAt: string;
  bands: WatchBands;
  wallets: readonly WatchedWallet[];
  answers: ReadonlyMap<string, PortfolioWallet>;
  catalog: readonly StrategyCatalogEntry[];
  dollars: Dollars;
}): WatchReport {
  const { bands, dollars } = params;
  const wallets = params.wallets.map((watched): WalletWatch => {
    const wallet = params.answers.get(watched.walletId);
    if (wallet === undefined)
      return {
        ...watched,
        balanceMicros: "0",
        findings: [],
        notes: ["the service has no such wallet for this token: `portfolio-wallet drift` says what to do"],
      };
    const balance = sumMicros(wallet.positions.map((p) => usdToMicros(p.valueUsd)));
    const band = bands.driftBpsByWallet[watched.name] ?? bands.driftBps;
    const notes =
      watched.appliedRatesBps === null
        ? [
            "no rates recorded for its allocation (set before this package recorded them, or changed outside the stack): the rate check starts at its next reviewed update",
          ]
        : [];
    return {
      name: watched.name,
      kind: watched.kind,
      walletId: watched.walletId,
      balanceMicros: balance.toString(),
      findings: [
        ...positionFindings(wallet, band, balance, dollars),
        ...liquidityFindings(wallet, bands, balance, dollars),
        ...rateFindings(watched, wallet, params.catalog, bands.rateDropBps, dollars),
      ],
      notes,
    };
  });
  const count = wallets.reduce((n, w) => n + w.findings.length, 0);
  const where = params.stack ?? "stack";
  const outsideWallets = wallets.filter((w) => w.findings.length > 0).length;
  return {
    stack: params.stack,
    checkedAt: params.checkedAt,
    outside: count > 0,
    headline:
      count === 0
        ? `${where}: every wallet within its bands`
        : `${where}: ${count} outside ${count === 1 ? "its band" : "their bands"} in ${outsideWallets} of ${wallets.length} wallet${wallets.length === 1 ? "" : "s"}`,
    bands,
    wallets,
  };
}
