import { microsToUsd } from "../../../sdk/nodejs/contract/index.ts";
import {
  updateLegStatus,
  updateWithdrawal,
  type LegRecord,
  type WithdrawalRecord,
} from "../../store/withdrawalStore.ts";
import type { MoneyDeps } from "./moneyDeps.ts";

/**
 * Status changes of withdrawals and their legs, each stored together with its webhook event
 * (`portfolio_wallet.withdrawal.status_changed`, `...withdrawal.payout.status_changed`), inside
 * the caller's transaction.
 */

/** Stores the withdrawal's new status and emits its event; returns the record as stored. */
export function recordWithdrawalStatus(
  deps: MoneyDeps,
  record: WithdrawalRecord,
  change: { status: string; failureReason?: string | null; completedAt?: string | null },
  previousStatus: string | null,
  at: string,
): WithdrawalRecord {
  const next: WithdrawalRecord = {
    ...record,
    status: change.status,
    failureReason: change.failureReason ?? record.failureReason,
    completedAt: change.completedAt ?? record.completedAt,
    updatedAt: at,
  };
  updateWithdrawal(deps.db, record.id, next);
  deps.events.emit(
    record.organizationId,
    "portfolio_wallet.withdrawal.status_changed",
    {
      portfolioWalletId: record.walletId,
      withdrawal: {
        id: record.id,
        requestId: record.requestId,
        status: next.status,
        failureReason: next.failureReason,
        withdrawalAmount: microsToUsd(record.amountMicros),
      },
      previousStatus,
    },
    at,
  );
  return next;
}

/** Stores a leg's new status and emits its payout event. A leg keeps its due time only while processing. */
export function recordLegStatus(
  deps: MoneyDeps,
  withdrawal: WithdrawalRecord,
  leg: LegRecord,
  status: string,
  at: string,
): void {
  updateLegStatus(deps.db, withdrawal.id, leg.legKey, {
    status,
    dueAt: status === "processing" ? leg.dueAt : null,
    updatedAt: at,
  });
  deps.events.emit(
    withdrawal.organizationId,
    "portfolio_wallet.withdrawal.payout.status_changed",
    {
      portfolioWalletId: withdrawal.walletId,
      withdrawalId: withdrawal.id,
      payout: {
        legKey: leg.legKey,
        amount: microsToUsd(leg.amountMicros),
        status,
        token: withdrawal.destinationToken,
        chain: withdrawal.destinationChain,
        destinationAddress: withdrawal.destinationAddress,
      },
      previousStatus: leg.status,
    },
    at,
  );
}
