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
 * The package.json fields that decide what `npm install` puts in node_modules. Two projects that
 * differ only elsewhere (their name, `type`, `main`: the ES-module and the JavaScript layouts) get
 * the same tree from npm, so they share one install.
 */
const DEPENDENCY_FIELDS = [
  "dependencies",
  "devDependencies",
  "optionalDependencies",
  "peerDependencies",
  "peerDependenciesMeta",
  "bundleDependencies",
  "overrides",
  "workspaces",
] as const;

type Manifest = Record<string, unknown>;

function dependencyFieldsOf(manifest: Manifest): Manifest {
  return Object.fromEntries(
    DEPENDENCY_FIELDS.filter((field) => manifest[field] !== undefined).map((field) => [
      field,
      manifest[field],
    ]),
  );
}

/**
 * `npm install <tarball>` in a project: what a user runs to add the package. The same tarball and
 * dependencies give the same tree, and an install of @pulumi/pulumi's tree costs about 30 s of CPU
 * (mostly writing 30,000 files), which twenty projects per run paid again and again. So a run
 * installs each dependency set once, with npm, in a directory of its own (made once across the
 * worker processes: onceUnderLock), and every project with that set gets what npm wrote there: the
 * same bytes npm would have written in the project.
 *
 * The project's node_modules is a tree of hard links to those files (`cp -al`, under a second): a
 * full copy cost 13 s of CPU each under the suite's load. So a test must not write into an
 * installed file in place (none does; npm itself, in a later `npm install`, replaces a package's
 * files rather than writing into them). The project keeps its own package.json, with the
 * dependency fields npm wrote (the tarball added); the `file:` paths npm records for the tarball
 * are relative to the project, so they are rewritten for the project's place, as npm would have
 * written them there, into new files rather than through the links; a later `npm install` in the
 * project (an upgrade) reads them as its own.
 *
 * The doc walks (test/docs/newcomerPath.engine.test.ts) run npm themselves, as the newcomer they stand for
 * does: that is where the install itself is tested.
 */
export async function installPackedPackage(projectDir: string, tarball: string): Promise<void> {
  const runDir = process.env[SHARED_INSTALLS_DIR_ENV];
  if (runDir === undefined || runDir === "") {
    await npmInstall(projectDir, tarball);
    return;
  }
  const manifestPath = path.join(projectDir, "package.json");
  const manifest: Manifest = existsSync(manifestPath) ? JSON.parse(readFileSync(manifestPath, "utf8")) : {};
  const dependencies = dependencyFieldsOf(manifest);
  const key = createHash("sha256")
    .update(JSON.stringify([tarball, dependencies, process.version]))
    .digest("hex")
    .slice(0, 16);
  const installed = path.join(runDir, key);
  await onceUnderLock(installed, async () => {
    const shared = {
      name: "portfolio-wallet-shared-install",
      version: "0.0.0",
      private: true,
      ...dependencies,
    };
    writeFileSync(path.join(installed, "package.json"), `${JSON.stringify(shared, null, 2)}\n`);
    await npmInstall(installed, tarball);
  });
  const fromInstalled = `file:${path.relative(installed, tarball)}`;
  const fromProject = `file:${path.relative(projectDir, tarball)}`;
  const rewrite = (text: string) => text.replaceAll(fromInstalled, fromProject);
  await execFileAsync("cp", [
    "-al",
    path.join(installed, "node_modules"),
    path.join(projectDir, "node_modules"),
  ]);
  // package.json: the project's own, with the dependency fields as npm left them (npm adds the
  // tarball to `dependencies`).
  const installedManifest: Manifest = JSON.parse(
    rewrite(readFileSync(path.join(installed, "package.json"), "utf8")),
  );
  writeFileSync(
    manifestPath,
    `${JSON.stringify({ ...manifest, ...dependencyFieldsOf(installedManifest) }, null, 2)}\n`,
  );
  // The lockfiles, named for the project as npm names them: new files, so that the installed ones
  // the links share stay as npm wrote them.
  for (const file of ["package-lock.json", path.join("node_modules", ".package-lock.json")]) {
    const source = path.join(installed, file);
    if (!existsSync(source)) continue;
    const lock = JSON.parse(rewrite(readFileSync(source, "utf8"))) as Manifest & {
      packages?: Record<string, Manifest>;
    };
    lock["name"] = manifest["name"];
    lock["version"] = manifest["version"];
    const root = lock.packages?.[""];
    if (root !== undefined) {
      for (const field of ["name", "version", "license"]) {
        if (manifest[field] === undefined) delete root[field];
        else root[field] = manifest[field];
      }
    }
    const target = path.join(projectDir, file);
    rmSync(target, { force: true });
    writeFileSync(target, `${JSON.stringify(lock, null, 2)}\n`);
  }
}

/**
 * The dependencies of a user's project before it adds the package: @pulumi/pulumi at the version
 * the tests pin (the ES-module layout's package.json). A directory the tests make without a
 * package.json of a user's (a YAML project's tools directory, the older Node's project) is given
 * these, so that it shares the one install the TypeScript projects share instead of npm resolving
 * the package's peer dependency for it in an install of its own.
 */
export function userProjectDependencies(): Record<string, string> {
  const layout = path.join(import.meta.dirname, "..", "layouts", "esm-typescript", "package.json");
  return (JSON.parse(readFileSync(layout, "utf8")) as { dependencies: Record<string, string> }).dependencies;
}

async function npmInstall(dir: string, tarball: string): Promise<void> {
  await execFileAsync("npm", ["install", "--prefer-offline", "--loglevel=error", tarball], {
    cwd: dir,
    env: npmEnv(),
    maxBuffer: 16 * 1024 * 1024,
  });
}
