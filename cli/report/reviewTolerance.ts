import { CONFIG_NAMESPACE } from "../../sdk/nodejs/stackSettings.ts";
import { formatDollars, usdToMicros, type Micros } from "../../sdk/nodejs/contract/money.ts";
import { resolveNumberSettings, type NumberSetting } from "./numberSettings.ts";

/**
 * How far the dollars a change moves may drift between the pull request's review and the merge
 * before the merge check (`portfolio-wallet report-check`) refuses the reviewed plan. Pure.
 *
 * A wallet's figure holds when it differs from the reviewed one by no more than the larger of the
 * two tolerances: a USD amount (so that a small move is not refused for cents of yield) and a
 * percentage of the reviewed figure (so that a large move is not refused for a day's yield). A
 * deposit or a withdrawal of any size that matters to the reviewer exceeds both.
 *
 * These are the command-line tool's settings, not the provider's (numberSettings.ts).
 */

export interface ReviewTolerance {
  /** Percent of the reviewed figure, 0 to 100 (`1` is 1%). */
  percent: number;
  /** USD, in micros. */
  usdMicros: Micros;
}

/** Where each tolerance is set and its default. */
export const REVIEW_TOLERANCE_SETTINGS = {
  percent: {
    flag: "--tolerance-percent",
    configKey: `${CONFIG_NAMESPACE}:reviewTolerancePercent`,
    default: 1,
    what: "a percentage from 0 to 100, such as 1 or 0.5",
    min: 0,
    max: 100,
  },
  usd: {
    flag: "--tolerance-usd",
    configKey: `${CONFIG_NAMESPACE}:reviewToleranceUsd`,
    default: 100,
    what: "a USD amount of 0 or more, such as 100 or 2500.50",
    min: 0,
    max: Number.POSITIVE_INFINITY,
  },
} as const satisfies Record<string, NumberSetting>;

export type ToleranceName = keyof typeof REVIEW_TOLERANCE_SETTINGS;

/** 1% and $100 unless set. */
export const DEFAULT_REVIEW_TOLERANCE: ReviewTolerance = {
  percent: REVIEW_TOLERANCE_SETTINGS.percent.default,
  usdMicros: usdToMicros(REVIEW_TOLERANCE_SETTINGS.usd.default),
};

/** The tolerances from the flags' values, else the stack config's, else the defaults. */
export function resolveReviewTolerance(
  flags: Partial<Record<ToleranceName, string>>,
  stackConfig: (key: string) => string | undefined,
): ReviewTolerance {
  const { percent, usd } = resolveNumberSettings(REVIEW_TOLERANCE_SETTINGS, flags, stackConfig);
  return { percent, usdMicros: usdToMicros(usd) };
}

/** The percentage in millionths of a percent, so that the allowance is exact in micros. */
const millionthsOfPercent = (percent: number) => BigInt(Math.round(percent * 1_000_000));

/** The largest difference from `reviewedMicros` that still holds: the larger of the two tolerances. */
export function allowedDifferenceMicros(reviewedMicros: Micros, tolerance: ReviewTolerance): Micros {
  const magnitude = reviewedMicros < 0n ? -reviewedMicros : reviewedMicros;
  const share = (magnitude * millionthsOfPercent(tolerance.percent)) / 100_000_000n;
  return share > tolerance.usdMicros ? share : tolerance.usdMicros;
}

/** `$1,000.00 (the larger of $100.00 and 1% of the reviewed $100,000.00)`. */
export function describeAllowance(reviewedMicros: Micros, tolerance: ReviewTolerance): string {
  return (
    `${formatDollars(allowedDifferenceMicros(reviewedMicros, tolerance))} (the larger of ${formatDollars(tolerance.usdMicros)} ` +
    `and ${tolerance.percent}% of the reviewed ${formatDollars(reviewedMicros)})`
  );
}
