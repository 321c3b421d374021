import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { afterEach, expect, test } from "vitest";
import { removeEmptyAttributeFiles } from "./harness/crash.ts";

// The recovery step docs/provider.md gives for a run killed while the file backend rewrote a
// checkpoint's metadata file, as the interrupted-run harness takes it: only an empty
// `<stack>.json.attrs` goes, and the run's output says so.

const roots: string[] = [];
afterEach(() => roots.splice(0).forEach((root) => rmSync(root, { recursive: true, force: true })));

test("removes an empty <stack>.json.attrs only, and says so", () => {
  const root = mkdtempSync(path.join(os.tmpdir(), "pw-attrs-"));
  roots.push(root);
  const stacks = path.join(root, ".pulumi", "stacks", "project");
  mkdirSync(stacks, { recursive: true });
  const empty = path.join(stacks, "dev.json.attrs");
  const whole = path.join(stacks, "other.json.attrs");
  const backup = path.join(stacks, "dev.json.bak.attrs");
  writeFileSync(empty, "");
  writeFileSync(whole, '{"user.content_type":"application/json"}\n');
  writeFileSync(backup, "");
  const said: string[] = [];
  removeEmptyAttributeFiles({
    project: {
      dir: root,
      env: () => ({ PULUMI_BACKEND_URL: pathToFileURL(root).href }),
      pulumi: async () => undefined,
    },
    write: (text) => said.push(text),
  });
  expect(existsSync(empty)).toBe(false);
  expect(existsSync(whole)).toBe(true);
  expect(existsSync(backup)).toBe(true);
  expect(said.join("")).toContain(`left ${empty} empty: removed`);
});
