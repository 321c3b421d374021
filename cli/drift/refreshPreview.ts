import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { runPulumi } from "../pulumiCli.ts";

/**
 * `pulumi refresh --preview-only` of the project in `cwd`, answered as its event log: reads every
 * resource from the service and writes nothing, neither to the state nor to the service (the
 * provider's read() only sends GETs). The event log, not the `--json` digest, is what carries the
 * read state of every resource, the TypeScript program's dynamic resources included
 * (cli/drift/refreshSteps.ts). `--json` still keeps the engine's errors in one place to quote.
 */
export async function runRefreshPreview(cwd: string, stack: string | undefined): Promise<string> {
  // The event log holds no secret in clear (the engine masks them), but it is this stack's state:
  // it goes in a directory only this user can read, removed after.
  const dir = mkdtempSync(path.join(os.tmpdir(), "portfolio-wallet-drift-"));
  const eventLog = path.join(dir, "refresh-events.jsonl");
  const args = [
    "refresh",
    "--preview-only",
    "--json",
    "--event-log",
    eventLog,
    "--non-interactive",
    ...(stack ? ["--stack", stack] : []),
  ];
  try {
    // The engine offers --event-log only with PULUMI_DEBUG_COMMANDS set, as Pulumi's own
    // Automation API runs it.
    await runPulumi(args, cwd, { PULUMI_DEBUG_COMMANDS: "true" }, ", or pass --refresh-preview");
    return readFileSync(eventLog, "utf8");
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
