import { readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { Command } from "commander";
import { planPreviewMismatches, readPlan } from "../report/planFile.ts";
import { readPreview } from "../report/previewSteps.ts";
import { DEFAULT_MAX_CHARS } from "../report/renderMarkdown.ts";
import { resolveCommentThresholds } from "../report/commentThresholds.ts";
import { runPulumi } from "../pulumiCli.ts";
import { cliStackConfig, globalOptionsOf } from "../serviceSettings.ts";
import { reportOfPreview } from "./report.ts";

interface RestoreFlags {
  cwd?: string;
  plan: string;
  output?: string;
  jsonOutput?: string;
  previewOutput?: string;
}

/**
 * What the restore report says before the pull-request report: where its "before" comes from, and
 * the merge job's three steps. The report's own plan line names the plan.
 */
export const RESTORE_PREAMBLE =
  "**Restore.** This preview ran against the state as a refresh reads it from the service " +
  "(`pulumi preview --refresh`, nothing written): *before* is what the service holds now, *after* what the code says, " +
  "and the dollars are what moves back. Merging applies exactly the plan below: `pulumi refresh`, then " +
  "`portfolio-wallet report-check` against this report, then `pulumi up --plan`.";

/**
 * `portfolio-wallet restore`: the pull request that puts the code's allocation back after a change
 * at the service (docs/cli.md, "Restore or adopt an outside change"). A preview against the state
 * as a refresh reads it, so that the outside change is what the preview moves back, reviewed in
 * dollars like any other reweight, with the plan its merge applies. It sends only GETs.
 */
export function restoreCommand(): Command {
  return new Command("restore")
    .description(
      "Prepare the review of putting the code's allocations back after changes at the service: " +
        "`pulumi preview --refresh --save-plan` (only reads), its report in dollars, and the plan the merge applies.",
    )
    .option("--cwd <dir>", "the Pulumi project directory (default: the working directory)")
    .requiredOption("--plan <file>", "where to save the plan the merge job applies (`pulumi up --plan`)")
    .option("--output <file>", "write the report (markdown) to a file instead of stdout")
    .option("--json-output <file>", "also write the report as JSON: what `report-check` holds the merge to")
    .option("--preview-output <file>", "also keep the preview's JSON (`pulumi preview --json`)")
    .action(async (flags: RestoreFlags, command: Command) => {
      const options = globalOptionsOf(command);
      const projectDir = path.resolve(flags.cwd ?? ".");
      // Before the preview, so that a bad threshold in the stack's config stops it first.
      const commentThresholds = resolveCommentThresholds({}, cliStackConfig(options, projectDir));
      const args = [
        "preview",
        "--refresh",
        "--json",
        "--save-plan",
        path.resolve(flags.plan),
        "--non-interactive",
        ...(options.stack ? ["--stack", options.stack] : []),
      ];
      const { stdout } = await runPulumi(args, projectDir);
      if (flags.previewOutput !== undefined) writeFileSync(flags.previewOutput, stdout);
      const preview = readPreview(stdout);
      const plan = readPlan(readFileSync(flags.plan));
      const mismatches = planPreviewMismatches(plan, preview);
      if (mismatches.length > 0)
        throw new Error(
          `the saved plan and the preview disagree (${mismatches.join("; ")}); run restore again`,
        );
      const { json, markdown } = await reportOfPreview(
        options,
        { ...preview, plan },
        {
          catalogFile: undefined,
          commit: undefined,
          commentThresholds,
          maxChars: DEFAULT_MAX_CHARS,
          projectDir,
        },
      );
      // After the report's hidden marker line, so that the comment is still found by it.
      const [marker = "", ...rest] = markdown.split("\n");
      const rendered = [marker, "", RESTORE_PREAMBLE, ...rest].join("\n");
      if (flags.jsonOutput !== undefined) writeFileSync(flags.jsonOutput, json);
      if (flags.output !== undefined) writeFileSync(flags.output, rendered);
      else process.stdout.write(rendered);
    });
}
