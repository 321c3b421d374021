/**
 * 10000 bps = 100%. Every allocation the service accepts sums to exactly this.
 *
 * In a module of its own, with no import: the console's browser bundle (sandbox/console/) takes it
 * from here without pulling in zod and the schemas of common.ts.
 */
export const TOTAL_WEIGHT_BPS = 10_000;
