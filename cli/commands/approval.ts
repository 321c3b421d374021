import { Command } from "commander";
import {
  approveSigningActivity,
  rejectSigningActivity,
  type ApprovalOutcome,
} from "../../sdk/nodejs/approval/index.ts";
import { fields, printResult } from "../output.ts";
import { globalOptionsOf, resolveCliApprover } from "../serviceSettings.ts";

/** What an outcome means for the operation waiting on it, in one sentence. */
function meaningOf(decision: "approve" | "reject", outcome: ApprovalOutcome): string {
  switch (outcome.kind) {
    case "completed":
      return decision === "approve"
        ? "Approved: the signing activity is completed, and the withdrawal or strategy update proceeds."
        : "The activity was already completed; a rejection can no longer stop it.";
    case "consensus_needed":
      return (
        "Your vote counted, but the activity needs more approvals" +
        (outcome.approvalsStillNeeded != null ? ` (${outcome.approvalsStillNeeded} more)` : "") +
        ": the operation waits until the other approvers sign."
      );
    case "rejected":
      return decision === "reject"
        ? "Rejected: the service fails the withdrawal or strategy update."
        : `The activity was rejected${outcome.reason ? ` (${outcome.reason})` : ""}; the operation fails and cannot be approved.`;
    case "failed":
      return `The signing activity failed${outcome.reason ? `: ${outcome.reason}` : ""}.`;
    case "in_progress":
      return "Submitted; the signing provider is still processing the activity.";
  }
}

function approvalCommand(decision: "approve" | "reject"): Command {
  return new Command(decision)
    .description(
      decision === "approve"
        ? "Approve a signing activity (a pending withdrawal or strategy update) with your Turnkey API key."
        : "Reject a signing activity: the service then fails the pending operation.",
    )
    .argument("<signingActivityId>", "the signingActivityId of the pending withdrawal or strategy update")
    .action(async (signingActivityId: string, _flags: unknown, command: Command) => {
      const options = globalOptionsOf(command);
      const approver = resolveCliApprover(options);
      const outcome =
        decision === "approve"
          ? await approveSigningActivity(approver, signingActivityId)
          : await rejectSigningActivity(approver, signingActivityId);
      const meaning = meaningOf(decision, outcome);
      printResult(options.json === true, { ...outcome, signingActivityId, meaning }, () =>
        [
          fields([
            ["signing activity", signingActivityId],
            ["status", outcome.activityStatus],
            ["outcome", outcome.kind],
          ]),
          "",
          meaning,
        ].join("\n"),
      );
      // The command failed to do what was asked when the operation ends opposite to the decision.
      const failed =
        (decision === "approve" && (outcome.kind === "rejected" || outcome.kind === "failed")) ||
        (decision === "reject" && (outcome.kind === "completed" || outcome.kind === "failed"));
      if (failed) process.exitCode = 1;
    });
}

export const approveCommand = () => approvalCommand("approve");
export const rejectCommand = () => approvalCommand("reject");
