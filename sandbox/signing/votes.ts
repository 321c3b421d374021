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
