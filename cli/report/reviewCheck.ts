import { formatDollars, type StrategyCatalogEntry } from "../../sdk/nodejs/contract/index.ts";
import { describeAllocation } from "../../provider/strategyChange/outsideChange.ts";
import type { Micros } from "../../sdk/nodejs/contract/money.ts";
import type { AllocationReport, WalletChange } from "./allocationReport.ts";
import type { ReviewedReport, ReviewedWallet } from "./reviewedReport.ts";
import { positionsOfWeights } from "../../sdk/nodejs/contract/allocation.ts";
import { REFUSED_UNTIL_REFRESHED } from "./serviceAllocation.ts";
import { allowedDifferenceMicros, describeAllowance, type ReviewTolerance } from "./reviewTolerance.ts";

/**
 * The merge check: the dollars each wallet's change moves, as the pull request's report said
 * (reviewed) and as the same computation says against the service now (current: the report of
 * the plan, built by buildAllocationReport), compared within the tolerance, with why they differ.
 * Pure: the command reads the files and the service.
 */

export interface WalletHold {
  /** `PortfolioWallet "treasury"`. */
  resource: string;
  urn: string;
  walletId: string | null;
  reviewedMovedMicros: Micros | null;
  currentMovedMicros: Micros | null;
  /** The largest difference that holds; null when there are no dollars to compare. */
  allowedMicros: Micros | null;
  holds: boolean;
  /** Why the figures differ, or why the wallet cannot be held to the review; empty when equal. */
  reasons: string[];
  message: string;
}

export interface ReviewCheck {
  holds: boolean;
  planSha256: string;
  wallets: WalletHold[];
  summary: string;
}

const YEAR_MS = 365 * 24 * 3600 * 1000;
/** A cent: the yield bound's allowance for rounding at the service. */
const CENT_MICROS = 10_000n;

/** `45 s`, `12 min`, `5 h`, `3 days`. */
export function elapsedText(ms: number): string {
  const seconds = Math.max(0, Math.round(ms / 1000));
  if (seconds < 120) return `${seconds} s`;
  if (seconds < 2 * 3600) return `${Math.round(seconds / 60)} min`;
  if (seconds < 48 * 3600) return `${Math.round(seconds / 3600)} h`;
  return `${Math.round(seconds / 86_400)} days`;
}

/**
 * The most yield the reviewed balance can have earned in `elapsedMs` at the catalog's highest
 * current rate of the sources it held (plus a cent): a larger growth of the balance is money
 * that arrived.
 */
function yieldBoundMicros(
  reviewed: NonNullable<ReviewedWallet["money"]["impact"]>,
  catalog: readonly StrategyCatalogEntry[],
  elapsedMs: number,
): Micros {
  const rates = new Map(catalog.map((entry) => [entry.positionKey, entry.currentRateBps]));
  const highest = Math.max(0, ...reviewed.sources.map((source) => rates.get(source.positionKey) ?? 0));
  const perYear = (reviewed.balanceMicros * BigInt(Math.ceil(highest * 100))) / 1_000_000n;
  return (perYear * BigInt(Math.ceil(Math.max(0, elapsedMs)))) / BigInt(YEAR_MS) + CENT_MICROS;
}

/** Why a wallet's dollars differ from the review's, from what the service answered then and now. */
function reasonsOf(
  reviewed: ReviewedWallet,
  current: WalletChange,
  catalog: readonly StrategyCatalogEntry[],
  elapsedMs: number,
): string[] {
  const reasons: string[] = [];
  const then = reviewed.money.impact;
  const now = current.money.impact;
  if (current.atService?.verdict === "changed outside") {
    const atReview = reviewed.atService?.serviceBps;
    const since =
      atReview !== undefined &&
      describeAllocation(positionsOfWeights(atReview)) !==
        describeAllocation(positionsOfWeights(current.atService.serviceBps))
        ? ` (at the review it held ${describeAllocation(positionsOfWeights(atReview))})`
        : "";
    reasons.push(
      `an outside change of the allocation: the service holds ${describeAllocation(positionsOfWeights(current.atService.serviceBps))}${since}, ` +
        `the stack's state ${describeAllocation(positionsOfWeights(current.atService.recordedBps))}. ${REFUSED_UNTIL_REFRESHED}`,
    );
  }
  if (then === null || now === null) return reasons;
  const grown = now.balanceMicros - then.balanceMicros;
  const over = elapsedText(elapsedMs);
  const balance = `the invested balance went from ${formatDollars(then.balanceMicros)} to ${formatDollars(now.balanceMicros)} (${formatDollars(grown, { signed: true })})`;
  if (grown < 0n) {
    reasons.push(`withdrawals since the review: ${balance}`);
  } else if (grown > yieldBoundMicros(then, catalog, elapsedMs)) {
    reasons.push(`deposits since the review: ${balance}, more than the catalog's rates earn in ${over}`);
  } else if (grown > 0n) {
    reasons.push(`yield since the review: ${balance}, within what the catalog's rates earn in ${over}`);
  } else if (reasons.length === 0) {
    // The same balance in other positions: the service rebalanced, or the positions drifted.
    const before = new Map(then.sources.map((source) => [source.positionKey, source.nowMicros]));
    const moved = now.sources
      .filter((source) => (before.get(source.positionKey) ?? 0n) !== source.nowMicros)
      .map(
        (source) =>
          `${source.positionKey} ${formatDollars(before.get(source.positionKey) ?? 0n)} → ${formatDollars(source.nowMicros)}`,
      );
    if (moved.length > 0)
      reasons.push(
        `the positions changed at the service with the same balance (a rebalance): ${moved.join(", ")}`,
      );
  }
  if (now.pendingMicros !== then.pendingMicros) {
    reasons.push(
      `money received and not yet allocated went from ${formatDollars(then.pendingMicros)} to ${formatDollars(now.pendingMicros)} ` +
        "(not moved by the change until the service allocates it)",
    );
  }
  return reasons;
}

function holdOf(
  reviewed: ReviewedWallet,
  current: WalletChange | undefined,
  tolerance: ReviewTolerance,
  catalog: readonly StrategyCatalogEntry[],
  elapsedMs: number,
): WalletHold {
  const resource = `${reviewed.kind} "${reviewed.name}"`;
  const named = `${resource}${reviewed.walletId === null ? "" : ` (wallet ${reviewed.walletId})`}`;
  const base = {
    resource,
    urn: reviewed.urn,
    walletId: reviewed.walletId,
    reviewedMovedMicros: reviewed.money.impact?.movedMicros ?? null,
    currentMovedMicros: current?.money.impact?.movedMicros ?? null,
    allowedMicros: null,
  };
  if (current === undefined) {
    const reason = "the plan holds no change of it, the reviewed report does: they are not of one preview";
    return { ...base, holds: false, reasons: [reason], message: `${named}: ${reason}.` };
  }
  const then = reviewed.money.impact;
  const now = current.money.impact;
  if (then === null && now === null) {
    const reason = `no dollars, at the review as now: ${current.money.reason}`;
    return { ...base, holds: true, reasons: [], message: `${named}: ${reason}.` };
  }
  if (then === null) {
    const reason = `the review showed no dollars for it (${reviewed.money.reason ?? "none"}), so there is no reviewed figure to hold the ${formatDollars(now!.movedMicros)} it moves now to`;
    return { ...base, holds: false, reasons: [reason], message: `${named}: ${reason}.` };
  }
  if (now === null) {
    const reason = `the review saw ${formatDollars(then.movedMicros)} move, and now the dollars are unknown: ${current.money.reason}`;
    return { ...base, holds: false, reasons: [reason], message: `${named}: ${reason}.` };
  }
  const difference = now.movedMicros - then.movedMicros;
  const magnitude = difference < 0n ? -difference : difference;
  const allowedMicros = allowedDifferenceMicros(then.movedMicros, tolerance);
  const outside = current.atService?.verdict === "changed outside";
  const holds = magnitude <= allowedMicros && !outside;
  const reasons = difference === 0n && !outside ? [] : reasonsOf(reviewed, current, catalog, elapsedMs);
  const figures =
    difference === 0n
      ? `moves ${formatDollars(now.movedMicros)}, as reviewed`
      : `the review saw ${formatDollars(then.movedMicros)} move, the service now makes it ${formatDollars(now.movedMicros)} ` +
        `(${formatDollars(difference, { signed: true })}), ${magnitude <= allowedMicros ? "within" : "beyond"} the tolerance of ` +
        describeAllowance(then.movedMicros, tolerance);
  const why = reasons.length === 0 ? "" : `. Why: ${reasons.join("; ")}`;
  return { ...base, allowedMicros, holds, reasons, message: `${named}: ${figures}${why}.` };
}

const count = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;

/**
 * The reviewed report held to the plan's report against the service now. `current` must be of
 * the same plan as `reviewed` (the command checks the digests first).
 */
export function checkAgainstReview(params: {
  reviewed: ReviewedReport;
  current: AllocationReport;
  tolerance: ReviewTolerance;
  catalog: readonly StrategyCatalogEntry[];
  now: Date;
}): ReviewCheck {
  const { reviewed, current, tolerance, catalog, now } = params;
  const elapsedMs = now.getTime() - Date.parse(reviewed.readAt);
  const currentByUrn = new Map(current.wallets.map((wallet) => [wallet.urn, wallet]));
  const reviewedUrns = new Set(reviewed.wallets.map((wallet) => wallet.urn));
  const wallets = reviewed.wallets
    .filter((wallet) => wallet.op !== "delete")
    .map((wallet) => holdOf(wallet, currentByUrn.get(wallet.urn), tolerance, catalog, elapsedMs));
  for (const wallet of current.wallets) {
    if (wallet.op === "delete" || reviewedUrns.has(wallet.urn)) continue;
    const resource = `${wallet.kind} "${wallet.name}"`;
    const reason = "the plan changes it, the reviewed report does not list it: they are not of one preview";
    wallets.push({
      resource,
      urn: wallet.urn,
      walletId: wallet.walletId,
      reviewedMovedMicros: null,
      currentMovedMicros: wallet.money.impact?.movedMicros ?? null,
      allowedMicros: null,
      holds: false,
      reasons: [reason],
      message: `${resource}: ${reason}.`,
    });
  }
  const refused = wallets.filter((wallet) => !wallet.holds);
  const plan = `plan sha256:${reviewed.planSha256}`;
  const outside = refused.some((wallet) =>
    wallet.reasons.some((reason) => reason.startsWith("an outside change")),
  );
  const summary =
    refused.length === 0
      ? `The reviewed dollars hold for ${count(wallets.length, "wallet")} (reviewed ${elapsedText(elapsedMs)} ago): ${plan} may be applied.`
      : `The reviewed dollars do not hold for ${count(refused.length, "wallet")} of ${wallets.length}: do not apply ${plan}. ` +
        (outside ? "Refresh the stack (`pulumi refresh`), then re-run" : "Re-run") +
        " the preview (open a pull request from the current main; an empty commit will do), review its report, and merge it.";
  return { holds: refused.length === 0, planSha256: reviewed.planSha256, wallets, summary };
}
