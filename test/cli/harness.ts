import { spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll } from "vitest";
import { repoRoot } from "../../scripts/pulumiEnv.ts";

export interface CliRun {
  code: number;
  stdout: string;
  stderr: string;
}

const cliMain = path.join(repoRoot, "cli", "main.ts");

/**
 * A working directory with no Pulumi project, so that settings come only from flags and the
 * environment the test gives (never from a developer's stack); removed after the file's tests.
 */
export function useCliDirectory(): () => string {
  const dir = mkdtempSync(path.join(os.tmpdir(), "pw-cli-"));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  return () => dir;
}

/**
 * Runs `portfolio-wallet <args>` as a user would (a separate process, the Node that runs the
 * tests), with exactly the given environment on top of PATH: no PORTFOLIO_WALLET_* or TURNKEY_*
 * variable of the machine leaks in.
 */
export function portfolioWallet(
  args: string[],
  options: { env?: Record<string, string>; cwd: string; input?: string },
): Promise<CliRun> {
  const inherited = Object.fromEntries(
    Object.entries(process.env).filter(
      ([name]) =>
        !name.startsWith("PORTFOLIO_WALLET_") && !name.startsWith("TURNKEY_") && name !== "GITHUB_SHA",
    ),
  );
  return runProcess(process.execPath, [cliMain, ...args], {
    cwd: options.cwd,
    env: { ...inherited, ...options.env },
    input: options.input,
  });
}

/** Runs a command to completion with `input` on stdin: its exit code and what it printed. */
export function runProcess(
  command: string,
  args: string[],
  options: { cwd: string; env: NodeJS.ProcessEnv; input?: string | undefined },
): Promise<CliRun> {
  const child = spawn(command, args, { cwd: options.cwd, env: options.env, stdio: ["pipe", "pipe", "pipe"] });
  let stdout = "";
  let stderr = "";
  child.stdout.on("data", (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
  child.stdin.end(options.input ?? "");
  return new Promise((resolve, reject) => {
    child.once("error", reject);
    child.once("close", (code) => resolve({ code: code ?? -1, stdout, stderr }));
  });
}
