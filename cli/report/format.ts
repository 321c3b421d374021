/** How the report writes numbers: basis points as integers, rates to one decimal, signs on deltas. */

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

const MICROS_PER_CENT = 10_000n;

/** Exact micros as dollars and cents, halves away from zero: `$1,234.56`, `−$0.01` (a real minus). */
export function dollars(micros: bigint): string {
  const magnitude = micros < 0n ? -micros : micros;
  const cents = (magnitude + MICROS_PER_CENT / 2n) / MICROS_PER_CENT;
  const whole = (cents / 100n).toString().replace(/\B(?=(\d{3})+(?!\d))/g, ",");
  const text = `$${whole}.${(cents % 100n).toString().padStart(2, "0")}`;
  return micros < 0n && cents > 0n ? `−${text}` : text;
}

/** `+$1,000.00`, `−$1,000.00`, `$0.00`: a change, signed. */
export function signedDollars(micros: bigint): string {
  const text = dollars(micros);
  return micros > 0n && text !== "$0.00" ? `+${text}` : text;
}

/** `$600,000.00 → $500,000.00 (−$100,000.00)`, or `$1.00 (unchanged)`. */
export function dollarsBeforeAfter(now: bigint, after: bigint): string {
  return now === after
    ? `${dollars(after)} (unchanged)`
    : `${dollars(now)} → ${dollars(after)} (${signedDollars(after - now)})`;
}
