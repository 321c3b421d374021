// The parent's side of test/bench/load/sandboxProcess.ts: fork it, wait until it serves, ask it to
// reset or report its stats over IPC, and close it. Shared by the load bench and the signing-cost test.
import { fork, type ChildProcess } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
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
  close(): Promise<void>;
}

/** A sandbox in a process of its own, with a fresh data directory unless `dataDir` is ":memory:". */
export async function startSandboxProcess(
  tokens: Record<string, string>,
  storage: { dataDir?: ":memory:" } = {},
): Promise<SandboxHandle> {
  const dataDir = storage.dataDir ?? mkdtempSync(path.join(os.tmpdir(), "pw-load-data-"));
  const options: SandboxProcessOptions = { dataDir, tokens };
  const child = fork(path.join(import.meta.dirname, "sandboxProcess.ts"), [], {
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
    async close() {
      const exited = new Promise((resolve) => child.once("exit", resolve));
      child.send({ type: "close" });
      await exited;
      if (dataDir !== ":memory:") rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
