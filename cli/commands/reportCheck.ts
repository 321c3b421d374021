import { readFileSync } from "node:fs";
import { Command } from "commander";
import { buildAllocationReport } from "../report/allocationReport.ts";
import { readPlan } from "../report/planFile.ts";
import { checkAgainstReview, type ReviewCheck } from "../report/reviewCheck.ts";
import { readReviewedReport, withReviewedState } from "../report/reviewedReport.ts";
import { REVIEW_TOLERANCE_SETTINGS, resolveReviewTolerance } from "../report/reviewTolerance.ts";
import { cliStackConfig, globalOptionsOf } from "../serviceSettings.ts";
import { serviceFacts } from "./report.ts";

interface ReportCheckFlags {
  reviewed: string;
  plan: string;
  tolerancePercent?: string;
  toleranceUsd?: string;
}

/** A file a flag names, or an error that names the flag and what to pass. */
function readFlagFile(flag: string, file: string, what: string): Buffer {
  try {
    return readFileSync(file);
  } catch (error) {
    const reason =
      (error as NodeJS.ErrnoException).code === "ENOENT" ? "no such file" : (error as Error).message;
    throw new Error(`${flag} ${file}: ${reason}; pass ${what}`, { cause: error });
  }
}

/** Amounts as decimal strings of micros, as the report's JSON writes them. */
const jsonMicros = (_key: string, value: unknown) => (typeof value === "bigint" ? value.toString() : value);

function humanText(check: ReviewCheck): string {
  return [
    ...check.wallets.map((wallet) => `${wallet.holds ? "✓" : "✗"} ${wallet.message}`),
    "",
    check.summary,
  ].join("\n");
}

/**
 * `portfolio-wallet report-check`: at the merge, before `pulumi up --plan`, the dollars the
 * reviewed report said each wallet's change moves, computed again from the plan and the service
 * now; exit 1 when any differs beyond the tolerance or the allocation was changed outside the stack.
 */
export function reportCheckCommand(): Command {
  const { percent, usd } = REVIEW_TOLERANCE_SETTINGS;
  return new Command("report-check")
    .description(
      "At the merge, before `pulumi up --plan`: compute the dollars of the plan again against the service now and exit 1 when a wallet's differ from the reviewed report's beyond the tolerance.",
    )
    .requiredOption(
      "--reviewed <file>",
      "the pull request's report as JSON (`portfolio-wallet report --plan plan.json --format json`), kept with the plan",
    )
    .requiredOption(
      "--plan <file>",
      "the plan the merge applies (`pulumi preview --save-plan`), the report's own",
    )
    .option(
      `${percent.flag} <percent>`,
      `a wallet's dollars may differ by this percentage of the reviewed figure (else stack config ${percent.configKey}, default ${percent.default})`,
    )
    .option(
      `${usd.flag} <usd>`,
      `... or by this many USD, whichever is larger (else stack config ${usd.configKey}, default ${usd.default})`,
    )
    .action(async (flags: ReportCheckFlags, command: Command) => {
      const options = globalOptionsOf(command);
      const reviewedWhat = "the JSON report the pull request's preview job kept with its plan";
      const reviewed = readReviewedReport(
        readFlagFile("--reviewed", flags.reviewed, reviewedWhat).toString("utf8"),
        `--reviewed ${flags.reviewed}`,
      );
      const planBytes = readFlagFile("--plan", flags.plan, "the plan of `pulumi preview --save-plan`");
      let plan;
      try {
        plan = readPlan(planBytes);
      } catch (error) {
        throw new Error(`--plan ${flags.plan}: ${(error as Error).message}`, { cause: error });
      }
      if (plan.sha256 !== reviewed.planSha256) {
        throw new Error(
          `--reviewed ${flags.reviewed} is the report of plan sha256:${reviewed.planSha256}, but --plan ${flags.plan} is sha256:${plan.sha256}: ` +
            "pass the report made with this plan (the preview job keeps both in one artifact), or re-run the preview.",
        );
      }
      const tolerance = resolveReviewTolerance(
        { percent: flags.tolerancePercent, usd: flags.toleranceUsd },
        cliStackConfig(options),
      );
      const facts = withReviewedState(plan.facts, reviewed);
      const walletIds = new Set(
        facts.steps.flatMap((step) => (step.walletId === null ? [] : [step.walletId])),
      );
      // Read-only: the catalog and the wallets, as the report reads them; no quotes (targets: none).
      const service = await serviceFacts(options, undefined, walletIds, []);
      const current = buildAllocationReport(facts, {
        ...service,
        commit: null,
        approverConfigured: false,
        planSha256: plan.sha256,
      });
      const check = checkAgainstReview({
        reviewed,
        current,
        tolerance,
        catalog: service.catalog,
        now: new Date(),
      });
      if (options.json) process.stdout.write(`${JSON.stringify(check, jsonMicros, 2)}\n`);
      else process.stdout.write(`${humanText(check)}\n`);
      if (!check.holds) process.exitCode = 1;
    });
}
