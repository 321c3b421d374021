import { cpSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, expect, test } from "vitest";
import { BUILD_INPUTS, buildInputsHash } from "../../scripts/build.ts";
import { manifestFilesOf, restore, strip } from "../../scripts/packedManifest.ts";
import { repoRoot } from "../../scripts/pulumiEnv.ts";

/**
 * dist/ is rebuilt (by `prepack`, when the checkout is packed) only when the hash of the build
 * inputs changes. What building the inputs leaves inside them must not change it: a doc walk's
 * `pip install <checkout>/sdk/python` builds in place, and the pack that followed it once rebuilt
 * dist/ while other test files were running programs from it ("Cannot find module
 * dist/sdk/nodejs/index.js").
 */

let copy: string;

beforeAll(() => {
  copy = mkdtempSync(path.join(os.tmpdir(), "pw-build-inputs-"));
  for (const input of BUILD_INPUTS)
    cpSync(path.join(repoRoot, input), path.join(copy, input), { recursive: true });
});

afterAll(() => rmSync(copy, { recursive: true, force: true }));

// Recursive: a developer's checkout may already hold these (a `pip install sdk/python` in place).
test("a Python build in place, bytecode and a Maven target leave the hash as it was", () => {
  const before = buildInputsHash(copy);
  const python = path.join(copy, "sdk", "python");
  mkdirSync(path.join(python, "build", "lib", "pulumi_portfolio_wallet"), { recursive: true });
  writeFileSync(path.join(python, "build", "lib", "pulumi_portfolio_wallet", "__init__.py"), "# built\n");
  mkdirSync(path.join(python, "pulumi_portfolio_wallet.egg-info"), { recursive: true });
  writeFileSync(path.join(python, "pulumi_portfolio_wallet.egg-info", "PKG-INFO"), "Name: x\n");
  mkdirSync(path.join(python, "pulumi_portfolio_wallet", "__pycache__"), { recursive: true });
  writeFileSync(path.join(python, "pulumi_portfolio_wallet", "__pycache__", "x.pyc"), "bytecode");
  mkdirSync(path.join(copy, "sdk", "java", "target"), { recursive: true });
  writeFileSync(path.join(copy, "sdk", "java", "target", "x.jar"), "jar");
  expect(buildInputsHash(copy)).toBe(before);
});

test("a changed source changes the hash", () => {
  const before = buildInputsHash(copy);
  writeFileSync(path.join(copy, "provider", "added.ts"), "export const added = 1;\n");
  expect(buildInputsHash(copy)).not.toBe(before);
});

// A pack of the checkout puts the user's package.json in place of the repository's while it packs:
// another test file's packedPackage() hashing the inputs then must not see a changed source.
test("a pack under way (the user's manifest in place of the repository's) leaves the hash as it was", async () => {
  const before = buildInputsHash(copy);
  await strip(manifestFilesOf(copy));
  try {
    expect(buildInputsHash(copy)).toBe(before);
  } finally {
    restore(manifestFilesOf(copy));
  }
  expect(buildInputsHash(copy)).toBe(before);
});
