import type { DatabaseSync } from "node:sqlite";
import { microsToUsd, type YieldSource } from "../../sdk/nodejs/contract/index.ts";
import {
  findSigningActivity,
  listSigningActivities,
  type SigningActivityRecord,
} from "../store/signingActivityStore.ts";
import { listVotes } from "../store/signingProviderStore.ts";
import { findStrategyUpdate } from "../store/strategyUpdateStore.ts";
import { findWallet, listTargets } from "../store/walletStore.ts";
import { findWithdrawal, listLegs } from "../store/withdrawalStore.ts";
import { ACTIVITY_STATUS } from "./approvals.ts";
import { heldPositions } from "./money/withdrawableFunds.ts";
import { planPayoutLegs } from "./money/payoutRouting.ts";

/** A target allocation entry, as the strategy update and the wallet hold it. */
interface Weight {
  positionKey: string;
  targetWeightBps: number;
}

/** What approving an activity would do: the operation waiting on it. */
export type ApprovalOperation =
  | {
      kind: "strategy_update";
      strategyUpdateId: string;
      status: string | null;
      /** The wallet's target allocation now. */
      currentPositions: Weight[];
      /** The allocation approving would apply. */
      proposedPositions: Weight[];
    }
  | {
      kind: "withdrawal";
      withdrawalId: string;
      status: string | null;
      withdrawalAmount: number;
      destinationToken: string;
      destinationChain: string;
      destinationAddress: string;
      /**
       * The payout legs with the sources each draws from. Routing is fixed when processing starts
       * (after approval), so until then these are the legs the wallet's positions would pay now
       * (`legsRouted: false`), by the rule processing applies (payoutRouting.ts).
       */
      plannedLegs: PlannedLeg[];
      legsRouted: boolean;
    }
  | { kind: string; subjectId: string };

/** A payout leg: how much, from which sources, and how long its slowest source takes to pay. */
export interface PlannedLeg {
  legKey: string;
  amount: number;
  maxProcessingTime: string;
  sources: { positionKey: string; amount: number }[];
}

/** A key's vote on an activity, as the signing provider recorded it. */
export interface ApprovalVote {
  publicKey: string;
  selection: string;
  createdAt: string;
}

/**
 * A signing activity of the organization with the operation it decides: what an approver needs
 * to see before voting. Votes are counted as the signing provider counts them (one per key).
 */
export interface ApprovalRequest {
  signingActivityId: string;
  status: string;
  requiredApprovals: number;
  approvals: number;
  rejections: number;
  /** Every vote cast, oldest first: who approved or rejected, and when. */
  votes: ApprovalVote[];
  failureReason: string | null;
  createdAt: string;
  updatedAt: string;
  walletId: string | null;
  walletLabel: string | null;
  operation: ApprovalOperation;
}

/** `pending`: activities still waiting for votes; `all`: every activity, decided ones included. */
export type ApprovalRequestFilter = { status: "pending" | "all"; limit: number };

/**
 * The organization's signing activities, newest first, each with what it would do. Nothing here
 * is another organization's: activities, operations and wallets are all looked up within it.
 */
export function listApprovalRequests(
  db: DatabaseSync,
  organizationId: string,
  filter: ApprovalRequestFilter,
  catalog: readonly YieldSource[],
): ApprovalRequest[] {
  const activities = listSigningActivities(db, organizationId, {
    ...(filter.status === "pending" ? { status: ACTIVITY_STATUS.consensusNeeded } : {}),
    limit: filter.limit,
  });
  return activities.map((activity) => approvalRequestOf(db, activity, catalog));
}

/** One signing activity of the organization with what it would do, or null when it has none such. */
export function findApprovalRequest(
  db: DatabaseSync,
  organizationId: string,
  id: string,
  catalog: readonly YieldSource[],
): ApprovalRequest | null {
  const activity = findSigningActivity(db, organizationId, id);
  return activity === null ? null : approvalRequestOf(db, activity, catalog);
}

function approvalRequestOf(
  db: DatabaseSync,
  activity: SigningActivityRecord,
  catalog: readonly YieldSource[],
): ApprovalRequest {
  const votes = listVotes(db, activity.id);
  const { walletId, operation } = operationOf(db, activity, catalog);
  const wallet = walletId === null ? null : findWallet(db, activity.organizationId, walletId);
  return {
    signingActivityId: activity.id,
    status: activity.status,
    requiredApprovals: activity.requiredApprovals,
    approvals: votes.filter((vote) => vote.selection === "VOTE_SELECTION_APPROVED").length,
    rejections: votes.filter((vote) => vote.selection === "VOTE_SELECTION_REJECTED").length,
    votes: votes.map((vote) => ({
      publicKey: vote.publicKey,
      selection: vote.selection,
      createdAt: vote.createdAt,
    })),
    failureReason: activity.failureReason,
    createdAt: activity.createdAt,
    updatedAt: activity.updatedAt,
    walletId,
    walletLabel: wallet?.label ?? null,
    operation,
  };
}

function operationOf(
  db: DatabaseSync,
  activity: SigningActivityRecord,
  catalog: readonly YieldSource[],
): { walletId: string | null; operation: ApprovalOperation } {
  const { organizationId, subjectId } = activity;
  switch (activity.kind) {
    case "strategy_update": {
      const update = findStrategyUpdate(db, organizationId, subjectId);
      if (update === null) break;
      return {
        walletId: update.walletId,
        operation: {
          kind: "strategy_update",
          strategyUpdateId: update.id,
          status: update.status,
          currentPositions: listTargets(db, update.walletId).map((target) => ({
            positionKey: target.positionKey,
            targetWeightBps: target.targetWeightBps,
          })),
          proposedPositions: update.positions,
        },
      };
    }
    case "withdrawal": {
      const withdrawal = findWithdrawal(db, organizationId, subjectId);
      if (withdrawal === null) break;
      const routed = listLegs(db, withdrawal.id).map((leg) => ({
        legKey: leg.legKey,
        amountMicros: leg.amountMicros,
        maxProcessingTime: leg.maxProcessingTime,
        sources: leg.sources,
      }));
      const legs =
        routed.length > 0
          ? routed
          : (planPayoutLegs(heldPositions(db, withdrawal.walletId, catalog), withdrawal.amountMicros) ?? []);
      return {
        walletId: withdrawal.walletId,
        operation: {
          kind: "withdrawal",
          withdrawalId: withdrawal.id,
          status: withdrawal.status,
          withdrawalAmount: microsToUsd(withdrawal.amountMicros),
          destinationToken: withdrawal.destinationToken,
          destinationChain: withdrawal.destinationChain,
          destinationAddress: withdrawal.destinationAddress,
          plannedLegs: legs.map((leg) => ({
            legKey: leg.legKey,
            amount: microsToUsd(leg.amountMicros),
            maxProcessingTime: leg.maxProcessingTime,
            sources: leg.sources.map((source) => ({
              positionKey: source.positionKey,
              amount: microsToUsd(source.micros),
            })),
          })),
          legsRouted: routed.length > 0,
        },
      };
    }
    default:
      break;
  }
  // A kind this version does not know, or an operation that is gone: shown by its ids only.
  return { walletId: null, operation: { kind: activity.kind, subjectId } };
}
