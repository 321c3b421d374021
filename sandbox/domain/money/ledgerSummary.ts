import type { DatabaseSync } from "node:sqlite";
import { pendingAccrualsOfOrganization, type PendingAccrual } from "./accrual.ts";
import { ledgerSums, type LedgerKind } from "../../store/ledgerStore.ts";
import { microsToUsd } from "../../../sdk/nodejs/contract/index.ts";
import { sumMicros } from "./micros.ts";

const livePositions = (pending: PendingAccrual) =>
  [...pending.byPosition.values()].map((position) => position.held + position.earned);

/** Ledger totals of one wallet, in micros. */
export interface LedgerTotals {
  deposits: bigint;
  yieldGenerated: bigint;
  paidOut: bigint;
  inFlight: bigint;
  yieldWithdrawn: bigint;
  /** What the ledger says the wallet holds: deposits + yield − paid out − in flight. */
  expectedBalance: bigint;
  /** What the wallet holds: positions + pending allocations. */
  balance: bigint;
  /** balance − expectedBalance: always 0 (conservation); anything else is a sandbox bug. */
  discrepancy: bigint;
  yieldHeld: bigint;
}

const zero = (): Omit<LedgerTotals, "expectedBalance" | "balance" | "discrepancy" | "yieldHeld"> => ({
  deposits: 0n,
  yieldGenerated: 0n,
  paidOut: 0n,
  inFlight: 0n,
  yieldWithdrawn: 0n,
});

/**
 * Audits the organization's wallets against the ledger: for each wallet and in total,
 * balance + paid out + in flight = deposits + yield generated, to the micro.
 */
export function ledgerSummary(db: DatabaseSync, organizationId: string, nowIso: string) {
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
  for (const { walletId, pendingMicros, accrual } of pendingAccrualsOfOrganization(
    db,
    organizationId,
    nowIso,
  )) {
    const settled = sums.get(walletId) ?? zero();
    // Yield earned since the last settlement is part of the balance and of the yield generated,
    // though no entry records it yet: it is credited when money next moves (accrual.ts).
    const totals = { ...settled, yieldGenerated: settled.yieldGenerated + accrual.earned };
    const expectedBalance = totals.deposits + totals.yieldGenerated - totals.paidOut - totals.inFlight;
    const balance = sumMicros(livePositions(accrual)) + pendingMicros;
    wallets[walletId] = {
      ...totals,
      expectedBalance,
      balance,
      discrepancy: balance - expectedBalance,
      yieldHeld: accrual.yieldOutstandingMicros + accrual.earned,
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
    keys.map((key) => [key, sumMicros(Object.values(wallets).map((w) => w[key]))]),
  ) as unknown as LedgerTotals;
  const inUsd = (t: LedgerTotals) =>
    Object.fromEntries(keys.map((key) => [`${key}Usd`, microsToUsd(t[key])]));
  return {
    total: { ...inUsd(total), discrepancyMicros: Number(total.discrepancy) },
    wallets: Object.fromEntries(
      Object.entries(wallets).map(([id, t]) => [
        id,
        { ...inUsd(t), discrepancyMicros: Number(t.discrepancy) },
      ]),
    ),
  };
}
