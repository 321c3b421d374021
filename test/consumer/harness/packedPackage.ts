import { execFileSync } from "node:child_process";
import { readdirSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { buildInputsHash } from "../../../scripts/build.ts";
import { repoRoot } from "../../../scripts/pulumiEnv.ts";
import { onceUnderLock } from "../../support/onceUnderLock.ts";

/**
 * The package as users get it: `npm pack` of this repository (which runs `prepack`, the build).
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
