import { execFile } from "node:child_process";
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, expect, test } from "vitest";
import { repoRoot } from "../../scripts/pulumiEnv.ts";
import { npmEnv, packedPackage } from "./harness/packedPackage.ts";
import { installPackedPackage, SHARED_INSTALLS_DIR_ENV } from "./harness/sharedInstall.ts";

/**
 * The run's shared install (test/consumer/harness/sharedInstall.ts) gives two projects with the
 * same dependencies, at different depths and with different manifests otherwise (the ES-module
 * TypeScript and the JavaScript layouts: their own names, one `type: module`), what npm would have
 * given each: their node_modules linked to the same files, their own package.json with the
 * tarball added, and the lockfile pointing at the tarball from where each project is, so that npm
 * itself reads the tree as installed.
 */

const execFileAsync = promisify(execFile);
const layouts = path.join(import.meta.dirname, "layouts");
const templates = [path.join(layouts, "esm-typescript"), path.join(layouts, "javascript")];
let root: string;
let tarball: string;
const projects: string[] = [];

beforeAll(async () => {
  expect(process.env[SHARED_INSTALLS_DIR_ENV]).toBeTruthy();
  tarball = await packedPackage();
  root = mkdtempSync(path.join(os.tmpdir(), "pw-shared-install-"));
  for (const [index, relative] of ["a", path.join("b", "c", "d")].entries()) {
    const dir = path.join(root, relative);
    mkdirSync(dir, { recursive: true });
    cpSync(templates[index]!, dir, { recursive: true });
    await installPackedPackage(dir, tarball);
    projects.push(dir);
  }
}, 600_000);

afterAll(() => {
  if (root !== undefined) rmSync(root, { recursive: true, force: true });
});

test("each project's files are links to the one install, and its tarball path is its own", () => {
  const entry = path.join("node_modules", "@portfolio-wallet", "pulumi", "package.json");
  const [first, second] = projects.map((dir) => statSync(path.join(dir, entry)));
  expect(first!.ino).toBe(second!.ino);
  for (const [index, dir] of projects.entries()) {
    const spec = `file:${path.relative(dir, tarball)}`;
    const template = JSON.parse(readFileSync(path.join(templates[index]!, "package.json"), "utf8"));
    const manifest = JSON.parse(readFileSync(path.join(dir, "package.json"), "utf8"));
    expect(manifest).toEqual({
      ...template,
      dependencies: { ...template.dependencies, "@portfolio-wallet/pulumi": spec },
    });
    const lock = JSON.parse(readFileSync(path.join(dir, "package-lock.json"), "utf8"));
    expect(lock.name).toBe(template.name);
    expect(lock.packages[""].name).toBe(template.name);
    expect(lock.packages[""].dependencies["@portfolio-wallet/pulumi"]).toBe(spec);
    expect(lock.packages["node_modules/@portfolio-wallet/pulumi"].resolved).toBe(spec);
  }
});

test("npm reads each project's tree as installed: `npm ls` is clean", async () => {
  for (const dir of projects) {
    const { stdout } = await execFileAsync("npm", ["ls", "--all", "--json"], { cwd: dir, env: npmEnv() });
    expect(JSON.parse(stdout).problems ?? []).toEqual([]);
  }
});

test("the packed package.json is the checkout's without its scripts and devDependencies: npm 11 installs it asking no one to allow a script", async () => {
  const manifest = JSON.parse(
    (await execFileAsync("tar", ["-xzOf", tarball, "package/package.json"], { env: npmEnv() })).stdout,
  ) as Record<string, unknown>;
  // The repository's manifest, every field of it but the repository's own commands and tools
  // (scripts/packedManifest.ts); and the checkout's is its own again after the pack.
  const checkout = JSON.parse(readFileSync(path.join(repoRoot, "package.json"), "utf8")) as Record<
    string,
    unknown
  >;
  expect(checkout).toHaveProperty("scripts.prepack");
  expect(existsSync(path.join(repoRoot, ".package.json.during-pack"))).toBe(false);
  const { scripts: _scripts, devDependencies: _devDependencies, ...users } = checkout;
  expect(manifest).toEqual(users);
  // What npm itself says, in a project of a user's (a dry run: npm resolves the tree and reports
  // the install scripts it would hold back, without writing node_modules).
  const project = mkdtempSync(path.join(os.tmpdir(), "pw-install-scripts-"));
  try {
    await execFileAsync("npm", ["init", "-y"], { cwd: project, env: npmEnv() });
    const { stdout, stderr } = await execFileAsync(
      "npm",
      ["install", "--dry-run", "--prefer-offline", tarball],
      { cwd: project, env: npmEnv() },
    );
    expect(`${stdout}\n${stderr}`).not.toMatch(/@portfolio-wallet\/pulumi@[^ ]* \(/);
  } finally {
    rmSync(project, { recursive: true, force: true });
  }
});
