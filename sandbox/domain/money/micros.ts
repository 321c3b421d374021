import type { Micros } from "../../../sdk/nodejs/contract/index.ts";

// Summing and splitting by weights live with the contract's money (the money impact of a change
// predicts with the same split the sandbox rebalances with); re-exported for the sandbox's modules.
export { splitByWeights, sumMicros } from "../../../sdk/nodejs/contract/money.ts";

/**
 * The sandbox's own arithmetic on micro-units (`Micros`, a bigint; conversion, rounding and
 * formatting live in sdk/nodejs/contract/money.ts). Every balance, deposit, payout and accrual is a whole
 * number of micros, so sums are exact and the conservation invariant (balances + paid out + in
 * flight = deposits + yield generated) holds with no epsilon, at any size.
 */

/** The larger of two amounts. */
export const maxMicros = (a: Micros, b: Micros): Micros => (a > b ? a : b);

/** The smaller of two amounts. */
export const minMicros = (a: Micros, b: Micros): Micros => (a < b ? a : b);

/** floor(a × b / c) for non-negative integers; 0 when c is 0. */
export function mulDivFloor(a: Micros, b: Micros, c: Micros): Micros {
  if (c === 0n) return 0n;
  return (a * b) / c;
}
