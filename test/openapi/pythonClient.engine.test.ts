import { execFile } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, expect, test } from "vitest";
import { repoRoot } from "../../scripts/pulumiEnv.ts";
import { startTestSandbox, TOKEN, type TestSandbox } from "../sandbox/helpers.ts";
import { ensurePythonEnv } from "./pythonEnv.ts";

/**
 * docs/openapi.md's worked example, as a reader would run it: openapi-python-client (from PyPI,
 * cached by scripts/ensure-python-env.sh) generates a client from the sandbox's GET /openapi.json
 * into a temporary folder, pip installs it into the cached venv, and examples/openapi-python/
 * call_sandbox.py calls the sandbox with it.
 */
let t: TestSandbox;
let workDir: string;
beforeAll(async () => {
  t = await startTestSandbox();
  workDir = mkdtempSync(path.join(tmpdir(), "openapi-python-"));
});
afterAll(async () => {
  await t.close();
  rmSync(workDir, { recursive: true, force: true });
});

test("a Python client generated from the document calls the sandbox", async () => {
  const venv = ensurePythonEnv("openapi-python-client");
  const example = path.join(repoRoot, "examples", "openapi-python");
  const documentPath = path.join(workDir, "openapi.json");
  writeFileSync(documentPath, await (await fetch(`${t.url}/openapi.json`)).text());
  // Asynchronously: the sandbox answers from this very process while Python calls it.
  const run = async (command: string, args: string[]) =>
    (
      await promisify(execFile)(path.join(venv, "bin", command), args, {
        cwd: workDir,
        encoding: "utf8",
        timeout: 120_000,
      })
    ).stdout;

  const generated = path.join(workDir, "client");
  const generation = await run("openapi-python-client", [
    "generate",
    "--meta",
    "setup",
    "--path",
    documentPath,
    "--output-path",
    generated,
    "--config",
    path.join(example, "client_config.yaml"),
  ]);
  expect(generation).toContain("Generating");
  await run("pip", [
    "install",
    "--quiet",
    "--disable-pip-version-check",
    "--no-deps",
    "--no-index",
    "--no-build-isolation",
    "--force-reinstall",
    generated,
  ]);
  const output = await run("python", [path.join(example, "call_sandbox.py"), t.url, TOKEN]);
  expect(output).toContain("yield sources: tbills, resolvRlp, syrupUsdc");
  expect(output).toMatch(/created wallet [0-9a-f-]{36} with deposit addresses on .*ethereum/);
  expect(output).toContain("refused: validation_failed - positions");
  expect(output.trim().split("\n").at(-1)).toBe("ok");
  const wallets = await t.api("GET", "/v2/portfolio-wallets");
  expect(wallets.body.data.map((w: { label: string }) => w.label)).toContain("from Python");
}, 600_000);
