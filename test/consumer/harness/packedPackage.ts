import { execFileSync } from "node:child_process";
import { appendFileSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { buildInputsHash } from "../../../scripts/build.ts";
import { repoRoot } from "../../../scripts/pulumiEnv.ts";
import { onceUnderLock } from "../../support/onceUnderLock.ts";

/**
 * The package as users get it: `npm pack` of this repository (which runs `prepare`, the build).
 * Packing takes a build, so the tarball is cached in the OS temp dir under the hash of every build
 * input (scripts/build.ts); test files in other worker processes share it, and a changed source
 * packs anew.
 */

/** Runs npm with the Node that runs the tests first on PATH (npm's own shebang picks `node` from PATH). */
export function npmEnv(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  return {
    ...process.env,
    PATH: [path.dirname(process.execPath), process.env["PATH"] ?? ""].join(path.delimiter),
    npm_config_audit: "false",
    npm_config_fund: "false",
    npm_config_update_notifier: "false",
    ...extra,
  };
}

/** Absolute path of the packed tarball of the current sources (packed once per change of them). */
export async function packedPackage(): Promise<string> {
  const dir = path.join(os.tmpdir(), "portfolio-wallet-packs", buildInputsHash());
  await onceUnderLock(dir, async () => {
    execFileSync("npm", ["pack", "--pack-destination", dir, "--silent"], {
      cwd: repoRoot,
      env: npmEnv(),
      stdio: ["ignore", "ignore", "inherit"],
    });
  });
  const tarball = readdirSync(dir).find((name) => name.endsWith(".tgz"));
  if (tarball === undefined) throw new Error(`npm pack left no tarball in ${dir}`);
  return path.join(dir, tarball);
}

/**
 * A rebuild of a packed tarball whose internals changed: another version number, and new code in
 * the program-side resource class and in the provider implementation (both module formats). What
 * a user gets from a package upgrade that changes nothing they configure.
 */
export function rebuiltWithChangedInternals(tarball: string, version: string): string {
  const work = mkdtempSync(path.join(os.tmpdir(), "pw-rebuilt-"));
  execFileSync("tar", ["xzf", tarball, "-C", work]);
  const root = path.join(work, "package");
  const manifestPath = path.join(root, "package.json");
  const manifest = JSON.parse(readFileSync(manifestPath, "utf8")) as { version: string; scripts?: object };
  manifest.version = version;
  writeFileSync(manifestPath, `${JSON.stringify(manifest, null, 2)}\n`);
  const marker = `internals of ${version}`;
  for (const file of [
    "dist/sdk/nodejs/resources/portfolioWallet.js",
    "dist/provider/portfolioWallet.js",
    "dist/provider/implementation.js",
  ]) {
    appendFileSync(path.join(root, file), `\nexport const BUILD_MARKER = ${JSON.stringify(marker)};\n`);
  }
  for (const file of [
    "dist/cjs/sdk/nodejs/resources/portfolioWallet.js",
    "dist/cjs/provider/portfolioWallet.js",
  ]) {
    appendFileSync(path.join(root, file), `\nexports.BUILD_MARKER = ${JSON.stringify(marker)};\n`);
  }
  // The serialized provider object itself changes too: a __provider that copied its code would differ.
  for (const file of [
    "dist/sdk/nodejs/resources/resourceProvider.cjs",
    "dist/cjs/sdk/nodejs/resources/resourceProvider.cjs",
  ]) {
    appendFileSync(path.join(root, file), `\nmodule.exports.buildMarker = ${JSON.stringify(marker)};\n`);
  }
  const out = path.join(work, "out");
  mkdirSync(out);
  // --ignore-scripts: the unpacked package has no sources to run `prepare` (the build) on.
  const name = execFileSync("npm", ["pack", "--ignore-scripts", "--pack-destination", out, "--silent"], {
    cwd: root,
    env: npmEnv(),
    encoding: "utf8",
  })
    .trim()
    .split("\n")
    .at(-1);
  return path.join(out, name ?? "");
}
