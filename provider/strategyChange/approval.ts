import { approveSigningActivity } from "../../sdk/nodejs/approval/index.ts";
import type { ServiceConnection } from "../serviceConnection.ts";
import { describeAllocation } from "./outsideChange.ts";
import type { StrategyChangeState } from "./state.ts";

/**
 * Approves a change that waits for approval, with the configured Turnkey key: the one place
 * where the provider approves during `pulumi up`.
 * - No approver configured (or no signing activity): the change is returned as it is, and `up`
 *   succeeds showing `pending_approval` and the signingActivityId.
 * - Approved with consensus (`completed`): `approved` tells the caller to wait until the wallet
 *   shows it.
 * - Our vote counted, others must still vote (`consensus_needed`): `up` succeeds showing the
 *   pending change and the approvals still needed.
 * - Not decided yet, or a status this code does not know (`in_progress`): nothing counts as
 *   approved; `up` succeeds showing the pending change, and a refresh or the next `up` looks again.
 * - Rejected, or the signing activity failed: throws, saying what to do.
 *
 * `approve` is the call to the signing provider; tests give their own outcomes through it.
 */
export async function approvePendingChange(
  connection: ServiceConnection,
  walletId: string,
  change: StrategyChangeState,
  approve: typeof approveSigningActivity = approveSigningActivity,
): Promise<{ change: StrategyChangeState; approved: boolean }> {
  const approver = connection.settings.approver;
  if (approver === undefined || change.signingActivityId === null) return { change, approved: false };
  const outcome = await approve(approver, change.signingActivityId);
  const voted = { ...change, signingActivityStatus: outcome.activityStatus };
  switch (outcome.kind) {
    case "rejected":
      throw new Error(
        `strategy update ${change.requestId} of wallet ${walletId} was rejected at the signing provider` +
          `${outcome.reason ? `: ${outcome.reason}` : ""}. Change the target allocation to request a new update.`,
      );
    case "failed":
      throw new Error(
        `the signing activity ${change.signingActivityId} of strategy update ${change.requestId} failed` +
          `${outcome.reason ? `: ${outcome.reason}` : ""}. Run \`pulumi up\` again to retry with the same requestId.`,
      );
    case "consensus_needed":
      return {
        change: { ...voted, approvalsStillNeeded: outcome.approvalsStillNeeded ?? null },
        approved: false,
      };
    case "in_progress":
      return { change: voted, approved: false };
    case "completed":
      return { change: voted, approved: true };
  }
}

/**
 * Says on the resource that its strategy update waits for approval, so that an `up` ending with
 * "1 updated" does not hide that the wallet keeps its allocation: the signing activity, who is
 * still to vote, and the command that approves it with the money in view (docs/cli.md).
 */
export function sayAwaitingApproval(
  connection: ServiceConnection,
  walletId: string,
  change: StrategyChangeState,
): void {
  const activity = change.signingActivityId;
  const votes =
    change.approvalsStillNeeded != null
      ? ` ${change.approvalsStillNeeded} more approval${change.approvalsStillNeeded === 1 ? "" : "s"} needed;`
      : change.signingActivityStatus === "ACTIVITY_STATUS_CONSENSUS_NEEDED" && connection.settings.approver
        ? " this stack's approver voted, other approvers must still sign;"
        : "";
  connection.say(
    "warning",
    `strategy update ${change.requestId} of wallet ${walletId} (to ${describeAllocation(change.targetPositions)}) ` +
      `is ${change.status}${activity === null ? "" : `, signing activity ${activity}`}:${votes} the wallet keeps its ` +
      "current allocation until it is approved." +
      (activity === null
        ? ""
        : ` Approve it with the money in view: \`pulumi stack export --file state.json\`, then ` +
          `\`npx portfolio-wallet approve ${activity} --state state.json\` (docs/cli.md), or at the signing provider.`),
  );
}
