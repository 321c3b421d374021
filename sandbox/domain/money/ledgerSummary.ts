import type { DatabaseSync } from "node:sqlite";
import {
  listWalletIds,
  readAccrualState,
  readPendingMicros,
  readPositionMicros,
} from "../../store/holdingsStore.ts";
import { ledgerSums, type LedgerKind } from "../../store/ledgerStore.ts";
import { microsToUsd } from "./micros.ts";

/** Ledger totals of one wallet, in micros. */
export interface LedgerTotals {
  deposits: number;
  yieldGenerated: number;
  paidOut: number;
  inFlight: number;
  yieldWithdrawn: number;
  /** What the ledger says the wallet holds: deposits + yield − paid out − in flight. */
  expectedBalance: number;
  /** What the wallet holds: positions + pending allocations. */
  balance: number;
  /** balance − expectedBalance: always 0 (conservation); anything else is a sandbox bug. */
  discrepancy: number;
  yieldHeld: number;
}

const zero = (): Omit<LedgerTotals, "expectedBalance" | "balance" | "discrepancy" | "yieldHeld"> => ({
  deposits: 0,
  yieldGenerated: 0,
  paidOut: 0,
  inFlight: 0,
  yieldWithdrawn: 0,
});

/**
 * Audits the organization's wallets against the ledger: for each wallet and in total,
 * balance + paid out + in flight = deposits + yield generated, to the micro.
 */
export function ledgerSummary(db: DatabaseSync, organizationId: string) {
  const sums = new Map<string, ReturnType<typeof zero>>();
  for (const row of ledgerSums(db, organizationId)) {
    const totals = sums.get(row.walletId) ?? zero();
    const kind: LedgerKind = row.kind;
    if (kind === "deposit_detected") totals.deposits += row.amountMicros;
    if (kind === "accrual") totals.yieldGenerated += row.amountMicros;
    if (kind === "withdrawal_debited") totals.inFlight += row.amountMicros;
    if (kind === "payout_returned") totals.inFlight -= row.amountMicros;
    if (kind === "payout_completed") {
      totals.inFlight -= row.amountMicros;
      totals.paidOut += row.amountMicros;
      totals.yieldWithdrawn += row.yieldMicros;
    }
    sums.set(row.walletId, totals);
  }
  const wallets: Record<string, LedgerTotals> = {};
  for (const walletId of listWalletIds(db, organizationId)) {
    const totals = sums.get(walletId) ?? zero();
    const expectedBalance = totals.deposits + totals.yieldGenerated - totals.paidOut - totals.inFlight;
    const positions = [...readPositionMicros(db, walletId).values()].reduce((sum, m) => sum + m, 0);
    const balance = positions + readPendingMicros(db, walletId);
    wallets[walletId] = {
      ...totals,
      expectedBalance,
      balance,
      discrepancy: balance - expectedBalance,
      yieldHeld: readAccrualState(db, walletId)?.yieldOutstandingMicros ?? 0,
    };
  }
  const keys = [
    "deposits",
    "yieldGenerated",
    "paidOut",
    "inFlight",
    "yieldWithdrawn",
    "expectedBalance",
    "balance",
    "discrepancy",
    "yieldHeld",
  ] as const;
  const total = Object.fromEntries(
    keys.map((key) => [key, Object.values(wallets).reduce((sum, w) => sum + w[key], 0)]),
  ) as unknown as LedgerTotals;
  const inUsd = (t: LedgerTotals) =>
    Object.fromEntries(keys.map((key) => [`${key}Usd`, microsToUsd(t[key])]));
  return {
    total: { ...inUsd(total), discrepancyMicros: total.discrepancy },
    wallets: Object.fromEntries(
      Object.entries(wallets).map(([id, t]) => [id, { ...inUsd(t), discrepancyMicros: t.discrepancy }]),
    ),
  };
}
