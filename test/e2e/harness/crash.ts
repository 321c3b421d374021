import { spawn, type ChildProcess } from "node:child_process";
import { readdirSync, readFileSync, rmSync, statSync } from "node:fs";
import path from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { fileURLToPath } from "node:url";
import { engineBinDir } from "../../../scripts/pulumiEnv.ts";

/**
 * The Pulumi CLI run directly, so that it can be killed the way a crash kills it. The Automation
 * API's `signal` sends SIGINT, which the engine treats as a graceful cancel: it waits for the
 * running provider call to finish and records its result, so nothing would be left unrecorded.
 */
export interface PulumiProcess {
  child: ChildProcess;
  /** Resolves when the CLI has exited (killed or not). */
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

export function spawnPulumi(
  args: string[],
  options: { cwd: string; env: Record<string, string>; write: (text: string) => void },
): PulumiProcess {
  const child = spawn(path.join(engineBinDir(), "pulumi"), args, {
    cwd: options.cwd,
    env: { ...process.env, ...options.env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  child.stdout?.on("data", (chunk: Buffer) => options.write(chunk.toString()));
  child.stderr?.on("data", (chunk: Buffer) => options.write(chunk.toString()));
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve, reject) => {
    child.once("error", reject);
    child.once("exit", (code, signal) => resolve({ code, signal }));
  });
  return { child, exited };
}

/** Parent pid of every process, from /proc (Linux). */
function parentPids(): Map<number, number> {
  const parents = new Map<number, number>();
  for (const entry of readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, "utf8");
      // Fields after the command name, which is in parentheses and may itself hold spaces.
      const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
      parents.set(Number(entry), Number(fields[1]));
    } catch {
      // the process ended while we looked
    }
  }
  return parents;
}

/**
 * The process and all its descendants. The engine starts its plugins (language host, dynamic
 * provider) in process groups of their own, so killing the CLI's group would leave them running.
 */
export function processTree(rootPid: number): number[] {
  const parents = parentPids();
  const tree = [rootPid];
  for (let i = 0; i < tree.length; i++) {
    for (const [pid, parent] of parents) if (parent === tree[i]) tree.push(pid);
  }
  return tree;
}

/** SIGKILL to the CLI and every process it started, all at once: no process gets to clean up. */
export function killProcessTree(rootPid: number): number[] {
  const tree = processTree(rootPid);
  for (const pid of tree) {
    try {
      process.kill(pid, "SIGKILL");
    } catch {
      // already gone
    }
  }
  return tree;
}

/** Whether a process still runs (zombies, killed but not yet reaped, count as ended). */
export function isRunning(pid: number): boolean {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    return stat.slice(stat.lastIndexOf(")") + 2).split(" ")[0] !== "Z";
  } catch {
    return false;
  }
}

/** What an interrupted `up` needs: the project to run it in, and how to watch the service. */
export interface InterruptedUp {
  project: { dir: string; env(): NodeJS.ProcessEnv; pulumi(args: string[]): Promise<unknown> };
  /** The request count of `route` the service has answered so far. */
  countOf(route: string): Promise<number>;
  /** Extra environment for the engine (PULUMI_SKIP_CHECKPOINTS, say). */
  env?: Record<string, string>;
  /** Where the CLI's output goes. */
  write(text: string): void;
}

/**
 * Starts `pulumi up` and kills it, with everything it started, once the service has answered
 * `after` requests of `route`; the engine must still be running then. Then `pulumi cancel`
 * releases the backend's lock the dead run left, as a user must after any crash.
 */
export async function upKilledAfter(run: InterruptedUp, route: string, after: number): Promise<void> {
  const cli = spawnPulumi(["up", "--yes", "--skip-preview", "--non-interactive"], {
    cwd: run.project.dir,
    env: { ...(run.project.env() as Record<string, string>), ...run.env },
    write: run.write,
  });
  let exited = false;
  void cli.exited.then(() => (exited = true));
  let killed: number[] = [];
  try {
    const deadline = Date.now() + 120_000;
    while ((await run.countOf(route)) < after) {
      if (exited || Date.now() > deadline) throw new Error(`up ended or stalled before ${after} × ${route}`);
      await sleep(20);
    }
  } finally {
    if (!exited) killed = killProcessTree(cli.child.pid as number);
  }
  const { signal } = await cli.exited;
  if (signal !== "SIGKILL")
    throw new Error(`up was meant to be killed, but it exited (${signal ?? "no signal"})`);
  await sleep(200);
  const survivors = killed.filter(isRunning);
  if (survivors.length > 0) throw new Error(`processes of the killed up still run: ${survivors.join(", ")}`);
  removeEmptyAttributeFiles(run);
  await run.project.pulumi(["cancel", "--yes"]);
}

/**
 * The recovery step docs/provider.md gives for the file backend ("A cancelled or killed run"): a
 * run killed while it wrote a checkpoint can leave the checkpoint's metadata file
 * (`<stack>.json.attrs`, which the backend's storage library truncates and then writes in place)
 * empty, and every later command on the stack then fails with `failed to load checkpoint: EOF`.
 * It holds only the file's content type, so the docs say to delete it when empty; the checkpoint
 * itself is written whole to a temporary file and renamed into place. Said in the run's output
 * when it happens, as a user would see it.
 */
export function removeEmptyAttributeFiles(run: Pick<InterruptedUp, "project" | "write">): void {
  const backendUrl = (run.project.env() as Record<string, string>)["PULUMI_BACKEND_URL"] ?? "";
  if (!backendUrl.startsWith("file:")) return;
  const stacksDir = path.join(fileURLToPath(backendUrl), ".pulumi", "stacks");
  const files = readdirSync(stacksDir, { recursive: true, encoding: "utf8" });
  for (const relative of files.filter((name) => name.endsWith(".json.attrs"))) {
    const file = path.join(stacksDir, relative);
    if (statSync(file).size > 0) continue;
    run.write(`\n[recovery] the killed run left ${file} empty: removed, as docs/provider.md says\n`);
    rmSync(file);
  }
}
