/**
 * Money arithmetic in whole micro-units (1 micro = 0.000001 USD). Every balance, deposit, payout
 * and accrual is an integer number of micros, so sums are exact and the conservation invariant
 * (balances + paid out + in flight = deposits + yield generated) holds with no epsilon.
 * Amounts up to 9e9 USD stay below 2^53 micros, where JavaScript integers are exact.
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

/** For messages: `1234.5` rather than `1234.500000`. */
export function formatUsd(micros: number): string {
  return `${microsToUsd(micros)} USD`;
}

/**
 * Splits `total` micros in proportion to integer `weights` (bps or micros) by largest remainder:
 * the parts are integers summing to exactly `total`, none more than a micro above its exact
 * share. Ties in the remainder go to the earlier weight. All-zero weights give all-zero parts.
 */
export function splitByWeights(total: number, weights: readonly number[]): number[] {
  const scaled = weights.map((w) => BigInt(Math.max(0, Math.round(w))));
  const weightSum = scaled.reduce((sum, w) => sum + w, 0n);
  if (weightSum === 0n || total === 0) return weights.map(() => 0);
  const bigTotal = BigInt(total);
  const parts = scaled.map((w) => (bigTotal * w) / weightSum);
  const remainders = scaled.map((w, index) => ({ index, remainder: (bigTotal * w) % weightSum }));
  let left = Number(bigTotal - parts.reduce((sum, p) => sum + p, 0n));
  remainders.sort((a, b) =>
    a.remainder === b.remainder ? a.index - b.index : a.remainder > b.remainder ? -1 : 1,
  );
  for (const { index } of remainders) {
    if (left <= 0) break;
    parts[index] = (parts[index] ?? 0n) + 1n;
    left -= 1;
  }
  return parts.map(Number);
}

/** floor(a * b / c) for non-negative integers, without overflow. */
export function mulDivFloor(a: number, b: number, c: number): number {
  if (c === 0) return 0;
  return Number((BigInt(a) * BigInt(b)) / BigInt(c));
}
