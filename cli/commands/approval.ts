import { readFileSync } from "node:fs";
import { Command } from "commander";
import {
  approveSigningActivity,
  rejectSigningActivity,
  type ApprovalOutcome,
} from "../../sdk/nodejs/approval/index.ts";
import { moneyImpact } from "../../sdk/nodejs/contract/index.ts";
import { fields, printResult } from "../output.ts";
import {
  changeOfActivity,
  planDisagreement,
  readStackExport,
  type PendingStrategyChange,
} from "../report/approvalReview.ts";
import { readPlan } from "../report/planFile.ts";
import { impactLine, YEARLY_YIELD_ASSUMPTION } from "../report/renderMarkdown.ts";
import {
  globalOptionsOf,
  resolveCliApprover,
  withServiceClient,
  type GlobalOptions,
} from "../serviceSettings.ts";

interface ApprovalFlags {
  state?: string;
  plan?: string;
}

function readFileOf(flag: string, file: string): Buffer {
  try {
    return readFileSync(file);
  } catch (error) {
    throw new Error(`${flag} ${file}: cannot read it (${(error as Error).message})`, { cause: error });
  }
}

/** Reads a flag's file with `read`, naming the flag and file in what is wrong with it. */
function readFlagFile<T>(flag: string, file: string, read: (bytes: Buffer) => T): T {
  const bytes = readFileOf(flag, file);
  try {
    return read(bytes);
  } catch (error) {
    throw new Error(`${flag} ${file}: ${(error as Error).message}`, { cause: error });
  }
}

const readStateFile = (file: string) =>
  readFlagFile("--state", file, (bytes) => {
    let json: unknown;
    try {
      json = JSON.parse(bytes.toString("utf8"));
    } catch {
      throw new Error("it is not JSON: pass `pulumi stack export --stack <stack> > state.json`");
    }
    return readStackExport(json);
  });

/** What the strategy update of the activity does to the money, read from the service now. */
async function moneyOfChange(options: GlobalOptions, change: PendingStrategyChange): Promise<string> {
  return withServiceClient(options, async (client) => {
    const [wallet, catalog] = await Promise.all([
      client.wallets.retrieve(change.walletId),
      client.catalog.listStrategies(),
    ]);
    const impact = moneyImpact(wallet, change.weights, catalog.strategies);
    // No report's coverage line above it here: the yearly yield's assumption follows the line.
    return impact.funded ? `${impactLine(impact)} ${YEARLY_YIELD_ASSUMPTION}` : impactLine(impact);
  });
}

/**
 * Before a vote to approve: the strategy update the activity is for (from --state), checked
 * against the reviewed plan (--plan), and its money impact. Refuses, throwing, when the plan does
 * not cover it; null when nothing was given to review with.
 */
async function reviewBeforeSigning(
  options: GlobalOptions,
  flags: ApprovalFlags,
  signingActivityId: string,
): Promise<{ change: PendingStrategyChange; money: string } | { change: null; money: null } | null> {
  if (flags.state === undefined) {
    if (flags.plan !== undefined)
      throw new Error(
        "--plan needs --state <file of `pulumi stack export`>: the state says which wallet and allocation the activity is for",
      );
    return null;
  }
  const state = readStateFile(flags.state);
  const change = changeOfActivity(state, signingActivityId);
  if (flags.plan !== undefined) {
    const plan = readFlagFile("--plan", flags.plan, readPlan);
    if (change === null)
      throw new Error(
        `not signed: no resource in --state ${flags.state} started signing activity ${signingActivityId}, so --plan ${flags.plan} cannot vouch for what it approves`,
      );
    const disagreement = planDisagreement(plan, change, state);
    if (disagreement !== null) throw new Error(`not signed: ${disagreement}`);
  }
  if (change === null) return { change: null, money: null };
  return { change, money: await moneyOfChange(options, change) };
}

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
  const command = new Command(decision)
    .description(
      decision === "approve"
        ? "Approve a signing activity (a pending withdrawal or strategy update) with your Turnkey API key."
        : "Reject a signing activity: the service then fails the pending operation.",
    )
    .argument("<signingActivityId>", "the signingActivityId of the pending withdrawal or strategy update");
  if (decision === "approve") {
    command
      .option(
        "--state <file>",
        "the stack's `pulumi stack export`: shows the money impact of the strategy update before signing",
      )
      .option(
        "--plan <file>",
        "the plan the pull request reviewed (`pulumi preview --save-plan`): refuse to sign a strategy update it does not apply (needs --state)",
      );
  }
  return command.action(async (signingActivityId: string, flags: ApprovalFlags, self: Command) => {
    const options = globalOptionsOf(self);
    // The review first: a refusal under --plan never depends on the signing credentials.
    const review =
      decision === "approve" ? await reviewBeforeSigning(options, flags, signingActivityId) : null;
    const approver = resolveCliApprover(options);
    if (review !== null && options.json !== true) {
      // Before anything is signed: what the approver is about to let happen.
      process.stdout.write(
        review.change === null
          ? `No resource of the stack's state started signing activity ${signingActivityId}: its money impact is unknown (a withdrawal, or another stack's update).\n\n`
          : `Strategy update of ${review.change.resource} (wallet ${review.change.walletId}): ${Object.entries(
              review.change.weights,
            )
              .map(([key, bps]) => `${key} ${bps}`)
              .join(", ")}\n${review.money}\n\n`,
      );
    }
    const outcome =
      decision === "approve"
        ? await approveSigningActivity(approver, signingActivityId)
        : await rejectSigningActivity(approver, signingActivityId);
    const meaning = meaningOf(decision, outcome);
    const reviewed = review?.change ? { review: { ...review.change, money: review.money } } : {};
    printResult(options.json === true, { ...outcome, signingActivityId, meaning, ...reviewed }, () =>
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
