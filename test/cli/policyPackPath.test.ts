import { existsSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, test } from "vitest";
import { detectPolicyEngine, POLICY_SHIM, policyPackPath } from "../../cli/commands/policyPack.ts";
import { repoRoot } from "../../scripts/pulumiEnv.ts";
import { runProcess } from "./harness.ts";

/**
 * `portfolio-wallet policy-pack-path` names the pack's manifest for the engine on PATH: the offline
 * engine is told apart by the launcher it puts beside its `pulumi`. (Through the engine with a YAML
 * project, from a tools directory beside it: test/cli/report/moneyEveryAdapter.engine.test.ts.)
 */

const dirs: string[] = [];
afterAll(() => dirs.forEach((dir) => rmSync(dir, { recursive: true, force: true })));

function binDir(withShim: boolean): string {
  const dir = mkdtempSync(path.join(os.tmpdir(), "pw-policy-path-"));
  dirs.push(dir);
  writeFileSync(path.join(dir, "pulumi"), "");
  if (withShim) writeFileSync(path.join(dir, POLICY_SHIM), "");
  return dir;
}

describe("policy-pack-path", () => {
  test("with the offline engine's launcher on PATH, the offline manifest, saying why", () => {
    const bin = binDir(true);
    const detected = detectPolicyEngine([binDir(false), bin].join(path.delimiter));
    expect(detected.engine).toBe("offline");
    expect(detected.why).toContain(path.join(bin, POLICY_SHIM));
  });

  test("without it, the regular manifest", () => {
    expect(detectPolicyEngine(binDir(false)).engine).toBe("regular");
  });

  test("each path is a pack directory of the package", () => {
    for (const engine of ["regular", "offline"] as const) {
      expect(existsSync(path.join(policyPackPath(engine, repoRoot), "PulumiPolicy.yaml"))).toBe(true);
    }
    expect(policyPackPath("offline", repoRoot)).toBe(path.join(repoRoot, "policy", "offline"));
  });

  test("the command prints only the path on stdout, and why on stderr; --engine overrides", async () => {
    const regular = await runProcess(process.execPath, ["cli/main.ts", "policy-pack-path"], {
      cwd: repoRoot,
      env: { ...process.env, PATH: binDir(false) },
    });
    expect(regular.code, regular.stderr).toBe(0);
    expect(regular.stdout).toBe(`${path.join(repoRoot, "policy")}\n`);
    expect(regular.stderr).toContain(`no ${POLICY_SHIM} on PATH`);

    const forced = await runProcess(
      process.execPath,
      ["cli/main.ts", "policy-pack-path", "--engine", "offline"],
      {
        cwd: repoRoot,
        env: { ...process.env, PATH: binDir(false) },
      },
    );
    expect(forced.stdout).toBe(`${path.join(repoRoot, "policy", "offline")}\n`);
    expect(forced.stderr).toContain("as --engine asked");
  });
});
