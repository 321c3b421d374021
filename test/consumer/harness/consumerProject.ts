import { execFile, spawn, type ChildProcess } from "node:child_process";
import { once } from "node:events";
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { engineBinDir, offlinePulumiSettings } from "../../../scripts/pulumiEnv.ts";
import { npmEnv } from "./packedPackage.ts";
import { installPackedPackage } from "./sharedInstall.ts";

const execFileAsync = promisify(execFile);

/**
 * The program layouts a user of the package would have, each a fixture directory under
 * test/consumer/layouts/ copied into a fresh project outside this repository:
 * - `esm-typescript`: `"type": "module"` and an `index.ts` (Node strips the types);
 * - `commonjs-typescript`: what `pulumi new typescript` creates (no `"type"`, `tsconfig.json` with
 *   `"module": "commonjs"`, `main: index.ts`; Pulumi compiles it with ts-node and type-checks it);
 * - `javascript`: a plain CommonJS `index.js`.
 */
export const LAYOUTS = ["esm-typescript", "commonjs-typescript", "javascript"] as const;
export type Layout = (typeof LAYOUTS)[number];

const layoutsDir = path.join(import.meta.dirname, "..", "layouts");

export interface CommandResult {
  stdout: string;
  stderr: string;
}

/** A user's Pulumi project in a temp dir, with the packed package installed from its tarball. */
export class ConsumerProject {
  readonly dir: string;
  readonly stateDir: string;
  readonly name: string;

  private constructor(name: string, root: string) {
    this.name = name;
    this.dir = path.join(root, "project");
    this.stateDir = path.join(root, "state");
  }

  /**
   * Whether the engine type-checks the TypeScript program on every run, as it does for a user who
   * sets nothing (ts-node's default). The heavy test tier turns it off for its other projects
   * (PULUMI_NODEJS_TRANSPILE_ONLY in vitest.config.ts): what they test is the provider, and the
   * check costs seconds of CPU per run.
   */
  #typeChecksProgram = false;

  /**
   * Copies the layout into a new temp dir and installs its dependencies and the tarball (the run's
   * one npm install of the same dependencies, installPackedPackage: the ES-module and JavaScript
   * layouts share one, the CommonJS layout with its TypeScript another); the engine type-checks its
   * program on every run, as a user's. The install itself, by npm in the user's directory, is the
   * doc walks' (test/docs/newcomerPath.engine.test.ts).
   */
  static async create(layout: Layout, tarball: string): Promise<ConsumerProject> {
    const project = await ConsumerProject.fromTemplate(
      path.join(layoutsDir, layout),
      layout,
      tarball,
      (dir) => {
        if (layout !== "javascript") {
          cpSync(path.join(layoutsDir, "typescript-program.ts"), path.join(dir, "index.ts"));
        }
      },
    );
    project.#typeChecksProgram = true;
    return project;
  }

  /**
   * A project from any template directory (a Pulumi.yaml, a package.json and the program), its
   * dependencies and the tarball installed: the run's one npm install of the same dependencies
   * (installPackedPackage), linked into the project.
   */
  static async fromTemplate(
    templateDir: string,
    name: string,
    tarball: string,
    prepare: (dir: string) => void = () => undefined,
  ): Promise<ConsumerProject> {
    const project = new ConsumerProject(name, mkdtempSync(path.join(os.tmpdir(), `pw-consumer-${name}-`)));
    cpSync(templateDir, project.dir, { recursive: true });
    prepare(project.dir);
    mkdirSync(path.join(project.stateDir, "home"), { recursive: true });
    await installPackedPackage(project.dir, tarball);
    return project;
  }

  /** `npm install <tarball>`: the package as a user adds it (also how a newer build replaces it). */
  async install(tarball: string): Promise<void> {
    await execFileAsync("npm", ["install", "--prefer-offline", "--loglevel=error", tarball], {
      cwd: this.dir,
      env: npmEnv(),
      maxBuffer: 16 * 1024 * 1024,
    });
  }

  /**
   * The environment of a user's shell with the offline engine: the engine and the Node that runs
   * the tests on PATH, a file backend in this project's temp dir, and nothing of this repository.
   */
  env(): NodeJS.ProcessEnv {
    const env = npmEnv(offlinePulumiSettings(this.stateDir));
    env["PATH"] = [engineBinDir(), env["PATH"] ?? ""].join(path.delimiter);
    // Settings reach the provider through stack config only, as the tests set them.
    for (const name of Object.keys(env)) if (name.startsWith("PORTFOLIO_WALLET_")) delete env[name];
    if (this.#typeChecksProgram) delete env["PULUMI_NODEJS_TRANSPILE_ONLY"];
    return env;
  }

  /** Runs the Pulumi CLI in the project; a failure throws with everything the CLI printed. */
  async pulumi(args: string[], extraEnv: Record<string, string> = {}): Promise<CommandResult> {
    try {
      const { stdout, stderr } = await execFileAsync("pulumi", [...args, "--non-interactive"], {
        cwd: this.dir,
        env: { ...this.env(), ...extraEnv },
        maxBuffer: 64 * 1024 * 1024,
      });
      return { stdout, stderr };
    } catch (error) {
      const { stdout = "", stderr = "" } = error as { stdout?: string; stderr?: string };
      throw new Error(`pulumi ${args.join(" ")} failed in ${this.dir}:\n${stdout}\n${stderr}`, {
        cause: error,
      });
    }
  }

  /** `pulumi stack export`: the checkpoint's resources. */
  async stateResources(): Promise<StateResource[]> {
    const { stdout } = await this.pulumi(["stack", "export"]);
    return (JSON.parse(stdout) as { deployment: { resources?: StateResource[] } }).deployment.resources ?? [];
  }

  /**
   * `npx portfolio-wallet <args>` as a long-running process (the sandbox), in a process group of
   * its own: npx runs the command as its child, and stopProcess() ends the whole group.
   */
  spawnCli(args: string[], env: Record<string, string> = {}): ChildProcess {
    return spawn("npx", ["--no-install", "portfolio-wallet", ...args], {
      cwd: this.dir,
      env: { ...this.env(), ...env },
      stdio: ["pipe", "pipe", "pipe"],
      detached: true,
    });
  }

  /** `npx portfolio-wallet <args>` to completion, with `input` on stdin: its exit code and output. */
  async runCli(args: string[], input = ""): Promise<CommandResult & { code: number }> {
    const child = this.spawnCli(args);
    child.stdin?.end(input);
    let stdout = "";
    let stderr = "";
    child.stdout?.on("data", (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr?.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
    const [code] = (await once(child, "exit")) as [number | null];
    return { stdout, stderr, code: code ?? -1 };
  }

  readFile(relative: string): string {
    return readFileSync(path.join(this.dir, relative), "utf8");
  }

  writeFile(relative: string, text: string): void {
    writeFileSync(path.join(this.dir, relative), text);
  }

  cleanUp(): void {
    rmSync(path.dirname(this.dir), { recursive: true, force: true });
  }
}

// The checkpoint format as far as the tests read it; values are loose JSON.
export interface StateResource {
  urn: string;
  type: string;
  id?: string;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  inputs?: Record<string, any>;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  outputs?: Record<string, any>;
}

/** Waits for `listening on <url>` from a started `portfolio-wallet sandbox` and returns the URL. */
export async function listeningUrl(child: ChildProcess): Promise<string> {
  let stdout = "";
  let stderr = "";
  child.stderr?.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
  return new Promise<string>((resolve, reject) => {
    child.stdout?.on("data", (chunk: Buffer) => {
      stdout += chunk.toString();
      const match = /^listening on (http:\/\/127\.0\.0\.1:\d+)$/m.exec(stdout);
      if (match?.[1] !== undefined) resolve(match[1]);
    });
    child.once("exit", (code) =>
      reject(new Error(`portfolio-wallet sandbox exited with ${code}:\n${stdout}\n${stderr}`)),
    );
  });
}

/** Stops a process started by spawnCli, and every process of its group, and waits for it to exit. */
export async function stopProcess(child: ChildProcess | undefined): Promise<void> {
  if (child?.pid === undefined || child.exitCode !== null || child.signalCode !== null) return;
  const exited = once(child, "exit");
  process.kill(-child.pid, "SIGTERM");
  await exited;
}
