/**
 * Money, in one place: conversion between the API's USD numbers and integer micro-units,
 * rounding, and formatting for messages.
 *
 * The one representation of an amount inside this package is a whole number of micro-units
 * (1 micro = 0.000001 USD) held in a `bigint`, so sums and differences are exact at any size: a
 * wallet total above 2^53 micros (about 9.0e9 USD) is as exact as a cent. The service's JSON
 * carries amounts as numbers (doubles, spec conventions); they are converted at the boundary and
 * nowhere else, with these functions. Messages and reports show dollars and cents (`formatUsd`).
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

/**
 * A balance for a person to read: dollars and cents with thousands separators, `1,234.50 USD`.
 * For messages that summarise (a provider refusing to drop a funded wallet); the cents are
 * rounded half away from zero.
 */
export function formatUsd(usd: number): string {
  return `${usd.toLocaleString("en-US", { minimumFractionDigits: 2, maximumFractionDigits: 2 })} USD`;
}

/**
 * An exact amount for a message that must not round it away: `1234.5 USD`, `0.000001 USD`. The
 * sandbox states amounts this way (an insufficient-funds answer of 0.000001 must not read 0.00).
 */
export function formatExactUsd(micros: Micros): string {
  return `${microsToDecimalString(micros)} USD`;
}
