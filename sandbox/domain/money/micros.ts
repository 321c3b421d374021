import type { Micros } from "../../../sdk/nodejs/contract/index.ts";

/**
 * The sandbox's own arithmetic on micro-units (`Micros`, a bigint; conversion, rounding and
 * formatting live in sdk/nodejs/contract/money.ts). Every balance, deposit, payout and accrual is a whole
 * number of micros, so sums are exact and the conservation invariant (balances + paid out + in
 * flight = deposits + yield generated) holds with no epsilon, at any size.
 */

/** The sum of some amounts. */
export function sumMicros(amounts: Iterable<Micros>): Micros {
  let total = 0n;
  for (const amount of amounts) total += amount;
  return total;
}

/** The larger of two amounts. */
export const maxMicros = (a: Micros, b: Micros): Micros => (a > b ? a : b);

/** The smaller of two amounts. */
export const minMicros = (a: Micros, b: Micros): Micros => (a < b ? a : b);

/**
 * Splits `total` micros in proportion to integer `weights` (bps or micros) by largest remainder:
 * the parts are integers summing to exactly `total`, none more than a micro above its exact
 * share. Ties in the remainder go to the earlier weight. All-zero weights give all-zero parts;
 * negative weights count as zero.
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

/** floor(a × b / c) for non-negative integers; 0 when c is 0. */
export function mulDivFloor(a: Micros, b: Micros, c: Micros): Micros {
  if (c === 0n) return 0n;
  return (a * b) / c;
}
