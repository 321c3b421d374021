/**
 * Money, in one place: conversion between the API's USD numbers and integer micro-units,
 * rounding, and formatting for messages.
 *
 * The one representation of an amount inside this package is a whole number of micro-units
 * (1 micro = 0.000001 USD) held in a `bigint`, so sums and differences are exact at any size: a
 * wallet total above 2^53 micros (about 9.0e9 USD) is as exact as a cent. The service's JSON
 * carries amounts as numbers (doubles, spec conventions); they are converted at the boundary and
 * nowhere else, with these functions. What a person reads shows dollars and cents one way,
 * `$1,234.56` (`formatDollars`); a column of them is rounded with `centsByLargestRemainder`, so that
 * it adds up to its printed total. JSON keeps the micros, as decimal strings.
 */

/** Integer micro-units of USD: 1_000_000n is one dollar. */
export type Micros = bigint;

/** Micro-units per USD. */
export const MICROS_PER_USD = 1_000_000n;

/**
 * Amounts below this many USD (2^33, about 8.59e9) survive `microsToUsd` then `usdToMicros`
 * unchanged: below it a double can tell every micro apart. Larger amounts come back as the
 * nearest double, which may be a micro or so off; the micros themselves stay exact.
 */
export const EXACT_USD_ROUND_TRIP_LIMIT = 2 ** 33;

const MAX_SAFE = BigInt(Number.MAX_SAFE_INTEGER);

/**
 * A USD amount (a JSON number) as micros, rounded to the nearest micro of the double's exact
 * value (an exact half rounds away from zero). Throws a RangeError for NaN and infinities.
 */
export function usdToMicros(usd: number): Micros {
  if (!Number.isFinite(usd)) throw new RangeError(`${usd} is not a USD amount`);
  // toFixed rounds the double's exact value, so no multiplication error creeps in. From 1e21 on
  // it switches to exponent notation, but such a double is a whole number of dollars anyway.
  if (Math.abs(usd) >= 1e21) return BigInt(usd) * MICROS_PER_USD;
  return BigInt(usd.toFixed(6).replace(".", ""));
}

/** Micros as the JSON number the API answers: the double nearest to the exact amount. */
export function microsToUsd(micros: Micros): number {
  const magnitude = micros < 0n ? -micros : micros;
  // Both operands exact, so the quotient is correctly rounded; beyond 2^53 the decimal text is.
  if (magnitude <= MAX_SAFE) return Number(micros) / 1_000_000;
  return Number(microsToDecimalString(micros));
}

/** The exact amount as decimal text, trailing zeros dropped: `1234.5`, `0.000001`, `-3`. */
export function microsToDecimalString(micros: Micros): string {
  const sign = micros < 0n ? "-" : "";
  const magnitude = micros < 0n ? -micros : micros;
  const whole = magnitude / MICROS_PER_USD;
  const fraction = (magnitude % MICROS_PER_USD).toString().padStart(6, "0").replace(/0+$/, "");
  return `${sign}${whole}${fraction === "" ? "" : `.${fraction}`}`;
}

/** The exact amount with all six decimals, for a column a spreadsheet sums: `1250.500000`, `-0.000001`. */
export function microsToFixedUsd(micros: Micros): string {
  const [whole, fraction = ""] = microsToDecimalString(micros).split(".");
  return `${whole}.${fraction.padEnd(6, "0")}`;
}

const MICROS_PER_CENT = 10_000n;

/** Thousands separators in a whole number's digits: `1234567` → `1,234,567`. */
const grouped = (digits: string) => digits.replace(/\B(?=(\d{3})+(?!\d))/g, ",");

/** How `formatDollars` writes an amount; by default unsigned (a minus only) and to the cent. */
export interface DollarFormat {
  /** A plus before an amount above zero, for a change: `+$1,000.00`. */
  signed?: boolean;
  /**
   * Every micro, for the rare message where cents would hide what matters (a limit passed by
   * $0.000001): `$999,999.999999`. At least two decimals, trailing zeros dropped past them.
   */
  toTheMicro?: boolean;
}

/**
 * An amount for a person to read, the one way every report, listing and message writes dollars:
 * `$1,234.56`, `−$0.01` (a real minus sign), `+$1,000.00` when `signed`. Rounded to the cent, halves
 * away from zero; an amount that rounds to zero is `$0.00`, never `−$0.00`. For a column that must
 * add up to its total, round its amounts with `centsByLargestRemainder` first.
 */
export function formatDollars(micros: Micros, format: DollarFormat = {}): string {
  const magnitude = micros < 0n ? -micros : micros;
  let text: string;
  let zero: boolean;
  if (format.toTheMicro === true) {
    const fraction = (magnitude % MICROS_PER_USD)
      .toString()
      .padStart(6, "0")
      .replace(/0{1,4}$/, "");
    text = `$${grouped((magnitude / MICROS_PER_USD).toString())}.${fraction}`;
    zero = magnitude === 0n;
  } else {
    const cents = (magnitude + MICROS_PER_CENT / 2n) / MICROS_PER_CENT;
    text = `$${grouped((cents / 100n).toString())}.${(cents % 100n).toString().padStart(2, "0")}`;
    zero = cents === 0n;
  }
  if (zero) return text;
  if (micros < 0n) return `−${text}`;
  return format.signed === true ? `+${text}` : text;
}

/** `amount` to the nearest cent (halves away from zero), in micros. */
export function roundToCent(amount: Micros): Micros {
  const magnitude = amount < 0n ? -amount : amount;
  const cents = ((magnitude + MICROS_PER_CENT / 2n) / MICROS_PER_CENT) * MICROS_PER_CENT;
  return amount < 0n ? -cents : cents;
}

/**
 * A column of amounts rounded to whole cents (in micros) so that the rounded amounts add up to the
 * column's total rounded to the cent (`roundToCent(sumMicros(amounts))`): each amount goes down to
 * its cent, and the cents left over go, one each, to the amounts with the largest remainders (ties
 * to the earlier), as `splitByWeights` splits micros. No amount moves by more than a cent from its
 * exact value. Amounts may be negative (a column of changes).
 */
export function centsByLargestRemainder(amounts: readonly Micros[]): Micros[] {
  // Floor towards −∞, so that every remainder is in [0, a cent).
  const floors = amounts.map((amount) => {
    const remainder = ((amount % MICROS_PER_CENT) + MICROS_PER_CENT) % MICROS_PER_CENT;
    return { floor: amount - remainder, remainder };
  });
  let left = (roundToCent(sumMicros(amounts)) - sumMicros(floors.map((f) => f.floor))) / MICROS_PER_CENT;
  const order = floors
    .map(({ remainder }, index) => ({ index, remainder }))
    .sort((a, b) => (a.remainder === b.remainder ? a.index - b.index : a.remainder > b.remainder ? -1 : 1));
  const rounded = floors.map((f) => f.floor);
  for (const { index } of order) {
    if (left <= 0n) break;
    rounded[index] = (rounded[index] ?? 0n) + MICROS_PER_CENT;
    left -= 1n;
  }
  return rounded;
}

/**
 * An exact amount for a message that must not round it away: `1234.5 USD`, `0.000001 USD`. The
 * sandbox states amounts this way (an insufficient-funds answer of 0.000001 must not read 0.00).
 */
export function formatExactUsd(micros: Micros): string {
  return `${microsToDecimalString(micros)} USD`;
}

/** The sum of some amounts. */
export function sumMicros(amounts: Iterable<Micros>): Micros {
  let total = 0n;
  for (const amount of amounts) total += amount;
  return total;
}

/**
 * Splits `total` micros in proportion to integer `weights` (bps or micros) by largest remainder:
 * the parts are integers summing to exactly `total`, none more than a micro above its exact
 * share. Ties in the remainder go to the earlier weight. All-zero weights give all-zero parts;
 * negative weights count as zero. The one rule by which money is put on target weights: the
 * sandbox rebalances and allocates deposits with it, and a change's money impact (moneyImpact.ts)
 * predicts the amounts at a new target with it.
 */
export function splitByWeights(total: Micros, weights: readonly (number | bigint)[]): Micros[] {
  const scaled = weights.map((w) => {
    const whole = typeof w === "bigint" ? w : BigInt(Math.round(w));
    return whole > 0n ? whole : 0n;
  });
  const weightSum = sumMicros(scaled);
  if (weightSum === 0n || total === 0n) return weights.map(() => 0n);
  const parts = scaled.map((w) => (total * w) / weightSum);
  const remainders = scaled.map((w, index) => ({ index, remainder: (total * w) % weightSum }));
  let left = total - sumMicros(parts);
  remainders.sort((a, b) =>
    a.remainder === b.remainder ? a.index - b.index : a.remainder > b.remainder ? -1 : 1,
  );
  for (const { index } of remainders) {
    if (left <= 0n) break;
    parts[index] = (parts[index] ?? 0n) + 1n;
    left -= 1n;
  }
  return parts;
}
