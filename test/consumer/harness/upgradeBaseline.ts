import { existsSync, readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { LanguageProject } from "../../native/harness/languageProject.ts";
import { ConsumerProject, type CommandResult } from "./consumerProject.ts";

/**
 * Upgrade baselines (test/consumer/upgradeBaseline/README.md): stacks made by a released version of
 * the package, their state committed beside their program, which the current checkout must preview
 * as no change at all. What the recorder (test/consumer/upgradeBaseline/record.ts) and the test
 * (test/consumer/layouts.engine.test.ts) share: where baselines live, what a baseline's manifest says, how a
 * baseline's project runs the CLI, and how a preview's steps are read.
 */

export const BASELINES_DIR = path.join(import.meta.dirname, "..", "upgradeBaseline");
/** The programs a recording starts from: the current version's, one directory per program kind. */
export const BASELINE_PROGRAMS_DIR = path.join(BASELINES_DIR, "programs");

/**
 * The program kinds of a baseline: a TypeScript program on the dynamic resources (the packed package
 * installed from its tarball) and a YAML program on the native plugin (installed from its release
 * archive). Each program holds every resource kind.
 */
export const PROGRAM_KINDS = ["typescript", "yaml"] as const;
export type ProgramKind = (typeof PROGRAM_KINDS)[number];

/** The committed files of a recorded stack, in its program kind's directory. */
export const STATE_FILE = "state.json";
export const MANIFEST_FILE = "baseline.json";

/** What baseline.json says about a recorded baseline. */
export interface BaselineManifest {
  /** The package version that made the stacks (the directory's name). */
  packageVersion: string;
  /** The stack's name: its config file is Pulumi.<stack>.yaml beside the program. */
  stack: string;
  /**
   * The stacks' secrets passphrase. A test-only value, committed on purpose: it encrypts nothing but
   * a sandbox token and a sandbox webhook's signing secret, and the test needs it to read the state.
   */
  testOnlyPassphrase: string;
  programs: ProgramKind[];
  /** The engine and the commit that recorded it, for whoever reads a failure later. */
  recordedWith: { pulumi: string; node: string; commit: string; at: string };
}

export interface RecordedBaseline {
  dir: string;
  manifest: BaselineManifest;
}

/** Every recorded baseline (each directory of BASELINES_DIR with a baseline.json), oldest first. */
export function recordedBaselines(dir = BASELINES_DIR): RecordedBaseline[] {
  return (
    readdirSync(dir, { withFileTypes: true })
      // Not a recording under way (`.recording-*`, renamed into place when it is whole).
      .filter((entry) => entry.isDirectory() && !entry.name.startsWith("."))
      .filter((entry) => existsSync(path.join(dir, entry.name, MANIFEST_FILE)))
      .map((entry) => {
        const baselineDir = path.join(dir, entry.name);
        const manifest = JSON.parse(
          readFileSync(path.join(baselineDir, MANIFEST_FILE), "utf8"),
        ) as BaselineManifest;
        if (manifest.packageVersion !== entry.name)
          throw new Error(`${baselineDir}: baseline.json says version ${manifest.packageVersion}`);
        return { dir: baselineDir, manifest };
      })
      .sort((a, b) =>
        a.manifest.packageVersion.localeCompare(b.manifest.packageVersion, "en", { numeric: true }),
      )
  );
}

/**
 * A baseline's Pulumi project in a temp dir outside this repository, as its program kind's user has
 * it: the packed package installed (TypeScript) or the plugin installed from its archive (YAML),
 * with a file backend of its own. Every command runs with the baseline's passphrase and with
 * `env` (the service's URL, which a test knows only once it has started its sandbox).
 *
 * The service's URL comes from PORTFOLIO_WALLET_BASE_URL, not from the stack's config: the native
 * plugin's default provider keeps the stack's `portfolio-wallet:*` settings as its inputs in the
 * state, so a URL recorded there would differ from the test's sandbox and the preview would show
 * the provider updated, a change of the test's making, not of the upgrade.
 */
export class BaselineProject {
  readonly env: Record<string, string>;
  readonly #project: ConsumerProject | LanguageProject;

  private constructor(project: ConsumerProject | LanguageProject, passphrase: string) {
    this.#project = project;
    this.env = { PULUMI_CONFIG_PASSPHRASE: passphrase };
  }

  static async create(
    kind: ProgramKind,
    templateDir: string,
    passphrase: string,
    tarball: string,
  ): Promise<BaselineProject> {
    switch (kind) {
      case "typescript":
        return new BaselineProject(
          await ConsumerProject.fromTemplate(templateDir, `baseline-${kind}`, tarball),
          passphrase,
        );
      case "yaml":
        return new BaselineProject(await LanguageProject.create(templateDir, `baseline-${kind}`), passphrase);
    }
  }

  get dir(): string {
    return this.#project.dir;
  }

  async pulumi(args: string[]): Promise<CommandResult> {
    return this.#project.pulumi(args, this.env);
  }

  readFile(relative: string): string {
    return this.#project.readFile(relative);
  }

  cleanUp(): void {
    this.#project.cleanUp();
  }
}

/** A step of `pulumi preview --json`, as far as the test reads it. */
interface PreviewStep {
  op: string;
  urn: string;
  diffReasons?: string[];
  replaceReasons?: string[];
  detailedDiff?: Record<string, { kind: string }> | null;
  oldState?: { inputs?: Record<string, unknown> };
  newState?: { inputs?: Record<string, unknown> };
}

/**
 * The inputs that differ between a step's old and new state, for a step whose provider names none
 * (a dynamic provider's diff says only whether something changed).
 */
function differingInputs(step: PreviewStep): string[] {
  const olds = step.oldState?.inputs ?? {};
  const news = step.newState?.inputs ?? {};
  return [...new Set([...Object.keys(olds), ...Object.keys(news)])]
    .filter((key) => JSON.stringify(olds[key]) !== JSON.stringify(news[key]))
    .map((key) => `${key} (${!(key in olds) ? "add" : !(key in news) ? "delete" : "update"})`)
    .sort();
}

/**
 * Every step of a `pulumi preview --json` that is not "same", one line each: the operation, the
 * resource and what changed (`update urn:…::treasury [diff: onDelete (update)]`: the provider's
 * detailed diff, else the inputs that differ between the old and the new state);
 * the change summary's counts too, should it hold one that no step shows. Empty: no change at all.
 */
export function changedSteps(previewJson: string): string[] {
  const preview = JSON.parse(previewJson) as {
    steps?: PreviewStep[];
    changeSummary?: Record<string, number>;
  };
  const steps = (preview.steps ?? [])
    .filter((step) => step.op !== "same")
    .map((step) => {
      const details = Object.entries(step.detailedDiff ?? {}).map(
        ([property, diff]) => `${property} (${diff.kind})`,
      );
      const reasons = step.diffReasons ?? [];
      const diff = details.length > 0 ? details : reasons.length > 0 ? reasons : differingInputs(step);
      const replaces = step.replaceReasons ?? [];
      return [
        `${step.op} ${step.urn}`,
        diff.length > 0 ? ` [diff: ${diff.join(", ")}]` : "",
        replaces.length > 0 ? ` [replaces for: ${replaces.join(", ")}]` : "",
      ].join("");
    });
  const summary = Object.entries(preview.changeSummary ?? {})
    .filter(([op, count]) => op !== "same" && count > 0)
    .map(([op, count]) => `change summary: ${op} ${count}`);
  return steps.length > 0 ? steps : summary;
}
