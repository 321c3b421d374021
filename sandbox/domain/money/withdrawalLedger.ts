import type { DatabaseSync } from "node:sqlite";
import { readPositionMicros } from "../../store/holdingsStore.ts";
import { appendLedgerEntry, listLedgerEntriesOfRef } from "../../store/ledgerStore.ts";
import { sourcesToJson, type LegRecord, type WithdrawalRecord } from "../../store/withdrawalStore.ts";
import { addYieldOutstanding, setPositionMicros } from "./accrual.ts";

/**
 * The money a withdrawal moves, each movement with its ledger entry: legs debited from the
 * positions into flight, paid out, or returned to the positions they came from.
 */

const legDetail = (leg: LegRecord, withSources: boolean) =>
  withSources
    ? `{"legKey":${JSON.stringify(leg.legKey)},"sources":${sourcesToJson(leg.sources)}}`
    : JSON.stringify({ legKey: leg.legKey });

function ledgerEntryOf(
  withdrawal: WithdrawalRecord,
  leg: LegRecord,
  kind: "withdrawal_debited" | "payout_completed" | "payout_returned",
  at: string,
) {
  return {
    organizationId: withdrawal.organizationId,
    walletId: withdrawal.walletId,
    kind,
    positionKey: null,
    amountMicros: leg.amountMicros,
    yieldMicros: leg.yieldMicros,
    refId: withdrawal.id,
    detail: legDetail(leg, kind !== "payout_completed"),
    fromAt: null,
    at,
  };
}

const walletOf = (withdrawal: WithdrawalRecord) => ({
  id: withdrawal.walletId,
  organizationId: withdrawal.organizationId,
});

/** Takes each leg's sources out of the positions (money now in flight) and the yield share out of the held yield. */
export function debitLegs(
  db: DatabaseSync,
  withdrawal: WithdrawalRecord,
  legs: readonly LegRecord[],
  yieldShareMicros: bigint,
  at: string,
): void {
  const held = readPositionMicros(db, withdrawal.walletId);
  for (const leg of legs) {
    for (const source of leg.sources) {
      const after = (held.get(source.positionKey) ?? 0n) - source.micros;
      held.set(source.positionKey, after);
      setPositionMicros(db, walletOf(withdrawal), source.positionKey, after, at);
    }
    appendLedgerEntry(db, ledgerEntryOf(withdrawal, leg, "withdrawal_debited", at));
  }
  addYieldOutstanding(db, withdrawal.walletId, -yieldShareMicros, at);
}

/** A leg's money reached its destination. */
export function recordPayout(
  db: DatabaseSync,
  withdrawal: WithdrawalRecord,
  leg: LegRecord,
  at: string,
): void {
  appendLedgerEntry(db, ledgerEntryOf(withdrawal, leg, "payout_completed", at));
}

/** Puts a leg's money back in the positions it came from, with its yield share. */
export function returnLeg(db: DatabaseSync, withdrawal: WithdrawalRecord, leg: LegRecord, at: string): void {
  const held = readPositionMicros(db, withdrawal.walletId);
  for (const source of leg.sources) {
    setPositionMicros(
      db,
      walletOf(withdrawal),
      source.positionKey,
      (held.get(source.positionKey) ?? 0n) + source.micros,
      at,
    );
  }
  addYieldOutstanding(db, withdrawal.walletId, leg.yieldMicros, at);
  appendLedgerEntry(db, ledgerEntryOf(withdrawal, leg, "payout_returned", at));
}

/** When a payout leg's money left the wallet, reached its destination, or came back (null: not yet). */
export interface PayoutMoneyTimes {
  debitedAt: string | null;
  paidAt: string | null;
  returnedAt: string | null;
}

/**
 * Each leg's times, by legKey, from the withdrawal's own ledger entries (index ledger_by_wallet_ref):
 * the ledger is where they are booked, so a statement dates each movement as the ledger does.
 */
export function payoutLegTimes(
  db: DatabaseSync,
  withdrawal: WithdrawalRecord,
): Map<string, PayoutMoneyTimes> {
  const times = new Map<string, PayoutMoneyTimes>();
  for (const entry of listLedgerEntriesOfRef(db, withdrawal.walletId, withdrawal.id)) {
    const legKey = (JSON.parse(entry.detail ?? "{}") as { legKey?: string }).legKey;
    if (legKey === undefined) continue;
    const leg = times.get(legKey) ?? { debitedAt: null, paidAt: null, returnedAt: null };
    if (entry.kind === "withdrawal_debited") leg.debitedAt = entry.at;
    if (entry.kind === "payout_completed") leg.paidAt = entry.at;
    if (entry.kind === "payout_returned") leg.returnedAt = entry.at;
    times.set(legKey, leg);
  }
  return times;
}
