import { formatDollars } from "../../sdk/nodejs/contract/index.ts";

/**
 * How the report writes numbers: basis points as integers, rates to one decimal, signs on deltas.
 * Dollars are the contract's `formatDollars`, the one way every report and message writes them.
 */

/** `6000`, or `—` for none. */
export function bps(value: number | null): string {
  return value === null ? "—" : Number.isInteger(value) ? String(value) : value.toFixed(1);
}

/** `+1000`, `−1000` (a real minus sign), `0`. */
export function signedBps(value: number): string {
  if (value === 0) return "0";
  const text = Number.isInteger(value) ? String(Math.abs(value)) : Math.abs(value).toFixed(1);
  return value > 0 ? `+${text}` : `−${text}`;
}

/** `518.0 → 505.0 bps (−13.0)`, `— → 505.0 bps` for a new wallet, `518.0 bps (unchanged)`. */
export function beforeAfter(before: number | null, after: number | null, decimals = 0): string {
  const show = (value: number | null) => (value === null ? "—" : value.toFixed(decimals));
  if (before !== null && after !== null && before === after) return `${show(after)} bps (unchanged)`;
  const delta =
    before !== null && after !== null
      ? ` (${after > before ? "+" : "−"}${Math.abs(after - before).toFixed(decimals)})`
      : "";
  return `${show(before)} → ${show(after)} bps${delta}`;
}

/** `$600,000.00 → $500,000.00 (−$100,000.00)`, or `$1.00 (unchanged)`. */
export function dollarsBeforeAfter(now: bigint, after: bigint): string {
  return now === after
    ? `${formatDollars(after)} (unchanged)`
    : `${formatDollars(now)} → ${formatDollars(after)} (${formatDollars(after - now, { signed: true })})`;
}
