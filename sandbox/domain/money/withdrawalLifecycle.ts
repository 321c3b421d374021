import { formatExactUsd } from "../../../sdk/nodejs/contract/index.ts";
import { readAccrualState, readPendingMicros, readPositionMicros } from "../../store/holdingsStore.ts";
import { touchWallet } from "../../store/walletStore.ts";
import {
  findWithdrawalById,
  listLegs,
  replaceLegs,
  updateLegStatus,
  type LegRecord,
  type WithdrawalRecord,
} from "../../store/withdrawalStore.ts";
import { accrueWallet } from "./accrual.ts";
import { maxMicros, sumMicros } from "./micros.ts";
import type { MoneyDeps } from "./moneyDeps.ts";
import { planPayoutLegs } from "./payoutRouting.ts";
import { heldPositions, withdrawableMicros } from "./withdrawableFunds.ts";
import { recordLegStatus, recordWithdrawalStatus } from "./withdrawalEvents.ts";
import { debitLegs, recordPayout, returnLeg } from "./withdrawalLedger.ts";
import { startedLegs, withdrawalYieldShare } from "./withdrawalLegs.ts";
import { isFinished, legFailureReason, statusFromLegs } from "./withdrawalStatus.ts";

/**
 * The withdrawal lifecycle (spec 3.3) on the sandbox clock, as steps that each run inside the
 * caller's transaction. The statuses follow withdrawalStatus.ts; routing is payoutRouting.ts; the
 * legs' records withdrawalLegs.ts; money movements withdrawalLedger.ts; status writes and events
 * withdrawalEvents.ts. Here: which of them happen, in what order.
 */

/** Ends a withdrawal that never started (`pending_approval` or new): its planned legs are skipped. */
export function failBeforeStart(deps: MoneyDeps, record: WithdrawalRecord, reason: string, at: string): void {
  for (const leg of listLegs(deps.db, record.id)) {
    updateLegStatus(deps.db, record.id, leg.legKey, { status: "skipped", dueAt: null, updatedAt: at });
  }
  recordWithdrawalStatus(deps, record, { status: "failed", failureReason: reason }, record.status, at);
}

/**
 * Starts processing at `at`: settles the wallet's accrual, routes the amount, debits the positions
 * leg by leg with the withdrawal's share of the wallet's held yield, then pays the legs due at once
 * (the instant leg). Fails the withdrawal instead when the money is no longer there.
 */
export function startWithdrawal(
  deps: MoneyDeps,
  record: WithdrawalRecord,
  previousStatus: string | null,
  at: string,
): void {
  const wallet = { id: record.walletId, organizationId: record.organizationId };
  accrueWallet(deps.db, wallet, at);
  const available = withdrawableMicros(deps.db, record.walletId, record.id);
  const plans =
    available >= record.amountMicros
      ? planPayoutLegs(
          heldPositions(deps.db, record.walletId, deps.catalog(record.organizationId)),
          record.amountMicros,
        )
      : null;
  if (plans === null) {
    const availableText = formatExactUsd(maxMicros(0n, available));
    failBeforeStart(
      deps,
      record,
      `insufficient funds when processing started: ${availableText} withdrawable`,
      at,
    );
    return;
  }
  const walletTotal =
    sumMicros(readPositionMicros(deps.db, record.walletId).values()) +
    readPendingMicros(deps.db, record.walletId);
  const yieldShare = withdrawalYieldShare(
    record.amountMicros,
    readAccrualState(deps.db, record.walletId)?.yieldOutstandingMicros ?? 0n,
    walletTotal,
  );
  const failure = deps.faults.takeWithdrawalLegFailure(
    record.organizationId,
    record.walletId,
    plans.map((plan) => plan.legKey),
  );
  const legs = startedLegs(record.id, plans, at, { yieldShareMicros: yieldShare, failure });
  debitLegs(deps.db, record, legs, yieldShare, at);
  replaceLegs(deps.db, record.id, legs);
  touchWallet(deps.db, record.walletId, at);
  const processing = recordWithdrawalStatus(deps, record, { status: "processing" }, previousStatus, at);
  for (const leg of legs) recordLegStatus(deps, processing, leg, "processing", at);
  deps.emitWalletFigures(wallet, at, { positionsMoved: true });
  for (const leg of legs) {
    if (leg.dueAt === at) settleLeg(deps, processing, { ...leg, status: "processing" }, at);
  }
  deps.wake(record.organizationId);
}

/** A processing leg that is due: it pays out, or fails when a fault was planned for it. */
export function settleLeg(deps: MoneyDeps, withdrawal: WithdrawalRecord, leg: LegRecord, at: string): void {
  if (leg.plannedFailureReason !== null) {
    failLeg(deps, withdrawal, leg, leg.plannedFailureReason, at);
    return;
  }
  recordPayout(deps.db, withdrawal, leg, at);
  recordLegStatus(deps, withdrawal, leg, "completed", at);
  refreshStatus(deps, withdrawal.id, at);
}

/**
 * A leg failed: it and every leg not yet paid are stopped and their money goes back to the wallet
 * (paid legs stay paid); the withdrawal ends `failed`, saying which leg failed and what came back.
 */
function failLeg(
  deps: MoneyDeps,
  withdrawal: WithdrawalRecord,
  failed: LegRecord,
  reason: string,
  at: string,
): void {
  const wallet = { id: withdrawal.walletId, organizationId: withdrawal.organizationId };
  // Returned money earns again from `at`, never for the time it was out.
  accrueWallet(deps.db, wallet, at);
  let returned = 0n;
  for (const leg of listLegs(deps.db, withdrawal.id)) {
    if (leg.status !== "processing") continue;
    returnLeg(deps.db, withdrawal, leg, at);
    recordLegStatus(deps, withdrawal, leg, "failed", at);
    returned += leg.amountMicros;
  }
  touchWallet(deps.db, withdrawal.walletId, at);
  const current = findWithdrawalById(deps.db, withdrawal.id) ?? withdrawal;
  recordWithdrawalStatus(
    deps,
    current,
    {
      status: "failed",
      failureReason: legFailureReason(failed.legKey, reason, formatExactUsd(returned)),
    },
    current.status,
    at,
  );
  deps.emitWalletFigures(wallet, at, { positionsMoved: true });
}

/** Derives the withdrawal's status from its legs after one of them changed (withdrawalStatus.ts). */
function refreshStatus(deps: MoneyDeps, withdrawalId: string, at: string): void {
  const withdrawal = findWithdrawalById(deps.db, withdrawalId);
  if (withdrawal === null || isFinished(withdrawal.status)) return;
  const status = statusFromLegs(listLegs(deps.db, withdrawal.id).map((leg) => leg.status));
  if (status === withdrawal.status) return;
  recordWithdrawalStatus(
    deps,
    withdrawal,
    { status, ...(status === "completed" ? { completedAt: at } : {}) },
    withdrawal.status,
    at,
  );
}
