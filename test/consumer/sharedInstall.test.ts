import { execFile } from "node:child_process";
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, expect, test } from "vitest";
import { npmEnv, packedPackage } from "./harness/packedPackage.ts";
import { installPackedPackage, SHARED_INSTALLS_DIR_ENV } from "./harness/sharedInstall.ts";

/**
 * The run's shared install (test/consumer/harness/sharedInstall.ts) gives two projects, at
 * different depths, what npm would have given each: their node_modules linked to the same files,
 * and package.json and the lockfile pointing at the tarball from where each project is, so that
 * npm itself reads the tree as installed.
 */

const execFileAsync = promisify(execFile);
const template = path.join(import.meta.dirname, "layouts", "esm-typescript");
let root: string;
let tarball: string;
const projects: string[] = [];

beforeAll(async () => {
  expect(process.env[SHARED_INSTALLS_DIR_ENV]).toBeTruthy();
  tarball = await packedPackage();
  root = mkdtempSync(path.join(os.tmpdir(), "pw-shared-install-"));
  for (const relative of ["a", path.join("b", "c", "d")]) {
    const dir = path.join(root, relative);
    mkdirSync(dir, { recursive: true });
    cpSync(template, dir, { recursive: true });
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
  for (const dir of projects) {
    const spec = `file:${path.relative(dir, tarball)}`;
    const manifest = JSON.parse(readFileSync(path.join(dir, "package.json"), "utf8"));
    expect(manifest.dependencies["@portfolio-wallet/pulumi"]).toBe(spec);
    const lock = JSON.parse(readFileSync(path.join(dir, "package-lock.json"), "utf8"));
    expect(lock.packages["node_modules/@portfolio-wallet/pulumi"].resolved).toBe(spec);
  }
});

test("npm reads each project's tree as installed: `npm ls` is clean", async () => {
  for (const dir of projects) {
    const { stdout } = await execFileAsync("npm", ["ls", "--all", "--json"], { cwd: dir, env: npmEnv() });
    expect(JSON.parse(stdout).problems ?? []).toEqual([]);
  }
});
