import { execFile } from "node:child_process";
import { createHash } from "node:crypto";
import { existsSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import { promisify } from "node:util";
import { onceUnderLock } from "../../support/onceUnderLock.ts";
import { npmEnv } from "./packedPackage.ts";

const execFileAsync = promisify(execFile);

/**
 * Where a test run keeps the installations it shares (set by test/globalSetup.ts for the run, and
 * removed after it). Unset (a benchmark, a script), every project runs its own `npm install`.
 */
export const SHARED_INSTALLS_DIR_ENV = "PORTFOLIO_WALLET_TEST_INSTALLS_DIR";

/**
 * `npm install <tarball>` in a project: what a user runs to add the package. The same package.json
 * and tarball give the same tree, and an install of @pulumi/pulumi's tree costs about 30 s of CPU
 * (mostly writing 30,000 files), which twenty projects per run paid again and again. So a run
 * installs each dependency set once, with npm, in a directory of its own (made once across the
 * worker processes: onceUnderLock), and every project with
 * that set gets what npm wrote there: the same bytes npm would have written in the project.
 *
 * The project's node_modules is a tree of hard links to those files (`cp -al`, under a second): a
 * full copy cost 13 s of CPU each under the suite's load. So a test must not write into an
 * installed file in place (none does; npm itself, in a later `npm install`, replaces a package's
 * files rather than writing into them). The `file:` paths npm records for the tarball are relative
 * to the project, so they are rewritten for the project's place, as npm would have written them
 * there, into new files rather than through the links; a later `npm install` in the project (an
 * upgrade) reads them as its own.
 *
 * The projects that stand for a user installing (every layout of test/consumer/layouts.test.ts,
 * the doc walks) run npm themselves.
 */
export async function installPackedPackage(projectDir: string, tarball: string): Promise<void> {
  const runDir = process.env[SHARED_INSTALLS_DIR_ENV];
  if (runDir === undefined || runDir === "") {
    await npmInstall(projectDir, tarball);
    return;
  }
  const manifestPath = path.join(projectDir, "package.json");
  const manifest = existsSync(manifestPath) ? readFileSync(manifestPath, "utf8") : undefined;
  const key = createHash("sha256")
    .update(JSON.stringify([tarball, manifest ?? null, process.version]))
    .digest("hex")
    .slice(0, 16);
  const installed = path.join(runDir, key);
  await onceUnderLock(installed, async () => {
    if (manifest !== undefined) writeFileSync(path.join(installed, "package.json"), manifest);
    await npmInstall(installed, tarball);
  });
  const fromInstalled = `file:${path.relative(installed, tarball)}`;
  const fromProject = `file:${path.relative(projectDir, tarball)}`;
  await execFileAsync("cp", [
    "-al",
    path.join(installed, "node_modules"),
    path.join(projectDir, "node_modules"),
  ]);
  // package.json as npm left it (npm adds the tarball to its dependencies), and the lockfiles: new
  // files, so that the installed ones the links share stay as npm wrote them.
  for (const file of ["package.json", "package-lock.json", "node_modules/.package-lock.json"]) {
    const source = path.join(installed, file);
    if (!existsSync(source)) continue;
    const target = path.join(projectDir, file);
    rmSync(target, { force: true });
    writeFileSync(target, readFileSync(source, "utf8").replaceAll(fromInstalled, fromProject));
  }
}

async function npmInstall(dir: string, tarball: string): Promise<void> {
  await execFileAsync("npm", ["install", "--prefer-offline", "--loglevel=error", tarball], {
    cwd: dir,
    env: npmEnv(),
    maxBuffer: 16 * 1024 * 1024,
  });
}
