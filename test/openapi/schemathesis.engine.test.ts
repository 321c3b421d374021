import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { expect, test } from "vitest";
import { repoRoot } from "../../scripts/pulumiEnv.ts";
import { SANDBOX_DOCUMENT_OPERATIONS } from "../../sandbox/index.ts";
import { ensurePythonEnv } from "./pythonEnv.ts";

/**
 * Schemathesis (4.32.5, from PyPI, cached by scripts/ensure-python-env.sh) against a sandbox with
 * seeded data, on every operation of GET /openapi.json, with the six checks of run.ts: zero
 * failures. The run happens in a network namespace of its own (`unshare -n`, loopback only): the
 * webhook URLs it registers are arbitrary, and nothing may leave this machine for them.
 */
test("Schemathesis finds no failure on any operation of the sandbox's document", () => {
  const venv = ensurePythonEnv("schemathesis");
  const reportDir = mkdtempSync(path.join(tmpdir(), "schemathesis-"));
  try {
    const run = spawnSync(
      "unshare",
      [
        "--net",
        "--",
        "sh",
        "-c",
        'ip link set lo up && exec "$0" test/openapi/schemathesis/run.ts "$1" "$2"',
        process.execPath,
        venv,
        reportDir,
      ],
      { cwd: repoRoot, encoding: "utf8", timeout: 10 * 60_000, maxBuffer: 64 * 1024 * 1024 },
    );
    const output = `${run.stdout}\n${run.stderr}`;
    const lastLine = run.stdout.trim().split("\n").at(-1) ?? "";
    let summary: Record<string, number>;
    try {
      summary = JSON.parse(lastLine) as Record<string, number>;
    } catch {
      throw new Error(
        `the Schemathesis run printed no summary (exit ${run.status}):\n${output.slice(-8000)}`,
      );
    }
    console.log(`schemathesis: ${lastLine}`);
    const failed = summary.failures !== 0 || summary.errors !== 0 || summary.exitCode !== 0;
    expect(failed ? output.slice(-20000) : "", "Schemathesis output").toBe("");
    expect(summary).toMatchObject({ exitCode: 0, failures: 0, errors: 0 });
    const operations = SANDBOX_DOCUMENT_OPERATIONS.service.length;
    expect(summary.documentedOperations).toBe(operations);
    expect(summary.testedOperations).toBe(operations);
    expect(summary.generated).toBeGreaterThan(20 * operations);
  } finally {
    rmSync(reportDir, { recursive: true, force: true });
  }
}, 900_000);
