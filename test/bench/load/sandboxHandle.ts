// The parent's side of test/bench/load/sandboxProcess.ts: fork it, wait until it serves, ask it to
// reset or report its stats over IPC, and close it. Shared by the load benches and the signing-cost
// bench and test. The process can be another checkout's (`sourceRoot`, a git worktree of an older commit), so
// a bench runs that commit's sandbox beside this one's: the IPC has not changed since 18a00d0.
import { fork, type ChildProcess } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import type { SandboxProcessOptions, SandboxProcessStats } from "./sandboxProcess.ts";

export interface SandboxHandle {
  url: string;
  pid: number;
  /** SQLite's synchronous setting on the sandbox's connection (1 NORMAL, 2 FULL). */
  synchronous: number;
  child: ChildProcess;
  /** The data directory, or ":memory:". */
  dataDir: string;
  ask(type: "reset"): Promise<void>;
  ask(type: "stats"): Promise<SandboxProcessStats>;
  /** The process's resident memory now and at its peak (VmRSS, VmHWM), bytes. */
  memory(): { rssBytes: number; peakRssBytes: number };
  close(): Promise<void>;
}

export interface SandboxProcessLaunch {
  /** The checkout whose test/bench/load/sandboxProcess.ts runs (default: this one). */
  sourceRoot?: string;
  /** Writes a V8 CPU profile of the sandbox into this directory when it closes. */
  cpuProfileDir?: string;
}

/** A Linux process's resident memory from /proc (0 where there is no /proc). */
function memoryOf(pid: number): { rssBytes: number; peakRssBytes: number } {
  let status = "";
  try {
    status = readFileSync(`/proc/${pid}/status`, "utf8");
  } catch {
    return { rssBytes: 0, peakRssBytes: 0 };
  }
  const kib = (field: string) =>
    Number(new RegExp(`^${field}:\\s+(\\d+) kB`, "m").exec(status)?.[1] ?? 0) * 1024;
  return { rssBytes: kib("VmRSS"), peakRssBytes: kib("VmHWM") };
}

/** A sandbox in a process of its own, with a fresh data directory unless `dataDir` is ":memory:". */
export async function startSandboxProcess(
  tokens: Record<string, string>,
  storage: { dataDir?: ":memory:" } = {},
  launch: SandboxProcessLaunch = {},
): Promise<SandboxHandle> {
  const dataDir = storage.dataDir ?? mkdtempSync(path.join(os.tmpdir(), "pw-load-data-"));
  const options: SandboxProcessOptions = { dataDir, tokens };
  const script =
    launch.sourceRoot === undefined
      ? path.join(import.meta.dirname, "sandboxProcess.ts")
      : path.join(launch.sourceRoot, "test", "bench", "load", "sandboxProcess.ts");
  const child = fork(script, [], {
    cwd: launch.sourceRoot,
    execArgv: [
      ...process.execArgv,
      ...(launch.cpuProfileDir === undefined ? [] : ["--cpu-prof", `--cpu-prof-dir=${launch.cpuProfileDir}`]),
    ],
    env: { ...process.env, LOAD_SANDBOX_OPTIONS: JSON.stringify(options) },
    stdio: ["ignore", "inherit", "inherit", "ipc"],
  });
  const ready = await new Promise<{ url: string; pid: number; synchronous: number }>((resolve, reject) => {
    child.once("message", (message: { type: string; url: string; pid: number; synchronous: number }) =>
      resolve(message),
    );
    child.once("exit", (code) =>
      reject(new Error(`the sandbox process exited (${code}) before it was ready`)),
    );
  });
  const ask = (type: string) =>
    new Promise<unknown>((resolve) => {
      const onMessage = (message: { type: string; stats?: SandboxProcessStats }) => {
        if (message.type !== type) return;
        child.off("message", onMessage);
        resolve(message.stats);
      };
      child.on("message", onMessage);
      child.send({ type });
    });
  return {
    ...ready,
    child,
    dataDir,
    ask: ask as SandboxHandle["ask"],
    memory: () => memoryOf(ready.pid),
    async close() {
      const exited = new Promise((resolve) => child.once("exit", resolve));
      child.send({ type: "close" });
      await exited;
      if (dataDir !== ":memory:") rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
