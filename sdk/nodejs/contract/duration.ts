/**
 * ISO 8601 durations, as `maxProcessingTime` uses them (`PT0H` = instantly withdrawable, `PT24H` =
 * within a day), in one place: the one reader (the contract's DurationSchema, the policy rules,
 * the CLI and the sandbox all use it), ordering by speed and "withdrawable within".
 *
 * What is accepted: ISO 8601's designator form. `P`, then whole numbers each followed by its unit,
 * largest first, each unit at most once: years `Y`, months `M`, days `D`, then `T` and hours `H`,
 * minutes `M`, seconds `S`; or weeks `W` alone. A unit whose number is zero may be left out (ISO
 * 8601 says so), so `P1Y2D` and `PT1H5S` are accepted, which RFC 3339's appendix grammar (what
 * JSON Schema's `duration` format names) refuses; the service interface says ISO 8601. A number
 * may pass its unit's carry-over (`PT36H`) and have leading zeros (`PT065S`). Refused, each with
 * what is wrong: fractions (ISO allows them only by agreement; whole units say the same in a
 * smaller unit), signs, lower case, unknown units, units out of order or repeated, and anything
 * longer than MAX_DURATION (a year counts 365 days, a month 30).
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

interface DurationUnit {
  letter: string;
  name: string;
  /** Before `T` (date) or after it (time). */
  part: "date" | "time";
  /** Calendar units have no fixed length; liquidity only needs an order, so 365 and 30 days do. */
  ms: number;
}

/** Largest first: the order a duration writes them in. */
const UNITS: readonly DurationUnit[] = [
  { letter: "Y", name: "years", part: "date", ms: 365 * MS_PER_DAY },
  { letter: "M", name: "months", part: "date", ms: 30 * MS_PER_DAY },
  { letter: "W", name: "weeks", part: "date", ms: 7 * MS_PER_DAY },
  { letter: "D", name: "days", part: "date", ms: MS_PER_DAY },
  { letter: "H", name: "hours", part: "time", ms: 3_600 * MS_PER_SECOND },
  { letter: "M", name: "minutes", part: "time", ms: 60 * MS_PER_SECOND },
  { letter: "S", name: "seconds", part: "time", ms: MS_PER_SECOND },
];

/**
 * The longest duration accepted: 9999 years of 365 days (PT87591240H). Timestamps stay within
 * years 0000-9999, which no longer processing time could end in; it also keeps every accepted
 * duration an exact number of milliseconds.
 */
export const MAX_DURATION = "P9999Y";
const MAX_DURATION_MS = 9999 * 365 * MS_PER_DAY;

/**
 * What readIsoDuration accepts, as a JSON Schema `pattern` for the OpenAPI document (DurationSchema
 * carries it), written from UNITS: per part, a non-empty run of its units in order, each optional
 * after the first given; weeks alone. No lookahead, so every regex engine a generator uses reads
 * it. It cannot say the maximum (MAX_DURATION), which the reader holds.
 */
export const DURATION_JSON_PATTERN = (() => {
  const inOrder = (units: readonly DurationUnit[]) =>
    units
      .map((first, index) =>
        [first, ...units.slice(index + 1)]
          .map((unit, position) => (position === 0 ? `\\d+${unit.letter}` : `(?:\\d+${unit.letter})?`))
          .join(""),
      )
      .join("|");
  const date = inOrder(UNITS.filter((unit) => unit.part === "date" && unit.letter !== "W"));
  const time = inOrder(UNITS.filter((unit) => unit.part === "time"));
  return `^P(?:(?:${date})(?:T(?:${time}))?|T(?:${time})|\\d+W)$`;
})();

/** Longer texts are refused unread: no real duration needs them. */
const MAX_DURATION_LENGTH = 100;

/** What a duration is, for messages that refuse one. */
export const DURATION_EXAMPLES = "an ISO 8601 duration such as PT0H, PT24H or P3DT12H";

/** A duration read: its length in ms, or what is wrong with the text and what to write instead. */
export type DurationReading = { ms: number; problem?: undefined } | { ms?: undefined; problem: string };

const isDigit = (char: string | undefined) => char !== undefined && char >= "0" && char <= "9";

/**
 * Reads an ISO 8601 duration (see above for what is accepted). A refusal's `problem` completes
 * "this one …": it says what is wrong and what to write, for example `gives hours after seconds:
 * write units largest first, such as PT1H30M`.
 */
export function readIsoDuration(text: string): DurationReading {
  const refuse = (problem: string): DurationReading => ({ problem });
  if (text === "") return refuse("is empty: give one, such as PT0H (at once) or PT24H (within a day)");
  if (text.length > MAX_DURATION_LENGTH)
    return refuse(`is ${text.length} characters long: a duration has at most ${MAX_DURATION_LENGTH}`);
  if (text.trim() !== text) return refuse("has spaces around it: remove them");
  if (text.startsWith("-") || text.startsWith("+"))
    return refuse(`has a sign (${text[0]}): a duration is never negative; write it without one`);
  // Lower case is named only where it is all that is wrong; otherwise what else is wrong is.
  if (/[a-z]/.test(text) && readIsoDuration(text.toUpperCase()).ms !== undefined)
    return refuse(`is in lower case: write P, T and the units in capitals (${text.toUpperCase()})`);
  if (!text.startsWith("P")) return refuse("does not start with P: write it as PT24H or P3D, not 24H or 3D");
  let index = 1;
  let inTime = false;
  let previous: DurationUnit | undefined;
  const seen = new Set<DurationUnit>();
  let ms = 0;
  while (index < text.length) {
    if (text[index] === "T") {
      if (inTime)
        return refuse("has T twice: one T comes between the date units and the time units (P1DT12H)");
      inTime = true;
      index += 1;
      if (index === text.length)
        return refuse("ends with T: give hours, minutes or seconds after it (P1DT12H), or leave the T out");
      continue;
    }
    const start = index;
    while (isDigit(text[index])) index += 1;
    const digits = text.slice(start, index);
    if (text[index] === "." || text[index] === ",") {
      let end = index + 1;
      while (isDigit(text[end])) end += 1;
      return refuse(
        `has a fraction (${text.slice(start, end + 1)}): give whole numbers, in a smaller unit if need be (PT90M, not PT1.5H)`,
      );
    }
    const letter = text[index];
    if (letter === undefined)
      return refuse(
        `ends with a number (${digits}) and no unit: add one, such as ${text}${inTime ? "H" : "D"}`,
      );
    if (digits === "") {
      return /[A-Z]/.test(letter)
        ? refuse(
            `has ${letter} with no number before it: give one, such as ${inTime ? "PT1" : "P1"}${letter}`,
          )
        : refuse(`has "${letter}" where a number is expected`);
    }
    index += 1;
    const unit = UNITS.find((u) => u.letter === letter && u.part === (inTime ? "time" : "date"));
    if (unit === undefined) {
      const other = UNITS.find((u) => u.letter === letter);
      if (other === undefined)
        return refuse(
          `has an unknown unit "${letter}": the units are Y, M, W and D, then after T: H, M and S`,
        );
      return other.part === "time"
        ? refuse(
            `gives ${other.name} (${digits}${letter}) before T: time units come after it, as in PT${digits}${letter}`,
          )
        : refuse(
            `gives ${other.name} (${digits}${letter}) after T: date units come before it, as in P${digits}${letter}`,
          );
    }
    if (seen.has(unit)) return refuse(`gives ${unit.name} twice: give each unit once`);
    if (previous !== undefined && UNITS.indexOf(unit) < UNITS.indexOf(previous))
      return refuse(
        `gives ${unit.name} after ${previous.name}: write units largest first, such as P1DT2H or PT1H30M`,
      );
    seen.add(unit);
    previous = unit;
    ms += Number(digits) * unit.ms;
  }
  if (seen.size === 0) return refuse("gives no number and unit: give at least one, such as PT0H");
  if (seen.size > 1 && [...seen].some((unit) => unit.letter === "W"))
    return refuse(
      "combines weeks with other units: give weeks alone (P2W) or count in days (P9D, not P1W2D)",
    );
  if (ms > MAX_DURATION_MS)
    return refuse(`is longer than the longest accepted, ${MAX_DURATION} (9999 years of 365 days)`);
  return { ms };
}

/**
 * Milliseconds in an ISO 8601 duration such as `PT0H`, `PT24H`, `P1D`, `P2W` or `PT1H30M` (a year
 * counts 365 days, a month 30), or null when readIsoDuration refuses the text.
 */
export function parseIsoDurationMs(duration: string): number | null {
  return readIsoDuration(duration).ms ?? null;
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

/** How a duration is said: how long something takes `within`, or at most `up to`. */
export type DurationPhrase = "within" | "up to";

const WORD_UNITS = [
  { one: "day", many: "days", ms: MS_PER_DAY },
  { one: "hour", many: "hours", ms: 3_600 * MS_PER_SECOND },
  { one: "minute", many: "minutes", ms: 60 * MS_PER_SECOND },
  { one: "second", many: "seconds", ms: MS_PER_SECOND },
] as const;

/** Below two days a duration is said in hours (`24 hours`, `36 hours`), from two days on in days. */
const DAYS_FROM_MS = 2 * MS_PER_DAY;

/**
 * A duration as a person reads it, the one way every report, listing and message says one (the
 * JSON keeps the ISO form): `at once` for a zero duration (`PT0H`), else the phrase and the length
 * in words: `within 24 hours`, `up to 7 days`, `within 3 days and 12 hours`, `within 1 hour and 30
 * minutes`. A year counts 365 days and a month 30, as readIsoDuration counts them. A text that does
 * not parse takes an unknown time (its money is never liquid within any bound): `within an unknown
 * time`, or `an unknown time` up to; `unknown` (what the money impact says of a source the catalog
 * does not list) the same.
 */
export function durationInWords(duration: string, phrase: DurationPhrase = "within"): string {
  const length = durationLength(duration);
  if (length === null) return phrase === "up to" ? "an unknown time" : `${phrase} an unknown time`;
  return length === "" ? "at once" : `${phrase} ${length}`;
}

/**
 * A duration's length in words, without a phrase: `24 hours`, `7 days`, `1 hour and 30 minutes`
 * (for a table's column, where the heading says what it is); `""` for a zero duration, `null` for a
 * text that does not parse. `durationInWords` says the same length in a sentence.
 */
export function durationLength(duration: string): string | null {
  const ms = parseIsoDurationMs(duration);
  if (ms === null) return null;
  if (ms === 0) return "";
  const units = ms < DAYS_FROM_MS ? WORD_UNITS.slice(1) : WORD_UNITS;
  let left = ms;
  const parts: string[] = [];
  for (const unit of units) {
    const count = Math.floor(left / unit.ms);
    left -= count * unit.ms;
    if (count > 0) parts.push(`${count} ${count === 1 ? unit.one : unit.many}`);
  }
  return parts.length === 1 ? parts[0]! : `${parts.slice(0, -1).join(", ")} and ${parts.at(-1)}`;
}
