import { CONFIG_NAMESPACE } from "../../sdk/nodejs/stackSettings.ts";
import {
  formatDollars,
  isInstantlyWithdrawable,
  sumMicros,
  usdToMicros,
  type Micros,
} from "../../sdk/nodejs/contract/index.ts";
import type { MoneyImpact } from "../../sdk/nodejs/contract/moneyImpact.ts";
import { resolveNumberSettings, type NumberSetting } from "./numberSettings.ts";

/**
 * Whether a report is worth a pull-request comment: the change crosses one of the thresholds (the
 * dollars it moves, the largest change of a weight, the money withdrawable at once it loses), or
 * it holds something a reviewer must read whatever its size (a warning, a wallet created, dropped
 * or replaced, dollars the report could not work out). Under every threshold, with nothing to
 * read, the preview workflow posts no new comment, and updates an earlier one to say the change
 * no longer crosses them (a stale comment saying money moves is never left). Pure.
 *
 * The defaults post for any change of an allocation (a cent moved, a basis point): a team raises
 * them to be told only of the changes it reviews in dollars.
 */

export interface CommentThresholds {
  /** Dollars moved over the stack's wallets (each wallet's increases), in micros. */
  usdMovedMicros: Micros;
  /** The largest change of one source's target weight in one wallet. */
  weightBps: number;
  /** Money withdrawable at once lost, over the wallets that lose it (one wallet's gain pays no other's withdrawal). */
  withdrawableLostMicros: Micros;
}

/** Where each threshold is set and its default. */
export const COMMENT_THRESHOLD_SETTINGS = {
  usdMoved: {
    flag: "--comment-usd-moved",
    configKey: `${CONFIG_NAMESPACE}:commentUsdMoved`,
    default: 0.01,
    what: "a USD amount of 0 or more, such as 0.01 or 10000",
    min: 0,
    max: Number.POSITIVE_INFINITY,
  },
  weightBps: {
    flag: "--comment-weight-bps",
    configKey: `${CONFIG_NAMESPACE}:commentWeightBps`,
    default: 1,
    what: "a whole number of basis points from 1 to 10000, such as 1 or 500",
    min: 1,
    max: 10_000,
    whole: true,
  },
  withdrawableLostUsd: {
    flag: "--comment-withdrawable-lost-usd",
    configKey: `${CONFIG_NAMESPACE}:commentWithdrawableLostUsd`,
    default: 0.01,
    what: "a USD amount of 0 or more, such as 0.01 or 5000",
    min: 0,
    max: Number.POSITIVE_INFINITY,
  },
} as const satisfies Record<string, NumberSetting>;

export type CommentThresholdName = keyof typeof COMMENT_THRESHOLD_SETTINGS;

const fromValues = (values: Record<CommentThresholdName, number>): CommentThresholds => ({
  usdMovedMicros: usdToMicros(values.usdMoved),
  weightBps: values.weightBps,
  withdrawableLostMicros: usdToMicros(values.withdrawableLostUsd),
});

/** A cent moved, a basis point, a cent of instant liquidity lost. */
export const DEFAULT_COMMENT_THRESHOLDS: CommentThresholds = fromValues({
  usdMoved: COMMENT_THRESHOLD_SETTINGS.usdMoved.default,
  weightBps: COMMENT_THRESHOLD_SETTINGS.weightBps.default,
  withdrawableLostUsd: COMMENT_THRESHOLD_SETTINGS.withdrawableLostUsd.default,
});

/** The thresholds from the flags' values, else the stack config's, else the defaults. */
export function resolveCommentThresholds(
  flags: Partial<Record<CommentThresholdName, string>>,
  stackConfig: (key: string) => string | undefined,
): CommentThresholds {
  return fromValues(resolveNumberSettings(COMMENT_THRESHOLD_SETTINGS, flags, stackConfig));
}

/** What the change measures against the thresholds. */
export interface CommentMeasures {
  usdMovedMicros: Micros;
  largestWeightChangeBps: number;
  withdrawableLostMicros: Micros;
}

export interface CommentDecision {
  /** Post (or update) the comment; false: post none, and update an earlier one to say so. */
  post: boolean;
  /** Each threshold crossed and each thing a reviewer must read; empty when `post` is false. */
  reasons: string[];
  /** The sentence the comment says of it. */
  summary: string;
  measured: CommentMeasures;
  thresholds: CommentThresholds;
}

/** What the decision reads of a wallet's change in the report (allocationReport.ts's WalletChange). */
export interface ChangeMeasured {
  kind: string;
  name: string;
  op: string;
  action: string;
  afterUnknown: boolean;
  rows: readonly { deltaBps: number }[];
  money: { impact: MoneyImpact | null };
}

/** What the decision reads of a report. */
export interface CommentSubject {
  wallets: readonly ChangeMeasured[];
  warnings: readonly { resource: string }[];
}

const positive = (micros: Micros): Micros => (micros > 0n ? micros : 0n);

export function measureChange(all: readonly ChangeMeasured[]): CommentMeasures {
  // A wallet leaving the stack keeps its allocation at the service: it moves nothing.
  const wallets = all.filter((wallet) => wallet.op !== "delete");
  const impacts = wallets.flatMap((wallet) => (wallet.money.impact === null ? [] : [wallet.money.impact]));
  return {
    usdMovedMicros: sumMicros(impacts.map((impact) => impact.movedMicros)),
    largestWeightChangeBps: Math.max(
      0,
      ...wallets.flatMap((wallet) => wallet.rows.map((row) => Math.abs(row.deltaBps))),
    ),
    withdrawableLostMicros: sumMicros(
      impacts.map((impact) =>
        positive(
          -sumMicros(
            impact.withdrawable
              .filter((entry) => isInstantlyWithdrawable(entry.within))
              .map((entry) => entry.deltaMicros),
          ),
        ),
      ),
    ),
  };
}

/** What a reviewer must read whatever the thresholds say. */
function mustRead(subject: CommentSubject): string[] {
  const warned = new Set(subject.warnings.map((warning) => warning.resource));
  const reasons = [...warned].map((resource) => `a warning on ${resource}`);
  for (const wallet of subject.wallets) {
    const resource = `${wallet.kind} "${wallet.name}"`;
    if (warned.has(resource)) continue;
    if (wallet.op !== "update") reasons.push(`${resource} is ${wallet.action}`);
    else if (wallet.afterUnknown) reasons.push(`the allocation of ${resource} is known only at up`);
    else if (wallet.money.impact === null) reasons.push(`the dollars of ${resource} are unknown`);
  }
  return reasons;
}

export function decideComment(subject: CommentSubject, thresholds: CommentThresholds): CommentDecision {
  const measured = measureChange(subject.wallets);
  const movedText = `it moves ${formatDollars(measured.usdMovedMicros)} (threshold ${formatDollars(thresholds.usdMovedMicros)})`;
  const weightText = `the largest weight change is ${measured.largestWeightChangeBps} bps (threshold ${thresholds.weightBps})`;
  const lostText = `withdrawable at once falls by ${formatDollars(measured.withdrawableLostMicros)} (threshold ${formatDollars(thresholds.withdrawableLostMicros)})`;
  // A threshold of $0 is crossed by any amount, never by none.
  const crossesMicros = (amount: Micros, threshold: Micros) => amount > 0n && amount >= threshold;
  const crossed = [
    ...(crossesMicros(measured.usdMovedMicros, thresholds.usdMovedMicros) ? [movedText] : []),
    ...(measured.largestWeightChangeBps >= thresholds.weightBps ? [weightText] : []),
    ...(crossesMicros(measured.withdrawableLostMicros, thresholds.withdrawableLostMicros) ? [lostText] : []),
  ];
  const reasons = [...crossed, ...mustRead(subject)];
  const post = reasons.length > 0;
  return {
    post,
    reasons,
    summary: post
      ? `posted because ${reasons.join("; ")}.`
      : `under the comment thresholds: ${movedText}, ${weightText}, and ${lostText}; ` +
        "the workflow posts no comment for it, and an earlier comment is updated to this.",
    measured,
    thresholds,
  };
}
