import { spawn, type ChildProcess } from "node:child_process";
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
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
