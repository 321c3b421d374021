/**
 * ISO 8601 durations, as `maxProcessingTime` uses them (`PT0H` = instantly withdrawable, `PT24H` =
 * within a day), in one place: parsing, ordering by speed and "withdrawable within".
 *
 * One rule for a duration that does not parse: its money is **never liquid within any bound**. It
 * is not instant, it does not count towards any "withdrawable within" share, and it sorts after
 * every duration that parses. Counting unknown liquidity as instant could promise money that takes
 * days to come back; counting it as never liquid can only understate liquidity. Every string the
 * contract's `DurationSchema` accepts parses, so the rule matters for data from elsewhere (a
 * newer service, a hand-written catalog).
 */

const MS_PER_SECOND = 1000;
const MS_PER_DAY = 86_400 * MS_PER_SECOND;
/** Calendar units have no fixed length; liquidity only needs an order, so 365 and 30 days do. */
const MS_PER_UNIT = [
  365 * MS_PER_DAY, // Y
  30 * MS_PER_DAY, // M
  7 * MS_PER_DAY, // W
  MS_PER_DAY, // D
  3_600 * MS_PER_SECOND, // H
  60 * MS_PER_SECOND, // M (minutes)
  MS_PER_SECOND, // S
] as const;

/** Longer texts are refused unread: no real duration needs them. */
const MAX_DURATION_LENGTH = 100;

// Each component is digits, an optional fraction and its unit letter, so matching is linear.
const DURATION_PATTERN =
  /^P(?:(\d+(?:[.,]\d+)?)Y)?(?:(\d+(?:[.,]\d+)?)M)?(?:(\d+(?:[.,]\d+)?)W)?(?:(\d+(?:[.,]\d+)?)D)?(?:T(?:(\d+(?:[.,]\d+)?)H)?(?:(\d+(?:[.,]\d+)?)M)?(?:(\d+(?:[.,]\d+)?)S)?)?$/;

/**
 * Milliseconds in an ISO 8601 duration such as `PT0H`, `PT24H`, `P1D`, `P1W` or `PT1.5S` (a year
 * counts 365 days, a month 30), or null when the text is not such a duration (`P`, `PT`, `1H`,
 * negative or signed values, anything longer than 100 characters).
 */
export function parseIsoDurationMs(duration: string): number | null {
  if (duration.length > MAX_DURATION_LENGTH) return null;
  const match = DURATION_PATTERN.exec(duration);
  if (match === null || duration === "P" || duration.endsWith("T")) return null;
  let ms = 0;
  MS_PER_UNIT.forEach((unitMs, index) => {
    const amount = match[index + 1];
    if (amount !== undefined) ms += Number(amount.replace(",", ".")) * unitMs;
  });
  return Number.isFinite(ms) ? ms : null;
}

/**
 * How long money with this `maxProcessingTime` takes to come back, in ms, for ordering by speed:
 * `Infinity` for a duration that does not parse (never liquid, so it sorts last).
 */
export function liquidityDelayMs(maxProcessingTime: string): number {
  return parseIsoDurationMs(maxProcessingTime) ?? Number.POSITIVE_INFINITY;
}

/** Sorts `maxProcessingTime` values fastest first; those that do not parse come last. */
export function compareLiquidity(a: string, b: string): number {
  const delayA = liquidityDelayMs(a);
  const delayB = liquidityDelayMs(b);
  return delayA === delayB ? 0 : delayA < delayB ? -1 : 1;
}

/** True when money with `maxProcessingTime` comes back at once (`PT0H`, `P0D`, ...). */
export function isInstantlyWithdrawable(maxProcessingTime: string): boolean {
  return parseIsoDurationMs(maxProcessingTime) === 0;
}

/**
 * True when money with `maxProcessingTime` is withdrawable within `bound` (a duration such as
 * `PT24H`, or milliseconds). False when either does not parse: unknown liquidity is never within
 * a bound, and nothing is known to be within an unknown bound.
 */
export function isWithdrawableWithin(maxProcessingTime: string, bound: string | number): boolean {
  const delay = parseIsoDurationMs(maxProcessingTime);
  const boundMs = typeof bound === "number" ? bound : parseIsoDurationMs(bound);
  return delay !== null && boundMs !== null && delay <= boundMs;
}

/**
 * The share of an allocation withdrawable within `bound`, in the unit of its weights (bps for
 * catalog entries or strategy positions): for example the share withdrawable within `PT0H` of a
 * quote option's positions. Weights of durations that do not parse never count.
 */
export function shareWithdrawableWithin(
  entries: readonly { maxProcessingTime: string; weight: number }[],
  bound: string | number,
): number {
  let share = 0;
  for (const entry of entries)
    if (isWithdrawableWithin(entry.maxProcessingTime, bound)) share += entry.weight;
  return share;
}
