import type { Micros } from "../../../sdk/nodejs/contract/index.ts";

/**
 * The sandbox's money limits (docs/sandbox.md "Limits"). Arithmetic is exact bigint at any size;
 * the limits keep every stored amount inside SQLite's 64-bit INTEGER and every answer meaningful,
 * and are checked before anything is written.
 */

/** The most one deposit or one withdrawal may move: 1e9 USD. */
export const MAX_OPERATION_MICROS: Micros = 1_000_000_000n * 1_000_000n;

/**
 * The most a wallet may hold (positions plus pending allocations): 1e12 USD, well above 2^53
 * micros (about 9.0e9 USD), so totals past that point are ordinary. A deposit that would pass it
 * is refused; accrual stops crediting yield at it.
 */
export const MAX_WALLET_TOTAL_MICROS: Micros = 1_000_000_000_000n * 1_000_000n;

/** What an INTEGER column holds at most (2^63 − 1 micros, about 9.2e12 USD): the lifetime received by one deposit address. */
export const MAX_STORED_MICROS: Micros = 2n ** 63n - 1n;
