import { execFile } from "node:child_process";
import { chmodSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { PLUGIN_EXECUTABLE } from "../../scripts/pluginArchive.ts";
import { NODE_WITH_NPM_ALONE } from "../../sdk/nodejs/client/core/nodeVersion.ts";
import { PLUGIN_ARCHIVE } from "../native/harness/languageProject.ts";

/**
 * The release archive's launcher checks the Node.js on PATH before loading the plugin: an older one
 * would fail while loading the bundle with an unrelated TypeError, which the engine reports as a bug
 * in the provider. The old Node.js is a stand-in `node` that only answers its version, first on PATH.
 */

const execFileAsync = promisify(execFile);
let dir: string;

/** Runs the unpacked launcher with `nodeDir` first on PATH; its exit code and stderr. */
async function launch(nodeDir: string): Promise<{ code: number; stderr: string }> {
  try {
    await execFileAsync(path.join(dir, "plugin", PLUGIN_EXECUTABLE), [], {
      env: { PATH: [nodeDir, process.env["PATH"]].join(path.delimiter) },
    });
    return { code: 0, stderr: "" };
  } catch (error) {
    const { code, stderr } = error as { code: number; stderr: string };
    return { code, stderr };
  }
}

function fakeNode(version: string): string {
  const nodeDir = path.join(dir, `node-${version}`);
  mkdirSync(nodeDir);
  writeFileSync(path.join(nodeDir, "node"), `#!/bin/sh\necho ${version}\n`);
  chmodSync(path.join(nodeDir, "node"), 0o755);
  return nodeDir;
}

beforeAll(async () => {
  dir = mkdtempSync(path.join(os.tmpdir(), "pw-launcher-"));
  mkdirSync(path.join(dir, "plugin"));
  await execFileAsync("tar", ["-xzf", PLUGIN_ARCHIVE, "-C", path.join(dir, "plugin")]);
});

afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe("the plugin's launcher", () => {
  test.each(["20.11.1", "22.18.0"])("refuses Node.js %s, saying which it needs", async (version) => {
    const { code, stderr } = await launch(fakeNode(version));
    expect(code).toBe(1);
    // The version and the fix first, on the plugin's own line, before the engine's wrapper around it.
    expect(stderr).toMatch(
      /^Node\.js 22\.19 or newer is needed as `node` on PATH by the portfolio-wallet provider plugin/,
    );
    expect(stderr).toContain(`is ${version}. ${NODE_WITH_NPM_ALONE}`);
  });

  test("runs the plugin with a new enough Node.js", async () => {
    // Started by hand rather than by the engine, the plugin says what it is and exits 2.
    const { code, stderr } = await launch(path.dirname(process.execPath));
    expect(code).toBe(2);
    expect(stderr).toContain("is a Pulumi provider plugin: the Pulumi engine starts it");
  });
});
