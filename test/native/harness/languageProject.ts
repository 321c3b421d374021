import { execFile } from "node:child_process";
import { createHash } from "node:crypto";
import {
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from "node:fs";
import os from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { pluginArchiveName } from "../../../scripts/pluginArchive.ts";
import {
  engineBinDir,
  offlinePulumiSettings,
  refuseInUnitTests,
  repoRoot,
} from "../../../scripts/pulumiEnv.ts";
import type { StateResource } from "../../consumer/harness/consumerProject.ts";
import { onceUnderLock } from "../../support/onceUnderLock.ts";

const execFileAsync = promisify(execFile);

/**
 * A user's Pulumi project in another language, in a temp dir outside this repository, as a
 * Python, Go or YAML user has it: the plugin installed from its release archive with
 * `pulumi plugin install resource portfolio-wallet <version> --file ...` into the project's own
 * PULUMI_HOME, the offline engine on PATH, a file backend. Node.js is on PATH only because the
 * plugin's launcher runs it.
 */

export const PACKAGE_VERSION = (
  JSON.parse(readFileSync(path.join(repoRoot, "package.json"), "utf8")) as { version: string }
).version;
export const PLUGIN_ARCHIVE = path.join(repoRoot, "dist", "plugin", pluginArchiveName(PACKAGE_VERSION));

export interface CommandResult {
  stdout: string;
  stderr: string;
}

export class LanguageProject {
  readonly root: string;
  readonly dir: string;
  readonly stateDir: string;
  /** Directories put first on PATH (a Python virtual environment's bin). */
  readonly #extraPath: string[] = [];
  readonly #env: Record<string, string> = {};

  private constructor(root: string) {
    this.root = root;
    this.dir = path.join(root, "project");
    this.stateDir = path.join(root, "state");
  }

  /**
   * Copies a template directory into a new temp project. `plugin` says what the project gets of the
   * native plugin: `"install"` (the default) installs it from its release archive; `"archive"` only
   * requires the archive, leaving the rest to the project (for example `plugins.providers` in
   * Pulumi.yaml); `"none"` is for programs that use no provider (the engine's own checks).
   */
  static async create(
    templateDir: string,
    name: string,
    options: { plugin?: "install" | "archive" | "none" } = {},
  ): Promise<LanguageProject> {
    const plugin = options.plugin ?? "install";
    const project = new LanguageProject(mkdtempSync(path.join(os.tmpdir(), `pw-native-${name}-`)));
    cpSync(templateDir, project.dir, { recursive: true });
    mkdirSync(path.join(project.stateDir, "home"), { recursive: true });
    if (plugin === "none") return project;
    if (!existsSync(PLUGIN_ARCHIVE))
      throw new Error(`no plugin archive at ${PLUGIN_ARCHIVE}: run npm run build`);
    if (plugin === "archive") return project;
    await project.pulumi([
      "plugin",
      "install",
      "resource",
      "portfolio-wallet",
      PACKAGE_VERSION,
      "--file",
      PLUGIN_ARCHIVE,
    ]);
    return project;
  }

  /**
   * A Python virtual environment with the project's requirements.txt and any further packages
   * (paths to package directories, say) installed, first on PATH.
   *
   * Making one is a pip install from PyPI and a build of each package (half a minute or more on two
   * cores), and the Python tests and the Python example want the same one. So the environment is
   * made once per content of what goes into it (the requirements without comments, each package
   * directory's files, the Python version), in the OS temp dir under a lock, and shared by every
   * project and test file that asks for the same; a changed SDK makes a new one.
   */
  async createVirtualEnvironment(packages: string[] = []): Promise<string> {
    refuseInUnitTests("A Python virtual environment with packages from PyPI");
    const requirements = readFileSync(path.join(this.dir, "requirements.txt"), "utf8")
      .split("\n")
      .map((line) => line.replace(/#.*/, "").trim())
      .filter(Boolean);
    const hash = createHash("sha256").update(JSON.stringify(requirements));
    hash.update((await execFileAsync("python3", ["--version"])).stdout);
    for (const dir of packages) {
      for (const file of filesUnder(dir)) hash.update(file).update(readFileSync(path.join(dir, file)));
    }
    const venv = path.join(os.tmpdir(), "portfolio-wallet-venvs", hash.digest("hex").slice(0, 16));
    await onceUnderLock(venv, async () => {
      await execFileAsync("python3", ["-m", "venv", venv]);
      await execFileAsync(
        path.join(venv, "bin", "python"),
        [
          "-m",
          "pip",
          "install",
          "--quiet",
          "--disable-pip-version-check",
          "-r",
          "requirements.txt",
          ...packages,
        ],
        { cwd: this.dir, maxBuffer: 16 * 1024 * 1024 },
      );
    });
    this.prependToPath(path.join(venv, "bin"));
    return venv;
  }

  /** Puts a directory first on the project's PATH (a Python virtual environment's bin). */
  prependToPath(dir: string): void {
    this.#extraPath.unshift(dir);
  }

  setEnv(values: Record<string, string>): void {
    Object.assign(this.#env, values);
  }

  /** The environment of the user's shell: nothing of this repository's settings, no plugin downloads. */
  env(): NodeJS.ProcessEnv {
    const env: NodeJS.ProcessEnv = {};
    for (const [name, value] of Object.entries(process.env)) {
      if (name.startsWith("PORTFOLIO_WALLET_") || name.startsWith("TURNKEY_") || name.startsWith("PULUMI_"))
        continue;
      env[name] = value;
    }
    return {
      ...env,
      PATH: [
        ...this.#extraPath,
        engineBinDir(),
        path.dirname(process.execPath),
        process.env["PATH"] ?? "",
      ].join(path.delimiter),
      ...offlinePulumiSettings(this.stateDir),
      ...this.#env,
    };
  }

  /**
   * Runs the Pulumi CLI in the project, with `extraEnv` added for this command only (the bench's
   * checkpoint mode); a failure throws with everything it printed.
   */
  async pulumi(args: string[], extraEnv: Record<string, string> = {}): Promise<CommandResult> {
    return this.run("pulumi", [...args, "--non-interactive"], this.dir, extraEnv);
  }

  /** Runs a command in the project with its environment; a failure throws with everything it printed. */
  async run(
    command: string,
    args: string[],
    cwd = this.dir,
    extraEnv: Record<string, string> = {},
  ): Promise<CommandResult> {
    try {
      const { stdout, stderr } = await execFileAsync(command, args, {
        cwd,
        env: { ...this.env(), ...extraEnv },
        maxBuffer: 64 * 1024 * 1024,
      });
      return { stdout, stderr };
    } catch (error) {
      const { stdout = "", stderr = "" } = error as { stdout?: string; stderr?: string };
      throw new Error(`${command} ${args.join(" ")} failed in ${cwd}:\n${stdout}\n${stderr}`, {
        cause: error,
      });
    }
  }

  /** The stack's outputs, secrets shown. */
  // Stack outputs are loose JSON.
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  async outputs(): Promise<Record<string, any>> {
    return JSON.parse((await this.pulumi(["stack", "output", "--json", "--show-secrets"])).stdout);
  }

  /** The change summary of a `pulumi preview --json`, without the unchanged. */
  async previewChanges(): Promise<Record<string, number>> {
    const { changeSummary } = JSON.parse((await this.pulumi(["preview", "--json"])).stdout) as {
      changeSummary: Record<string, number>;
    };
    return Object.fromEntries(Object.entries(changeSummary).filter(([op, n]) => op !== "same" && n > 0));
  }

  async stateResources(): Promise<StateResource[]> {
    const { stdout } = await this.pulumi(["stack", "export"]);
    return (JSON.parse(stdout) as { deployment: { resources?: StateResource[] } }).deployment.resources ?? [];
  }

  writeFile(relative: string, text: string): void {
    writeFileSync(path.join(this.dir, relative), text);
  }

  readFile(relative: string): string {
    return readFileSync(path.join(this.dir, relative), "utf8");
  }

  cleanUp(): void {
    rmSync(this.root, { recursive: true, force: true });
  }
}

/** Every file under a directory, relative to it, sorted. */
export function filesUnder(dir: string, prefix = ""): string[] {
  return readdirSync(path.join(dir, prefix), { withFileTypes: true })
    .flatMap((entry) => {
      const relative = path.join(prefix, entry.name);
      return entry.isDirectory() ? filesUnder(dir, relative) : [relative];
    })
    .sort();
}
