import { randomUUID } from "node:crypto";
import { inTransaction } from "../store/connection.ts";
import {
  findSigningActivityByFingerprint,
  updateSigningActivityStatus,
  type SigningActivityRecord,
} from "../store/signingActivityStore.ts";
import {
  insertVote,
  listVotes,
  type ApproverKeyRecord,
  type VoteSelection,
} from "../store/signingProviderStore.ts";
import { ACTIVITY_STATUS, resolveSigningActivity, type ApprovalDeps } from "./approvals.ts";
import { ConflictError, NotFoundError } from "./errors.ts";

/**
 * Votes on signing activities, as the signing provider counts them: who may vote, when a vote
 * decides an activity, and what a decided activity does to its operation (approvals.ts).
 */

/** The part of a vote the tally reads. */
export interface CountedVote {
  publicKey: string;
  selection: string;
}

export interface VoteTally {
  /** Distinct keys that approved. */
  approvals: number;
  /** Distinct keys that rejected. */
  rejections: number;
  /**
   * `rejected` as soon as any key rejects (one approver's veto fails the operation);
   * `approved` once `requiredApprovals` distinct keys approved; `undecided` otherwise.
   */
  decision: "approved" | "rejected" | "undecided";
}

/**
 * Counts votes for consensus. Keys are compared case-insensitively and counted once each, so a key
 * that votes twice (or whose vote is replayed) cannot reach consensus on its own.
 */
export function tallyVotes(votes: readonly CountedVote[], requiredApprovals: number): VoteTally {
  const approvers = new Set<string>();
  const rejecters = new Set<string>();
  for (const vote of votes) {
    const key = vote.publicKey.toLowerCase();
    if (vote.selection === "VOTE_SELECTION_APPROVED") approvers.add(key);
    else if (vote.selection === "VOTE_SELECTION_REJECTED") rejecters.add(key);
  }
  const decision =
    rejecters.size > 0
      ? "rejected"
      : approvers.size >= Math.max(1, requiredApprovals)
        ? "approved"
        : "undecided";
  return { approvals: approvers.size, rejections: rejecters.size, decision };
}

/** One vote as the signing provider receives it: the verified caller and the stamped request. */
export interface VoteInput {
  organizationId: string;
  fingerprint: string;
  signer: ApproverKeyRecord;
  selection: VoteSelection;
  /** The stamped request body, kept as the vote's message. */
  message: string;
  /** The stamp's signature, kept with the vote. */
  signature: string;
}

/**
 * Records one key's vote and, when it decides the activity, resolves it through the approvals core
 * (which continues or fails the operation), in one transaction. A key's repeated identical vote is
 * a no-op; a key changing its vote, or voting on a decided activity, is a conflict.
 */
export function castVote(deps: ApprovalDeps, input: VoteInput): SigningActivityRecord {
  return inTransaction(deps.db, () => {
    const activity = findSigningActivityByFingerprint(deps.db, input.organizationId, input.fingerprint);
    if (activity === null)
      throw new NotFoundError(`an activity with this fingerprint in organization ${input.organizationId}`);
    const votes = listVotes(deps.db, activity.id);
    const previous = votes.find((v) => v.publicKey === input.signer.publicKey);
    if (previous !== undefined) {
      if (previous.selection === input.selection) return activity;
      throw new ConflictError(`this API key already voted ${previous.selection} on activity ${activity.id}`);
    }
    if (activity.status !== ACTIVITY_STATUS.consensusNeeded)
      throw new ConflictError(`activity ${activity.id} is ${activity.status} and takes no more votes`);

    const at = deps.clocks.now(input.organizationId).toISOString();
    insertVote(deps.db, {
      id: randomUUID(),
      activityId: activity.id,
      publicKey: input.signer.publicKey,
      userId: input.signer.userId,
      selection: input.selection,
      message: input.message,
      signature: input.signature,
      createdAt: at,
    });
    const tally = tallyVotes(
      [...votes, { publicKey: input.signer.publicKey, selection: input.selection }],
      activity.requiredApprovals,
    );
    if (tally.decision === "undecided") {
      // A vote that does not decide still changes the activity (its votes), as updatedAt says.
      updateSigningActivityStatus(deps.db, activity.id, activity.status, activity.failureReason, at);
      return { ...activity, updatedAt: at };
    }
    return resolveSigningActivity(deps, {
      organizationId: activity.organizationId,
      activityId: activity.id,
      decision: tally.decision,
      ...(tally.decision === "rejected" ? { reason: `rejected by approver ${input.signer.userName}` } : {}),
    });
  });
}
