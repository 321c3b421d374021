import { readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { Command } from "commander";
import { z } from "zod";
import { adoptIntoAllocationFile } from "../../sdk/nodejs/allocationFile.ts";
import { positionsOfWeights, weightsByKeyOf } from "../../sdk/nodejs/contract/allocation.ts";
import { carriesAllocation } from "../../sdk/nodejs/resources/resourceTypes.ts";
import {
  planAdoptions,
  type Adoption,
  type AllocationToAdopt,
  type ConfigValue,
  type KeptAllocation,
} from "../adopt/adoptionPlan.ts";
import { readProgramSources } from "../adopt/programSources.ts";
import { renderAdoption, type AdoptionOutcome } from "../adopt/renderAdoption.ts";
import { buildDriftReport } from "../drift/driftReport.ts";
import { runRefreshPreview } from "../drift/refreshPreview.ts";
import { readRefreshPreview } from "../drift/refreshSteps.ts";
import { readPreview } from "../report/previewSteps.ts";
import { runPulumi } from "../pulumiCli.ts";
import { globalOptionsOf } from "../serviceSettings.ts";

/** Exit codes of `adopt`: 2 when some allocation is left for a person to write (drift's 2, "look"). */
export const ADOPT_EXIT = { done: 0, error: 1, byHand: 2 } as const;

interface AdoptFlags {
  cwd?: string;
  refreshPreview?: string;
  output?: string;
  previewOutput?: string;
}

/** `pulumi config --json`: secrets come as `[secret]` and are never read; weights are not secret. */
const StackConfigSchema = z.record(
  z.string(),
  z.looseObject({ value: z.unknown().optional(), secret: z.boolean().optional() }),
);

async function plainStackConfig(projectDir: string, stack: string | undefined): Promise<ConfigValue[]> {
  const { stdout } = await runPulumi(
    ["config", "--json", "--non-interactive", ...(stack ? ["--stack", stack] : [])],
    projectDir,
  );
  const parsed = StackConfigSchema.safeParse(JSON.parse(stdout));
  if (!parsed.success) throw new Error("`pulumi config --json` answered something adopt cannot read");
  return Object.entries(parsed.data).flatMap(([key, entry]) =>
    entry.secret !== true && typeof entry.value === "string" ? [{ key, value: entry.value }] : [],
  );
}

/** The writes of a plan, each with how to put it back. */
interface Write {
  apply(): Promise<void>;
  undo(): Promise<void>;
}

function writesOf(
  adoptions: readonly Adoption[],
  projectDir: string,
  stack: string | undefined,
  readAt: string,
): Write[] {
  const stackFlag = stack ? ["--stack", stack] : [];
  const setConfig = (key: string, value: number) =>
    runPulumi(["config", "set", ...stackFlag, "--non-interactive", key, String(value)], projectDir).then(
      () => undefined,
    );
  const writes: Write[] = [];
  const files = new Set<string>();
  for (const adoption of adoptions) {
    if (adoption.how === "allocation-file") {
      // Wallets that share a file and the same service change write it once.
      if (files.has(adoption.file)) continue;
      files.add(adoption.file);
      const file = path.join(projectDir, adoption.file);
      const before = readFileSync(file);
      const positions = positionsOfWeights(adoption.wallet.service);
      writes.push({
        apply: async () =>
          adoptIntoAllocationFile(file, positions, { walletId: adoption.wallet.walletId, readAt }),
        undo: async () => writeFileSync(file, before),
      });
    } else if (adoption.how === "stack-config") {
      for (const setting of adoption.settings)
        writes.push({
          apply: () => setConfig(setting.key, setting.to),
          undo: () => setConfig(setting.key, setting.from),
        });
    }
  }
  return writes;
}

/**
 * `portfolio-wallet adopt`: keep what was changed at the service. Writes the allocation each
 * wallet applies at the service into the program's own sources (an allocation file, or the stack
 * config), and checks with a refreshed preview that the program then asks for no change to those
 * wallets. An allocation it cannot place is left to a person, with the program's lines to change.
 * docs/cli.md, "Ways back".
 */
export function adoptCommand(): Command {
  return new Command("adopt")
    .description(
      "Keep allocations changed at the service: write them into the program's allocation files or stack config " +
        "(else print the lines to change), then check with a refreshed preview that no wallet changes. " +
        "Exit 0: adopted, 2: some to change by hand, 1: error (nothing left written).",
    )
    .option("--cwd <dir>", "the Pulumi project directory (default: the working directory)")
    .option(
      "--refresh-preview <file>",
      "read the service's allocations from this saved refresh preview (as `drift` takes it) instead of running one",
    )
    .option("--output <file>", "also write what was done as markdown (a pull request's body)")
    .option("--preview-output <file>", "keep the checking preview's JSON (`pulumi preview --refresh --json`)")
    .action(async (flags: AdoptFlags, command: Command) => {
      const options = globalOptionsOf(command);
      const projectDir = path.resolve(flags.cwd ?? ".");
      const readAt = new Date().toISOString();
      const facts = readRefreshPreview(
        flags.refreshPreview !== undefined
          ? readFileSync(flags.refreshPreview, "utf8")
          : await runRefreshPreview(projectDir, options.stack),
      );
      const drift = buildDriftReport(facts, readAt);
      const toAdopt: AllocationToAdopt[] = drift.resources.flatMap((resource) => {
        if (!resource.findings.some((finding) => finding.kind === "allocation")) return [];
        const side = (bps: "codeBps" | "serviceBps") =>
          weightsByKeyOf(
            resource.sources.flatMap((s) =>
              (s[bps] ?? 0) > 0 ? [{ positionKey: s.positionKey, targetWeightBps: s[bps]! }] : [],
            ),
          );
        return [
          {
            name: resource.name,
            kind: resource.kind,
            walletId: resource.id,
            code: side("codeBps"),
            service: side("serviceBps"),
          },
        ];
      });
      const adopted = new Set(toAdopt.map((wallet) => wallet.name));
      const kept: KeptAllocation[] = facts.resources.flatMap((resource) =>
        carriesAllocation(resource.kind) &&
        !adopted.has(resource.name) &&
        resource.codeWeights !== null &&
        resource.codeWeights !== "unknown"
          ? [{ name: resource.name, code: resource.codeWeights }]
          : [],
      );
      const otherFindings = drift.resources.flatMap((resource) =>
        resource.findings
          .filter((finding) => finding.kind !== "allocation")
          .map((finding) => `${resource.kind} ${resource.name}: ${finding.kind}`),
      );
      const adoptions =
        toAdopt.length === 0
          ? []
          : planAdoptions(toAdopt, kept, {
              ...readProgramSources(projectDir),
              config: await plainStackConfig(projectDir, options.stack),
            });
      const writes = writesOf(adoptions, projectDir, options.stack, readAt);
      const outcome: AdoptionOutcome = {
        stack: drift.project && drift.stack ? `${drift.project}/${drift.stack}` : drift.stack,
        adoptions,
        otherChanges: [],
        checked: false,
        otherFindings,
      };
      const done: Write[] = [];
      try {
        for (const write of writes) {
          await write.apply();
          done.push(write);
        }
        if (writes.length > 0) {
          outcome.otherChanges = await checkedByRefreshedPreview(adoptions, projectDir, options.stack, flags);
          outcome.checked = true;
        }
      } catch (error) {
        // Nothing half-adopted is left behind: the code is as it was before the command.
        for (const write of done.reverse()) await write.undo();
        throw new Error(`${(error as Error).message}; adopt put back everything it had written`, {
          cause: error,
        });
      }
      if (flags.output !== undefined) writeFileSync(flags.output, renderAdoption(outcome, true));
      if (options.json) process.stdout.write(`${JSON.stringify(outcome, null, 2)}\n`);
      else process.stdout.write(renderAdoption(outcome, false));
      process.exitCode = adoptions.some((adoption) => adoption.how === "by-hand")
        ? ADOPT_EXIT.byHand
        : ADOPT_EXIT.done;
    });
}

/**
 * `pulumi preview --refresh --json` after the writes (reads only; the state is not written): each
 * adopted wallet's step must be `same`. Answers the other steps that remain, in words; throws when
 * an adopted wallet would still change, so that the writes are put back.
 */
async function checkedByRefreshedPreview(
  adoptions: readonly Adoption[],
  projectDir: string,
  stack: string | undefined,
  flags: AdoptFlags,
): Promise<string[]> {
  const { stdout } = await runPulumi(
    ["preview", "--refresh", "--json", "--non-interactive", ...(stack ? ["--stack", stack] : [])],
    projectDir,
  );
  if (flags.previewOutput !== undefined) writeFileSync(flags.previewOutput, stdout);
  const steps = readPreview(stdout).steps.filter((step) => step.op !== "same");
  const written = new Set(adoptions.filter((a) => a.how !== "by-hand").map((a) => a.wallet.name));
  const still = steps.filter(
    (step) => step.kind !== null && carriesAllocation(step.kind) && written.has(step.name),
  );
  if (still.length > 0)
    throw new Error(
      `after writing, a refreshed preview still changes ${still.map((step) => `${step.name} (${step.op})`).join(", ")}: ` +
        "the program does not take that allocation from where adopt wrote it; change the program by hand (`portfolio-wallet drift` lists the weights)",
    );
  return steps.map((step) => `${step.type.split(":").pop()} ${step.name}: ${step.op}`);
}
