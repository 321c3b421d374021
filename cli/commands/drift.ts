import { readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { Command } from "commander";
import { z } from "zod";
import { listWalletsById } from "../../sdk/nodejs/client/walletsById.ts";
import { buildDriftReport, needsDollars, withDriftDollars, type DriftReport } from "../drift/driftReport.ts";
import type { RefreshFacts } from "../drift/refreshSteps.ts";
import { driftIssueAction, type ExistingIssue } from "../drift/driftIssue.ts";
import { readRefreshPreview } from "../drift/refreshSteps.ts";
import { renderDriftMarkdown, renderDriftText } from "../drift/renderDrift.ts";
import { forGitHub } from "../report/renderMarkdown.ts";
import { runRefreshPreview } from "../drift/refreshPreview.ts";
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

const IssuesSchema = z.array(
  z.looseObject({
    number: z.number().int(),
    // `gh issue list --json state` writes OPEN and CLOSED; the REST API open and closed.
    state: z.string().transform((state) => (state.toLowerCase() === "open" ? "open" : "closed")),
    body: z
      .string()
      .nullish()
      .transform((body) => body ?? ""),
  }),
);

interface DriftIssueFlags {
  drift: string;
  issues: string;
  bodyFile: string;
}

function readJson(file: string, what: string): unknown {
  try {
    return JSON.parse(readFileSync(file, "utf8"));
  } catch (error) {
    throw new Error(`${what} ${file}: ${(error as Error).message}`, { cause: error });
  }
}

/**
 * `portfolio-wallet drift-issue`: what a scheduled workflow does to the stack's drift issue, from
 * the JSON of `drift --json` and the repository's issues (`gh issue list --json number,state,body`).
 * Prints `key=value` lines for $GITHUB_OUTPUT (action, number, numbers, title) and writes the issue
 * body, or the closing comment, to --body-file.
 */
export function driftIssueCommand(): Command {
  return new Command("drift-issue")
    .description(
      "Decide the drift issue of a stack: open, update, reopen, close or nothing (for a workflow).",
    )
    .requiredOption("--drift <file>", "the output of `portfolio-wallet drift --json`")
    .requiredOption("--issues <file>", "the output of `gh issue list --state all --json number,state,body`")
    .requiredOption("--body-file <file>", "where to write the issue body or the closing comment")
    .action((flags: DriftIssueFlags, command: Command) => {
      // The stack the issue is about, as the workflow names it (`treasury/prod`): the global --stack.
      const stack = globalOptionsOf(command).stack;
      if (stack === undefined)
        throw new Error("drift-issue needs --stack <name>: the stack the issue is about");
      const report = readJson(flags.drift, "--drift") as DriftReport;
      if (typeof report?.drift !== "boolean" || !Array.isArray(report.resources)) {
        throw new Error(`--drift ${flags.drift} is not the output of \`portfolio-wallet drift --json\``);
      }
      const parsed = IssuesSchema.safeParse(readJson(flags.issues, "--issues"));
      if (!parsed.success) {
        throw new Error(`--issues ${flags.issues} is not a list of issues with number, state and body`);
      }
      const action = driftIssueAction({
        stack,
        drift: report.drift,
        report: forGitHub(renderDriftMarkdown(report)),
        checkedAt: report.checkedAt,
        issues: parsed.data as ExistingIssue[],
      });
      const lines = [`action=${action.action}`];
      if (action.action === "open") {
        lines.push(`title=${action.title}`);
        writeFileSync(flags.bodyFile, action.body);
      } else if (action.action === "update" || action.action === "reopen") {
        lines.push(`number=${action.number}`);
        writeFileSync(flags.bodyFile, action.body);
      } else if (action.action === "close") {
        lines.push(`numbers=${action.numbers.join(" ")}`);
        writeFileSync(flags.bodyFile, `${action.comment}\n`);
      }
      process.stdout.write(`${lines.join("\n")}\n`);
    });
}
