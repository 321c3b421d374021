/**
 * Money, written once: the API speaks USD as JSON numbers (spec: doubles); the sandbox counts in
 * integer micro-units (1 micro = 0.000001 USD) so that sums are exact; messages and reports show
 * dollars and cents. Every conversion, rounding and formatting of USD goes through here.
 */
export const MICROS_PER_USD = 1_000_000;

/** A USD amount from the API, to the nearest micro (amounts finer than 6 decimals are rounded). */
export function usdToMicros(usd: number): number {
  return Math.round(usd * MICROS_PER_USD);
}

/** Micros as the JSON number the API answers; `m / 1e6` round-trips exactly through usdToMicros. */
export function microsToUsd(micros: number): number {
  return micros / MICROS_PER_USD;
}

/** A USD amount for people: dollars and cents with thousands separators, `1,234.50 USD`. */
export function formatUsd(usd: number): string {
  return `${usd.toLocaleString("en-US", { minimumFractionDigits: 2, maximumFractionDigits: 2 })} USD`;
}
