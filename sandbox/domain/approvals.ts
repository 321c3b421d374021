import { createHash, randomUUID } from "node:crypto";
import type { DatabaseSync } from "node:sqlite";
import type { OrganizationClocks } from "../clock.ts";
import { ConflictError, NotFoundError } from "./errors.ts";
import { inTransaction } from "../store/connection.ts";
import {
  findSigningActivity,
  insertSigningActivity,
  updateSigningActivityStatus,
  type SigningActivityRecord,
} from "../store/signingActivityStore.ts";

/**
 * Approvals of withdrawals and strategy updates (spec 4.14), in one module.
 *
 * An operation that needs approval calls `createSigningActivity` and parks itself in
 * `pending_approval`. Whatever decides the activity (today the admin API; next, the Turnkey-style
 * endpoints with stamp verification and votes) calls `resolveSigningActivity`, which records the
 * decision and hands the operation back to its owner through the `ApprovalContinuation`
 * registered for the activity's kind: approved → the operation continues by itself; rejected →
 * the operation fails with a failureReason. Vote counting belongs to the caller of
 * `resolveSigningActivity`: call it once `requiredApprovals` votes are in.
 *
 * Statuses use the signing provider's vocabulary so a Turnkey client reads them unchanged.
 */
export const ACTIVITY_STATUS = {
  consensusNeeded: "ACTIVITY_STATUS_CONSENSUS_NEEDED",
  completed: "ACTIVITY_STATUS_COMPLETED",
  rejected: "ACTIVITY_STATUS_REJECTED",
  failed: "ACTIVITY_STATUS_FAILED",
} as const;
export type ActivityStatus = (typeof ACTIVITY_STATUS)[keyof typeof ACTIVITY_STATUS];

export type SigningActivityKind = "strategy_update" | "withdrawal";
export type SigningActivity = SigningActivityRecord & { kind: SigningActivityKind };

/** How an operation continues once its activity is decided. Runs inside the deciding transaction. */
export interface ApprovalContinuation {
  /** The activity reached consensus: move the operation on (for example to `processing`). */
  onApproved(activity: SigningActivity): void;
  /** The activity was rejected: fail the operation with `reason` as its failureReason. */
  onRejected(activity: SigningActivity, reason: string): void;
}

/** What the approval functions need; `continuations` is filled once at startup, one per kind. */
export interface ApprovalDeps {
  db: DatabaseSync;
  clocks: OrganizationClocks;
  continuations: Map<SigningActivityKind, ApprovalContinuation>;
}

export function createApprovalDeps(db: DatabaseSync, clocks: OrganizationClocks): ApprovalDeps {
  return { db, clocks, continuations: new Map() };
}

/**
 * Creates an activity awaiting `requiredApprovals` approvals for the operation `subjectId`.
 * The fingerprint is unique (a sha256 over the id, kind and subject), as the provider's is.
 */
export function createSigningActivity(
  deps: ApprovalDeps,
  input: { organizationId: string; kind: SigningActivityKind; subjectId: string; requiredApprovals: number },
): SigningActivity {
  const id = randomUUID();
  const at = deps.clocks.now(input.organizationId).toISOString();
  const activity: SigningActivity = {
    id,
    organizationId: input.organizationId,
    kind: input.kind,
    subjectId: input.subjectId,
    fingerprint: createHash("sha256").update(`${id}:${input.kind}:${input.subjectId}`).digest("hex"),
    requiredApprovals: Math.max(1, input.requiredApprovals),
    status: ACTIVITY_STATUS.consensusNeeded,
    failureReason: null,
    createdAt: at,
    updatedAt: at,
  };
  insertSigningActivity(deps.db, activity);
  return activity;
}

export function getSigningActivity(
  deps: ApprovalDeps,
  organizationId: string,
  activityId: string,
): SigningActivity {
  const activity = findSigningActivity(deps.db, organizationId, activityId);
  if (activity === null) throw new NotFoundError(`signing activity ${activityId}`);
  return activity as SigningActivity;
}

/**
 * Decides an activity and continues (or fails) its operation, atomically. Deciding an activity
 * the same way twice is a no-op that returns it; deciding it differently is a 409 `conflict`.
 */
export function resolveSigningActivity(
  deps: ApprovalDeps,
  input: { organizationId: string; activityId: string; decision: "approved" | "rejected"; reason?: string },
): SigningActivity {
  return inTransaction(deps.db, () => {
    const activity = getSigningActivity(deps, input.organizationId, input.activityId);
    const target = input.decision === "approved" ? ACTIVITY_STATUS.completed : ACTIVITY_STATUS.rejected;
    if (activity.status === target) return activity;
    if (activity.status !== ACTIVITY_STATUS.consensusNeeded) {
      throw new ConflictError(
        `signing activity ${activity.id} is already ${activity.status}; it cannot be ${input.decision}`,
      );
    }
    const reason = input.decision === "rejected" ? (input.reason ?? "approval rejected") : null;
    const at = deps.clocks.now(input.organizationId).toISOString();
    updateSigningActivityStatus(deps.db, activity.id, target, reason, at);
    const decided: SigningActivity = { ...activity, status: target, failureReason: reason, updatedAt: at };
    const continuation = deps.continuations.get(activity.kind);
    if (continuation === undefined)
      throw new Error(`no approval continuation registered for ${activity.kind}`);
    if (reason === null) continuation.onApproved(decided);
    else continuation.onRejected(decided, reason);
    return decided;
  });
}

/**
 * Marks an undecided activity failed without continuing its operation (the operation was dropped
 * at `at`, on its organization's clock).
 */
export function failSigningActivity(
  deps: ApprovalDeps,
  activityId: string,
  reason: string,
  at: string,
): void {
  updateSigningActivityStatus(deps.db, activityId, ACTIVITY_STATUS.failed, reason, at);
}
