import { createHash } from "node:crypto";
import { lstatSync, readdirSync, readFileSync, readlinkSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";

/**
 * What the account running the tests keeps of its own in its home, that no test may change: the
 * logins and settings of the tools the tests run. Pulumi's home (`~/.pulumi`: credentials.json
 * with the current backend, workspaces, plugins, and a log per command, so a command run without
 * PULUMI_HOME shows here), npm's `~/.npmrc`, git's global config, Maven's `settings.xml`, the
 * variables `go env -w` writes, pip's config. Caches stay shared and are not listed: `~/.cache`
 * (npm's, pip's, Go's builds, the offline engine), `~/.npm`, Go's module cache and Maven's local
 * repository.
 */
export const ACCOUNT_SETTINGS = [
  ".pulumi",
  ".npmrc",
  ".gitconfig",
  ".config/git",
  ".m2/settings.xml",
  ".config/go/env",
  ".config/pip",
  ".pip",
  ".pypirc",
];

/** The environment variable naming the file in which the global set-up records the digest it took. */
export const ACCOUNT_SETTINGS_BEFORE_ENV = "PORTFOLIO_WALLET_TEST_ACCOUNT_SETTINGS_BEFORE";

/** Files up to this size are hashed; larger ones (a plugin's binary) are told by size and time. */
const HASHED_UP_TO_BYTES = 1024 * 1024;

/**
 * The account's home directories: `$HOME`, and the one in the account database, which Pulumi and
 * Java read whatever $HOME says (they differ in CI containers, and in a test that sets HOME).
 */
function accountHomes(): string[] {
  return [...new Set([os.homedir(), os.userInfo().homedir])];
}

/** Every entry under `target`, by absolute path: its kind, and for a file its size, time and hash. */
function describeTree(target: string, into: Map<string, string>): void {
  let stat;
  try {
    stat = lstatSync(target);
  } catch {
    return; // absent: an entry that appears later shows as added
  }
  if (stat.isSymbolicLink()) {
    into.set(target, `link to ${readlinkSync(target)}`);
  } else if (stat.isDirectory()) {
    into.set(target, "directory");
    for (const name of readdirSync(target).sort()) describeTree(path.join(target, name), into);
  } else {
    const hash =
      stat.size <= HASHED_UP_TO_BYTES
        ? createHash("sha256").update(readFileSync(target)).digest("hex").slice(0, 16)
        : `modified ${stat.mtimeMs}`;
    into.set(target, `file of ${stat.size} bytes, ${hash}`);
  }
}

/** The account's settings as they are now (ACCOUNT_SETTINGS in each home). */
export function accountSettingsDigest(): Record<string, string> {
  const entries = new Map<string, string>();
  for (const home of accountHomes()) {
    for (const relative of ACCOUNT_SETTINGS) describeTree(path.join(home, relative), entries);
  }
  return Object.fromEntries(entries);
}

/** Records the digest in `file` and names it in the environment that every test worker inherits. */
export function recordAccountSettings(file: string): void {
  writeFileSync(file, JSON.stringify(accountSettingsDigest()));
  process.env[ACCOUNT_SETTINGS_BEFORE_ENV] = file;
}

/** What changed between two digests, one line per entry: added, removed or changed. */
export function accountSettingsChanges(
  before: Record<string, string>,
  after: Record<string, string>,
): string[] {
  const changes: string[] = [];
  for (const [entry, was] of Object.entries(before)) {
    const now = after[entry];
    if (now === undefined) changes.push(`removed ${entry} (${was})`);
    else if (now !== was) changes.push(`changed ${entry}: ${was} → ${now}`);
  }
  for (const [entry, now] of Object.entries(after)) {
    if (!(entry in before)) changes.push(`added ${entry} (${now})`);
  }
  return changes;
}
