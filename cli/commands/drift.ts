import { readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { Command } from "commander";
import { listWalletsById } from "../../sdk/nodejs/client/walletsById.ts";
import { buildDriftReport, needsDollars, withDriftDollars, type DriftReport } from "../drift/driftReport.ts";
import type { RefreshFacts } from "../drift/refreshSteps.ts";
import { DRIFT_ISSUE } from "../drift/driftIssue.ts";
import { readRefreshPreview } from "../drift/refreshSteps.ts";
import { renderDriftMarkdown, renderDriftText } from "../drift/renderDrift.ts";
import { forGitHub } from "../report/renderMarkdown.ts";
import { runRefreshPreview } from "../drift/refreshPreview.ts";
import { checkIssueCommand } from "./checkIssue.ts";
import { globalOptionsOf, withServiceClient, type GlobalOptions } from "../serviceSettings.ts";

/** Exit codes of `drift`, as `terraform plan -detailed-exitcode` has them. */
export const DRIFT_EXIT = { none: 0, error: 1, drift: 2 } as const;

interface DriftFlags {
  cwd?: string;
  refreshPreview?: string;
  markdown?: boolean;
  output?: string;
}

/**
 * The report with the dollars of each allocation drift: the service's wallets (the list endpoint's
 * pages, GETs only) and catalog, with the settings of the project's stack. The drift stands
 * whatever happens here: when the service cannot be asked, each finding says why instead.
 */
async function withDollarsFromService(
  report: DriftReport,
  facts: RefreshFacts,
  options: GlobalOptions,
  projectDir: string,
): Promise<DriftReport> {
  if (!needsDollars(report)) return report;
  try {
    return await withServiceClient(
      options,
      async (client) => {
        const catalog = (await client.catalog.listStrategies()).strategies;
        const byId = await listWalletsById(client);
        return withDriftDollars(
          report,
          facts,
          { available: true, byId, readAt: new Date().toISOString() },
          catalog,
        );
      },
      projectDir,
    );
  } catch (error) {
    const reason = `the service could not be asked for the wallets' positions (${(error as Error).message})`;
    return withDriftDollars(report, facts, { available: false, reason }, []);
  }
}

/** `portfolio-wallet drift`: config drift of a stack, from a refresh preview. */
export function driftCommand(): Command {
  return new Command("drift")
    .description(
      "Report config drift of a stack (allocations, strategy updates, webhooks, wallets changed at the service), " +
        "never market movement. Exit 0: no drift, 2: drift, 1: error.",
    )
    .option("--cwd <dir>", "the Pulumi project directory (default: the working directory)")
    .option(
      "--refresh-preview <file>",
      "read a refresh preview from this file instead of running one: the event log of " +
        "`PULUMI_DEBUG_COMMANDS=true pulumi refresh --preview-only --event-log FILE` (any program), or the output of " +
        "`pulumi refresh --preview-only --json` (programs on the native plugin only)",
    )
    .option("--markdown", "print the report as markdown (an issue or comment body)")
    .option("--output <file>", "write the report to a file instead of stdout")
    .action(async (flags: DriftFlags, command: Command) => {
      const options = globalOptionsOf(command);
      const checkedAt = new Date().toISOString();
      const projectDir = path.resolve(flags.cwd ?? ".");
      const text =
        flags.refreshPreview !== undefined
          ? readFileSync(flags.refreshPreview, "utf8")
          : await runRefreshPreview(projectDir, options.stack);
      const facts = readRefreshPreview(text);
      const report = await withDollarsFromService(
        buildDriftReport(facts, checkedAt),
        facts,
        options,
        projectDir,
      );
      const rendered = options.json
        ? `${JSON.stringify(report, null, 2)}\n`
        : flags.markdown
          ? forGitHub(renderDriftMarkdown(report))
          : renderDriftText(report);
      if (flags.output !== undefined) writeFileSync(flags.output, rendered);
      else process.stdout.write(rendered);
      process.exitCode = report.drift ? DRIFT_EXIT.drift : DRIFT_EXIT.none;
    });
}

/**
 * `portfolio-wallet drift-issue`: what a scheduled workflow does to the stack's drift issue, from
 * the JSON of `drift --json` and the repository's issues (checkIssue.ts).
 */
export function driftIssueCommand(): Command {
  return checkIssueCommand({
    name: "drift-issue",
    description:
      "Decide the drift issue of a stack: open, update, reopen, close or nothing (for a workflow).",
    subject: DRIFT_ISSUE,
    reportFlag: "--drift <file>",
    reportHelp: "the output of `portfolio-wallet drift --json`",
    readReport: (json, file) => {
      const report = json as DriftReport;
      if (typeof report?.drift !== "boolean" || !Array.isArray(report.resources)) {
        throw new Error(`--drift ${file} is not the output of \`portfolio-wallet drift --json\``);
      }
      return {
        found: report.drift,
        checkedAt: report.checkedAt,
        markdown: forGitHub(renderDriftMarkdown(report)),
      };
    },
  });
}
