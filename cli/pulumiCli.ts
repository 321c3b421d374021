import { execFile } from "node:child_process";
import { promisify } from "node:util";

const execFileAsync = promisify(execFile);

/**
 * Runs the Pulumi CLI in a project for a command of this tool (`drift`, `restore`), and answers
 * its output. A failure says which command failed where, quoting the engine's error lines: with
 * `--json` the engine reports its errors as diagnostics in stdout, without it on stderr.
 */
export async function runPulumi(
  args: readonly string[],
  cwd: string,
  env: Readonly<Record<string, string>> = {},
  /** What else the user can do when the CLI is not installed (drift: pass a saved refresh). */
  orElse = "",
): Promise<{ stdout: string; stderr: string }> {
  try {
    return await execFileAsync("pulumi", [...args], {
      cwd,
      env: { ...process.env, ...env },
      maxBuffer: 256 * 1024 * 1024,
    });
  } catch (error) {
    const { stderr = "", stdout = "", code } = error as { stderr?: string; stdout?: string; code?: unknown };
    if (code === "ENOENT") throw new Error(`the Pulumi CLI (pulumi) is not on PATH; install it${orElse}`);
    const lines = `${stderr}\n${stdout}`
      .split("\n")
      .filter((line) => /error/i.test(line))
      .slice(0, 10)
      .join("\n");
    throw new Error(`pulumi ${args.join(" ")} failed in ${cwd}:\n${lines || stderr.trim()}`, {
      cause: error,
    });
  }
}
