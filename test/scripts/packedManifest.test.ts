import { existsSync, mkdtempSync, readFileSync, rmSync, utimesSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, beforeEach, expect, test } from "vitest";
import {
  manifestFilesOf,
  repositoryManifest,
  restore,
  strip,
  type ManifestFiles,
} from "../../scripts/packedManifest.ts";

/**
 * `npm pack` packs package.json as it finds it between `prepack` and `postpack`: the user's
 * manifest stands in for the repository's only that long, and what reads the checkout meanwhile
 * (the build's input hash, a second pack) still finds the repository's.
 */

const repository = {
  name: "@example/pkg",
  version: "1.2.3",
  type: "module",
  files: ["dist"],
  bin: { tool: "./dist/tool.js" },
  engines: { node: ">=22.19" },
  scripts: { build: "node build.ts", prepack: "node build.ts && strip", postpack: "restore" },
  dependencies: { zod: "4.0.0" },
  devDependencies: { vitest: "4.0.0" },
};
const repositoryText = `${JSON.stringify(repository, null, 2)}\n`;
let root: string;
let files: ManifestFiles;

beforeEach(() => {
  root = mkdtempSync(path.join(os.tmpdir(), "pw-packed-manifest-"));
  files = manifestFilesOf(root);
  writeFileSync(files.manifest, repositoryText);
});

afterEach(() => rmSync(root, { recursive: true, force: true }));

const onDisk = () => JSON.parse(readFileSync(files.manifest, "utf8")) as Record<string, unknown>;

test("the packed manifest is the repository's without its scripts and devDependencies; postpack puts it back byte for byte", async () => {
  await strip(files);
  const { scripts: _scripts, devDependencies: _devDependencies, ...users } = repository;
  expect(onDisk()).toEqual(users);
  expect(repositoryManifest(files).toString("utf8")).toBe(repositoryText);
  expect(restore(files)).toBe(true);
  expect(readFileSync(files.manifest, "utf8")).toBe(repositoryText);
  expect(existsSync(files.saved)).toBe(false);
  // A postpack with nothing to put back (a pack run with the scripts already put back) does nothing.
  expect(restore(files)).toBe(false);
  expect(readFileSync(files.manifest, "utf8")).toBe(repositoryText);
});

test("a second pack of the checkout waits for the first to put the manifest back, and saves the repository's, not the user's", async () => {
  await strip(files);
  let secondStripped = false;
  const second = strip(files).then(() => {
    secondStripped = true;
  });
  await new Promise((resolve) => setTimeout(resolve, 400));
  expect(secondStripped).toBe(false);
  restore(files);
  await second;
  expect(onDisk()).not.toHaveProperty("scripts");
  expect(readFileSync(files.saved, "utf8")).toBe(repositoryText);
  restore(files);
  expect(readFileSync(files.manifest, "utf8")).toBe(repositoryText);
});

test("a pack stopped before postpack is recovered by the next pack once its saved copy is old", async () => {
  await strip(files);
  const longAgo = new Date(Date.now() - 10 * 60_000);
  utimesSync(files.saved, longAgo, longAgo);
  await strip(files);
  expect(onDisk()).not.toHaveProperty("scripts");
  restore(files);
  expect(readFileSync(files.manifest, "utf8")).toBe(repositoryText);
});
