import { execFile, execFileSync } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import {
  MINIMUM_NODE_VERSION,
  NODE_WITH_NPM_ALONE,
  unsupportedNodeMessage,
} from "../../sdk/nodejs/client/core/nodeVersion.ts";
import { repoRoot } from "../../scripts/pulumiEnv.ts";
import { packedPackage } from "./harness/packedPackage.ts";
import { installPackedPackage, userProjectDependencies } from "./harness/sharedInstall.ts";

/**
 * On a Node.js older than the package's floor, each entry (the ES module and the CommonJS root,
 * the command-line tool) stops before anything that would fail with an unrelated error, naming the
 * running version and the floor. Run from the packed package with the machine's own old Node.js
 * (Debian's, and many CI images', is 20), found on PATH.
 */

const execFileAsync = promisify(execFile);

/** A node on PATH (or at the usual system paths) older than the floor: the machine's own. */
function olderNode(): { execPath: string; version: string } {
  const dirs = [...(process.env["PATH"] ?? "").split(path.delimiter), "/usr/bin", "/usr/local/bin"];
  const found = [...new Set(dirs.filter(Boolean).map((dir) => path.join(dir, "node")))].filter((file) =>
    existsSync(file),
  );
  for (const execPath of found) {
    const version = execFileSync(execPath, ["-p", "process.versions.node"], { encoding: "utf8" }).trim();
    if (unsupportedNodeMessage("x", { version, execPath }) !== undefined) return { execPath, version };
  }
  throw new Error(
    `no Node.js older than ${MINIMUM_NODE_VERSION} on this machine (looked at ${found.join(", ")})`,
  );
}

let dir: string;
let old: { execPath: string; version: string };

beforeAll(async () => {
  old = olderNode();
  const tarball = await packedPackage();
  dir = mkdtempSync(path.join(os.tmpdir(), "pw-node-version-"));
  writeFileSync(
    path.join(dir, "package.json"),
    JSON.stringify({ name: "old-node-user", private: true, dependencies: userProjectDependencies() }),
  );
  await installPackedPackage(dir, tarball);
}, 600_000);

afterAll(() => {
  if (dir !== undefined) rmSync(dir, { recursive: true, force: true });
});

async function run(node: string, args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  try {
    const { stdout, stderr } = await execFileAsync(node, args, {
      cwd: dir,
      env: { PATH: process.env["PATH"] },
    });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const { code, stdout, stderr } = error as { code: number; stdout: string; stderr: string };
    return { code, stdout, stderr };
  }
}

const ENTRIES = {
  "the CommonJS entry": ["-e", "require('@portfolio-wallet/pulumi')"],
  "the ES module entry": ["--input-type=module", "-e", "await import('@portfolio-wallet/pulumi')"],
  "the command-line tool": ["node_modules/@portfolio-wallet/pulumi/dist/cli/main.js", "--version"],
};

describe("the package on a Node.js older than its floor", () => {
  test.each(Object.entries(ENTRIES))(
    "%s names the running Node.js, the floor and what to do",
    async (_entry, args) => {
      const { code, stderr } = await run(old.execPath, args);
      expect(code).not.toBe(0);
      expect(stderr).toContain(
        `needs Node.js ${MINIMUM_NODE_VERSION} or newer; this is Node.js ${old.version} (${old.execPath})`,
      );
      expect(stderr).toContain(NODE_WITH_NPM_ALONE);
      // Stopped before the errors that named nothing of the cause.
      expect(stderr).not.toMatch(/reading 'bind'|No such built-in module|Unknown file extension/);
    },
  );

  test.each(Object.entries(ENTRIES))("%s loads on the Node.js the tests run with", async (_entry, args) => {
    const { code, stderr } = await run(process.execPath, args);
    expect(stderr).not.toContain("needs Node.js");
    expect(code, stderr).toBe(0);
  });

  test("the floor is package.json's engines.node", () => {
    const manifest = JSON.parse(readFileSync(path.join(repoRoot, "package.json"), "utf8")) as {
      engines: { node: string };
    };
    expect(manifest.engines.node).toBe(`>=${MINIMUM_NODE_VERSION}`);
  });
});
