import type { DatabaseSync } from "node:sqlite";
import { inTransaction } from "../../store/db.ts";
import {
  listInvestedWalletIds,
  readAccrualRemainders,
  readPendingMicros,
  readAccrualState,
  readPositionMicros,
  writeAccrualRemainder,
  writeAccrualState,
  writePositionMicros,
} from "../../store/holdingsStore.ts";
import { appendLedgerEntry } from "../../store/ledgerStore.ts";
import { listRateHistory, type RatePeriodStart } from "../../store/rateHistoryStore.ts";
import { MAX_WALLET_TOTAL_MICROS } from "./limits.ts";
import { sumMicros } from "./micros.ts";

/** Simple interest on ACT/365: a position at r bps earns value × r / 10000 × days / 365. */
const YEAR_MS = 365 * 24 * 60 * 60 * 1000;
/** Rates are integrated to 1/10000 of a bp, so fractional catalog rates are kept. */
const RATE_SCALE = 10_000;
/** One micro of yield, in units of (micro × bps × RATE_SCALE × ms). */
export const ACCRUAL_DENOMINATOR = 10_000n * BigInt(RATE_SCALE) * BigInt(YEAR_MS);

/**
 * ∫ rate dt over [fromMs, toMs], in (bps × RATE_SCALE) × ms. The rate in force at t is the last
 * history entry that took effect at or before t (the first entry's rate before any took effect),
 * so a catalog rate change applies from its time on and earlier time keeps the earlier rate.
 */
export function rateIntegral(history: readonly RatePeriodStart[], fromMs: number, toMs: number): bigint {
  let total = 0n;
  history.forEach((period, index) => {
    const start = index === 0 ? fromMs : Math.max(fromMs, period.effectiveFromMs);
    const next = history[index + 1];
    const end = next === undefined ? toMs : Math.min(toMs, next.effectiveFromMs);
    if (end > start) total += BigInt(Math.round(period.rateBps * RATE_SCALE)) * BigInt(end - start);
  });
  return total;
}

/**
 * Settles a wallet's accrual up to `toIso`: each position earns at its source's rate(s) since the
 * last settlement, credited in whole micros (rounded down, so the sandbox never pays yield it has
 * not earned) with the fraction carried to the next settlement, so settling often or rarely
 * credits the same total for an unchanged balance. Each credit is an `accrual` ledger entry over
 * [accruedThrough, toIso]. Pending allocations earn nothing: they are not invested yet.
 * Returns the micros credited. A wallet seen for the first time starts accruing now.
 */
export function accrueWallet(
  db: DatabaseSync,
  wallet: { id: string; organizationId: string },
  toIso: string,
): bigint {
  const state = readAccrualState(db, wallet.id);
  if (state === null) {
    writeAccrualState(db, wallet.id, { accruedThrough: toIso, yieldOutstandingMicros: 0n });
    return 0n;
  }
  const fromMs = Date.parse(state.accruedThrough);
  const toMs = Date.parse(toIso);
  if (!(toMs > fromMs)) return 0n;
  const remainders = readAccrualRemainders(db, wallet.id);
  const positions = readPositionMicros(db, wallet.id);
  // Yield stops at the per-wallet maximum (limits.ts): what would pass it is not credited.
  let room = MAX_WALLET_TOTAL_MICROS - sumMicros(positions.values()) - readPendingMicros(db, wallet.id);
  let credited = 0n;
  for (const [positionKey, micros] of positions) {
    if (micros <= 0n) continue;
    const integral = rateIntegral(listRateHistory(db, positionKey), fromMs, toMs);
    if (integral === 0n) continue;
    const numerator = micros * integral + (remainders.get(positionKey) ?? 0n);
    const earned = numerator / ACCRUAL_DENOMINATOR;
    writeAccrualRemainder(db, wallet.id, positionKey, numerator % ACCRUAL_DENOMINATOR);
    const amount = earned < room ? earned : room > 0n ? room : 0n;
    room -= amount;
    if (amount === 0n) continue;
    writePositionMicros(db, wallet.id, positionKey, micros + amount, toIso);
    appendLedgerEntry(db, {
      organizationId: wallet.organizationId,
      walletId: wallet.id,
      kind: "accrual",
      positionKey,
      amountMicros: amount,
      yieldMicros: amount,
      refId: null,
      detail: null,
      fromAt: state.accruedThrough,
      at: toIso,
    });
    credited += amount;
  }
  writeAccrualState(db, wallet.id, {
    accruedThrough: toIso,
    yieldOutstandingMicros: state.yieldOutstandingMicros + credited,
  });
  return credited;
}

/** Moves `deltaMicros` of held yield in or out (a withdrawal's yield share leaving or coming back). */
export function addYieldOutstanding(
  db: DatabaseSync,
  walletId: string,
  deltaMicros: bigint,
  at: string,
): void {
  const state = readAccrualState(db, walletId) ?? { accruedThrough: at, yieldOutstandingMicros: 0n };
  writeAccrualState(db, walletId, {
    ...state,
    yieldOutstandingMicros: state.yieldOutstandingMicros + deltaMicros,
  });
}

/**
 * Settles accrual up to `toIso` for every wallet of the organization with money invested, before
 * an API request reads them. Wallets with nothing invested are skipped: every path that puts money
 * into a position settles the wallet's accrual first, so their next accrual starts from that moment.
 */
export function accrueOrganization(db: DatabaseSync, organizationId: string, toIso: string): void {
  inTransaction(db, () => {
    for (const id of listInvestedWalletIds(db, organizationId))
      accrueWallet(db, { id, organizationId }, toIso);
  });
}
