import {
  readAccrualState,
  readPendingMicros,
  readPositionMicros,
  writePositionMicros,
} from "../../store/holdingsStore.ts";
import { appendLedgerEntry } from "../../store/ledgerStore.ts";
import { touchWallet } from "../../store/walletStore.ts";
import {
  findWithdrawalById,
  heldForApprovalMicros,
  listLegs,
  replaceLegs,
  sourcesToJson,
  updateLegStatus,
  updateWithdrawal,
  type LegRecord,
  type WithdrawalRecord,
} from "../../store/withdrawalStore.ts";
import { accrueWallet, addYieldOutstanding } from "./accrual.ts";
import { formatExactUsd, microsToUsd } from "../../../sdk/contract/index.ts";
import { maxMicros, minMicros, mulDivFloor, splitByWeights, sumMicros } from "./micros.ts";
import { emitWalletFigures, type MoneyDeps } from "./moneyDeps.ts";
import { heldPositions, planPayoutLegs, type LegPlan } from "./payoutRouting.ts";

/**
 * The withdrawal lifecycle (spec 3.3), all on the sandbox clock:
 * (new) → `pending_approval` when the organization's policy needs approvals (the amount is held:
 * it stays in the wallet and earning, but no other withdrawal can spend it), → `processing` once
 * approved, or at once without a policy. Starting debits the positions (routing in
 * payoutRouting.ts): every leg goes `processing`; the `instant` leg pays out at once; a redeem
 * leg pays out after its maxProcessingTime. Some legs paid, others not → `partially_completed`;
 * all paid → `completed` with completedAt. A failing leg (fault injection) ends the withdrawal
 * `failed`: that leg and every leg not yet paid return their money to the positions it came from.
 * A rejected approval ends it `failed` with nothing debited.
 */

const later = (iso: string, ms: number) => new Date(Date.parse(iso) + ms).toISOString();

export function setWithdrawalStatus(
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

function setLegStatus(
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

const legFromPlan = (withdrawalId: string, plan: LegPlan, index: number, at: string): LegRecord => ({
  withdrawalId,
  legKey: plan.legKey,
  sortOrder: index,
  amountMicros: plan.amountMicros,
  yieldMicros: 0n,
  maxProcessingTime: plan.maxProcessingTime,
  sources: plan.sources,
  status: "pending",
  dueAt: null,
  plannedFailureReason: null,
  updatedAt: at,
});

/** Legs as planned before processing starts (status `pending`): what the withdrawal would do now. */
export function previewLegs(withdrawalId: string, plans: readonly LegPlan[], at: string): LegRecord[] {
  return plans.map((plan, index) => legFromPlan(withdrawalId, plan, index, at));
}

/** Micros the wallet can still withdraw: what its positions hold, less what pending approvals hold. */
export function withdrawableMicros(
  deps: MoneyDeps,
  walletId: string,
  exceptWithdrawalId: string | null,
): bigint {
  const held = sumMicros(readPositionMicros(deps.db, walletId).values());
  return held - heldForApprovalMicros(deps.db, walletId, exceptWithdrawalId);
}

/** Ends a withdrawal that never started (`pending_approval` or new): its planned legs are skipped. */
export function failBeforeStart(deps: MoneyDeps, record: WithdrawalRecord, reason: string, at: string): void {
  for (const leg of listLegs(deps.db, record.id)) {
    updateLegStatus(deps.db, record.id, leg.legKey, { status: "skipped", dueAt: null, updatedAt: at });
  }
  setWithdrawalStatus(deps, record, { status: "failed", failureReason: reason }, record.status, at);
}

/**
 * Starts processing: debits the positions leg by leg at `at`, with the withdrawal's share of the
 * wallet's held yield (pro rata: amount × yield held / wallet balance) split over the legs, then
 * pays the instant leg. Fails the withdrawal instead when the money is no longer there.
 */
export function startWithdrawal(
  deps: MoneyDeps,
  record: WithdrawalRecord,
  previousStatus: string | null,
  at: string,
): void {
  const wallet = { id: record.walletId, organizationId: record.organizationId };
  accrueWallet(deps.db, wallet, at);
  const available = withdrawableMicros(deps, record.walletId, record.id);
  const plans =
    available >= record.amountMicros
      ? planPayoutLegs(heldPositions(deps.db, record.walletId, deps.catalog()), record.amountMicros)
      : null;
  if (plans === null) {
    failBeforeStart(
      deps,
      record,
      `insufficient funds when processing started: ${formatExactUsd(maxMicros(0n, available))} withdrawable`,
      at,
    );
    return;
  }
  const held = readPositionMicros(deps.db, record.walletId);
  const walletTotal = sumMicros(held.values()) + readPendingMicros(deps.db, record.walletId);
  const yieldHeld = minMicros(
    readAccrualState(deps.db, record.walletId)?.yieldOutstandingMicros ?? 0n,
    walletTotal,
  );
  const yieldShare = mulDivFloor(record.amountMicros, maxMicros(0n, yieldHeld), walletTotal);
  const legYields = splitByWeights(
    yieldShare,
    plans.map((plan) => plan.amountMicros),
  );
  const fault = deps.faults.takeWithdrawalLegFailure(
    record.organizationId,
    record.walletId,
    plans.map((plan) => plan.legKey),
  );
  const legs: LegRecord[] = plans.map((plan, index) => ({
    ...legFromPlan(record.id, plan, index, at),
    yieldMicros: legYields[index] ?? 0n,
    dueAt: later(at, plan.delayMs),
    plannedFailureReason: fault?.legKey === plan.legKey ? fault.reason : null,
  }));
  for (const leg of legs) {
    for (const source of leg.sources) {
      const before = held.get(source.positionKey) ?? 0n;
      held.set(source.positionKey, before - source.micros);
      writePositionMicros(deps.db, record.walletId, source.positionKey, before - source.micros, at);
    }
    appendLedgerEntry(deps.db, {
      organizationId: record.organizationId,
      walletId: record.walletId,
      kind: "withdrawal_debited",
      positionKey: null,
      amountMicros: leg.amountMicros,
      yieldMicros: leg.yieldMicros,
      refId: record.id,
      detail: `{"legKey":${JSON.stringify(leg.legKey)},"sources":${sourcesToJson(leg.sources)}}`,
      fromAt: null,
      at,
    });
  }
  addYieldOutstanding(deps.db, record.walletId, -yieldShare, at);
  replaceLegs(deps.db, record.id, legs);
  touchWallet(deps.db, record.walletId, at);
  const processing = setWithdrawalStatus(deps, record, { status: "processing" }, previousStatus, at);
  for (const leg of legs) setLegStatus(deps, processing, leg, "processing", at);
  emitWalletFigures(deps, wallet, at, { positionsMoved: true });
  for (const leg of legs) {
    if (leg.dueAt === at) settleLeg(deps, processing, { ...leg, status: "processing" }, at);
  }
  deps.wake();
}

/** A processing leg that is due: it pays out, or fails when a fault was planned for it. */
export function settleLeg(deps: MoneyDeps, withdrawal: WithdrawalRecord, leg: LegRecord, at: string): void {
  if (leg.plannedFailureReason !== null) {
    failLeg(deps, withdrawal, leg, leg.plannedFailureReason, at);
    return;
  }
  appendLedgerEntry(deps.db, {
    organizationId: withdrawal.organizationId,
    walletId: withdrawal.walletId,
    kind: "payout_completed",
    positionKey: null,
    amountMicros: leg.amountMicros,
    yieldMicros: leg.yieldMicros,
    refId: withdrawal.id,
    detail: JSON.stringify({ legKey: leg.legKey }),
    fromAt: null,
    at,
  });
  setLegStatus(deps, withdrawal, leg, "completed", at);
  refreshStatus(deps, withdrawal.id, at);
}

/** Puts a leg's money back in the positions it came from, with its yield share. */
function returnLegFunds(deps: MoneyDeps, withdrawal: WithdrawalRecord, leg: LegRecord, at: string): void {
  const held = readPositionMicros(deps.db, withdrawal.walletId);
  for (const source of leg.sources) {
    writePositionMicros(
      deps.db,
      withdrawal.walletId,
      source.positionKey,
      (held.get(source.positionKey) ?? 0n) + source.micros,
      at,
    );
  }
  addYieldOutstanding(deps.db, withdrawal.walletId, leg.yieldMicros, at);
  appendLedgerEntry(deps.db, {
    organizationId: withdrawal.organizationId,
    walletId: withdrawal.walletId,
    kind: "payout_returned",
    positionKey: null,
    amountMicros: leg.amountMicros,
    yieldMicros: leg.yieldMicros,
    refId: withdrawal.id,
    detail: `{"legKey":${JSON.stringify(leg.legKey)},"sources":${sourcesToJson(leg.sources)}}`,
    fromAt: null,
    at,
  });
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
    returnLegFunds(deps, withdrawal, leg, at);
    setLegStatus(deps, withdrawal, leg, "failed", at);
    returned += leg.amountMicros;
  }
  touchWallet(deps.db, withdrawal.walletId, at);
  const current = findWithdrawalById(deps.db, withdrawal.id) ?? withdrawal;
  setWithdrawalStatus(
    deps,
    current,
    {
      status: "failed",
      failureReason: `payout leg ${failed.legKey} failed: ${reason}; ${formatExactUsd(returned)} returned to the wallet`,
    },
    current.status,
    at,
  );
  emitWalletFigures(deps, wallet, at, { positionsMoved: true });
}

/** Derives the withdrawal's status from its legs after one of them changed. */
function refreshStatus(deps: MoneyDeps, withdrawalId: string, at: string): void {
  const withdrawal = findWithdrawalById(deps.db, withdrawalId);
  if (withdrawal === null || withdrawal.status === "failed") return;
  const legs = listLegs(deps.db, withdrawal.id);
  const done = (status: string) => status === "completed" || status === "skipped";
  const status = legs.every((leg) => done(leg.status))
    ? "completed"
    : legs.some((leg) => leg.status === "completed")
      ? "partially_completed"
      : "processing";
  if (status === withdrawal.status) return;
  setWithdrawalStatus(
    deps,
    withdrawal,
    { status, ...(status === "completed" ? { completedAt: at } : {}) },
    withdrawal.status,
    at,
  );
}
