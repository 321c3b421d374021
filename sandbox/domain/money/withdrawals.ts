import { randomUUID } from "node:crypto";
import {
  formatExactUsd,
  microsToUsd,
  usdToMicros,
  type Page,
  type Withdrawal,
  type WithdrawalListItem,
  type WithdrawRequest,
  SERVICE_OPERATIONS_BY_ID,
} from "../../../sdk/nodejs/contract/index.ts";
import { pageFrom, type PageRequest } from "../pagination.ts";
import { InsufficientFundsError, NotFoundError, ValidationError } from "../errors.ts";
import { inTransaction } from "../../store/connection.ts";
import { getPolicy } from "../../store/policyStore.ts";
import { findSigningActivity } from "../../store/signingActivityStore.ts";
import { findWallet } from "../../store/walletStore.ts";
import {
  findWithdrawal,
  findWithdrawalById,
  insertWithdrawal,
  listLegs,
  listWithdrawals,
  replaceLegs,
  type LegRecord,
  type WithdrawalRecord,
} from "../../store/withdrawalStore.ts";
import { createSigningActivity, type ApprovalContinuation } from "../approvals.ts";
import { idempotencyScopeOf, runIdempotent } from "../idempotency.ts";
import { accrueWallet } from "./accrual.ts";
import { MAX_OPERATION_MICROS } from "./limits.ts";

import type { MoneyDeps } from "./moneyDeps.ts";
import { planPayoutLegs } from "./payoutRouting.ts";
import { heldPositions, withdrawableMicros } from "./withdrawableFunds.ts";
import { recordWithdrawalStatus } from "./withdrawalEvents.ts";
import { failBeforeStart, settleLeg, startWithdrawal } from "./withdrawalLifecycle.ts";
import { plannedLegs } from "./withdrawalLegs.ts";
import { payoutLegTimes } from "./withdrawalLedger.ts";

/** Idempotency scope of the withdraw POST. */
export const WITHDRAW_ENDPOINT = idempotencyScopeOf(SERVICE_OPERATIONS_BY_ID.withdrawFromPortfolioWallet);

/** The withdrawal as spec 2.8 shows it. Payouts are the legs that have started. */
export function withdrawalView(deps: MoneyDeps, record: WithdrawalRecord): Withdrawal {
  const legs = listLegs(deps.db, record.id);
  const times = payoutLegTimes(deps.db, record);
  const activity =
    record.signingActivityId === null
      ? null
      : findSigningActivity(deps.db, record.organizationId, record.signingActivityId);
  return {
    id: record.id,
    requestId: record.requestId,
    portfolioWalletId: record.walletId,
    status: record.status,
    withdrawalAmount: microsToUsd(record.amountMicros),
    destinationToken: record.destinationToken,
    destinationChain: record.destinationChain,
    destinationAddress: record.destinationAddress,
    createdAt: record.createdAt,
    updatedAt: record.updatedAt,
    failureReason: record.failureReason,
    plannedLegs: legs.map((leg) => ({
      legKey: leg.legKey,
      amount: microsToUsd(leg.amountMicros),
      positionKeys: leg.sources.map((source) => source.positionKey),
      maxProcessingTime: leg.maxProcessingTime,
    })),
    legStatuses: Object.fromEntries(legs.map((leg) => [leg.legKey, leg.status])),
    completedAt: record.completedAt,
    signingActivityId: record.signingActivityId,
    signingActivityStatus: activity?.status ?? null,
    payouts: legs
      .filter((leg) => leg.status !== "pending" && leg.status !== "skipped")
      .map((leg) => ({
        legKey: leg.legKey,
        amount: microsToUsd(leg.amountMicros),
        token: record.destinationToken,
        chain: record.destinationChain,
        destinationAddress: record.destinationAddress,
        status: leg.status,
        ...(times.get(leg.legKey) ?? { debitedAt: null, paidAt: null, returnedAt: null }),
      })),
  };
}

/**
 * Creates a withdrawal, or answers the one made earlier with the same requestId and body (a
 * repeated requestId never pays twice). The amount must be at most the withdrawable balance:
 * what the positions hold (pending allocations are not invested yet, so not withdrawable) less
 * what withdrawals awaiting approval hold; otherwise 422 `insufficient_funds` naming the amount
 * available, and no idempotency key is kept, so the same request can be retried after a deposit.
 */
export function requestWithdrawal(
  deps: MoneyDeps,
  organizationId: string,
  walletId: string,
  body: WithdrawRequest,
): { withdrawal: Withdrawal; replayed: boolean } {
  const wallet = findWallet(deps.db, organizationId, walletId);
  if (wallet === null) throw new NotFoundError(`portfolio wallet ${walletId}`);
  const amountMicros = usdToMicros(body.withdrawalAmount);
  if (amountMicros < 1n) {
    throw new ValidationError([
      { field: "withdrawalAmount", reason: "must be at least 0.000001 (one micro-unit)" },
    ]);
  }
  if (amountMicros > MAX_OPERATION_MICROS) {
    throw new ValidationError([
      {
        field: "withdrawalAmount",
        reason: `must be at most ${formatExactUsd(MAX_OPERATION_MICROS)} (one withdrawal); split a larger amount into several withdrawals`,
      },
    ]);
  }
  const at = deps.clocks.now(organizationId).toISOString();
  const outcome = runIdempotent(
    deps.db,
    {
      organizationId,
      endpoint: WITHDRAW_ENDPOINT,
      requestId: body.requestId,
      canonicalBody: {
        walletId,
        amountMicros,
        destinationToken: body.destinationToken,
        destinationChain: body.destinationChain,
        destinationAddress: body.destinationAddress,
      },
    },
    () => createWithdrawal(deps, { organizationId, walletId, amountMicros, body, at }),
    at,
  );
  const record = findWithdrawal(deps.db, organizationId, outcome.resourceId);
  if (record === null) throw new Error(`withdrawal ${outcome.resourceId} vanished after creation`);
  return { withdrawal: withdrawalView(deps, record), replayed: outcome.replayed };
}

function createWithdrawal(
  deps: MoneyDeps,
  input: {
    organizationId: string;
    walletId: string;
    amountMicros: bigint;
    body: WithdrawRequest;
    at: string;
  },
): string {
  const { organizationId, walletId, amountMicros, body, at } = input;
  accrueWallet(deps.db, { id: walletId, organizationId }, at);
  const available = withdrawableMicros(deps.db, walletId, null);
  if (amountMicros > available) {
    const availableText = formatExactUsd(available > 0n ? available : 0n);
    throw new InsufficientFundsError(
      `withdrawalAmount ${formatExactUsd(amountMicros)} exceeds the withdrawable balance of ${availableText}; withdraw at most that (pending allocations become withdrawable once allocated)`,
      [{ field: "withdrawalAmount", reason: `exceeds the withdrawable balance of ${availableText}` }],
    );
  }
  const requiredApprovals = getPolicy(deps.db, organizationId).withdrawalApprovals;
  const record: WithdrawalRecord = {
    id: randomUUID(),
    organizationId,
    walletId,
    requestId: body.requestId,
    status: requiredApprovals > 0 ? "pending_approval" : "processing",
    amountMicros,
    destinationToken: body.destinationToken,
    destinationChain: body.destinationChain,
    destinationAddress: body.destinationAddress,
    signingActivityId: null,
    failureReason: null,
    createdAt: at,
    updatedAt: at,
    completedAt: null,
  };
  if (requiredApprovals === 0) {
    insertWithdrawal(deps.db, record);
    startWithdrawal(deps, record, null, at);
    return record.id;
  }
  const activity = createSigningActivity(deps.approvals, {
    organizationId,
    kind: "withdrawal",
    subjectId: record.id,
    requiredApprovals,
  });
  const pending = { ...record, signingActivityId: activity.id };
  insertWithdrawal(deps.db, pending);
  const plans =
    planPayoutLegs(heldPositions(deps.db, walletId, deps.catalog(organizationId)), amountMicros) ?? [];
  replaceLegs(deps.db, record.id, plannedLegs(record.id, plans, at));
  recordWithdrawalStatus(deps, pending, { status: "pending_approval" }, null, at);
  return record.id;
}

/** Continues or fails a withdrawal once its signing activity is decided (see domain/approvals.ts). */
export function withdrawalContinuation(deps: MoneyDeps): ApprovalContinuation {
  return {
    onApproved(activity) {
      const record = findWithdrawal(deps.db, activity.organizationId, activity.subjectId);
      if (record?.status === "pending_approval")
        startWithdrawal(deps, record, record.status, activity.updatedAt);
    },
    onRejected(activity, reason) {
      const record = findWithdrawal(deps.db, activity.organizationId, activity.subjectId);
      if (record?.status === "pending_approval") {
        failBeforeStart(deps, record, `approval rejected: ${reason}`, activity.updatedAt);
      }
    },
  };
}

/** Pays out (or fails) a leg that is due, at its due time, in its own transaction. */
export function settleDueLeg(deps: MoneyDeps, leg: LegRecord): void {
  inTransaction(deps.db, () => {
    const withdrawal = findWithdrawalById(deps.db, leg.withdrawalId);
    if (withdrawal === null || leg.dueAt === null) return;
    settleLeg(deps, withdrawal, leg, leg.dueAt);
  });
}

export function getWithdrawal(
  deps: MoneyDeps,
  organizationId: string,
  walletId: string,
  withdrawalId: string,
): Withdrawal {
  const record = findWithdrawal(deps.db, organizationId, withdrawalId);
  if (record === null || record.walletId !== walletId) {
    throw new NotFoundError(`withdrawal ${withdrawalId} of wallet ${walletId}`);
  }
  return withdrawalView(deps, record);
}

/** Spec 4.9: `{ data: [list item], pageSize, nextCursor }`, newest first. */
export function listWithdrawalPage(
  deps: MoneyDeps,
  organizationId: string,
  walletId: string,
  page: PageRequest,
): Page<WithdrawalListItem> {
  if (findWallet(deps.db, organizationId, walletId) === null)
    throw new NotFoundError(`portfolio wallet ${walletId}`);
  const rows = listWithdrawals(deps.db, walletId, page.cursor, page.pageSize + 1);
  const { data, nextCursor } = pageFrom(rows, page.pageSize);
  return {
    data: data.map((w) => ({
      id: w.id,
      requestId: w.requestId,
      status: w.status,
      withdrawalAmount: microsToUsd(w.amountMicros),
      destinationChain: w.destinationChain,
      destinationToken: w.destinationToken,
      destinationAddress: w.destinationAddress,
    })),
    pageSize: page.pageSize,
    nextCursor,
  };
}
