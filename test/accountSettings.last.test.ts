import { readFileSync } from "node:fs";
import { describe, expect, test } from "vitest";
import {
  ACCOUNT_SETTINGS,
  ACCOUNT_SETTINGS_BEFORE_ENV,
  accountSettingsChanges,
  accountSettingsDigest,
} from "./support/accountSettings.ts";

/**
 * The run leaves the account as it found it: the last file of `npm test` (vitest.config.ts's
 * project `account`, after every other tier), comparing the account's logins and settings with
 * the digest test/globalSetup.ts took before the first test. A doc walk once left `pulumi login`'s
 * backend in the account's ~/.pulumi/credentials.json, a directory the run then removed, so that
 * `pulumi whoami` failed afterwards (issue 54). Run alone, it compares the settings with those of
 * a moment ago; a `pulumi` command of your own during the run shows here too.
 */
describe("the account's own settings", () => {
  test(`npm test leaves ${ACCOUNT_SETTINGS.join(", ")} in the account's home as it found them`, () => {
    const file = process.env[ACCOUNT_SETTINGS_BEFORE_ENV];
    expect(file, `${ACCOUNT_SETTINGS_BEFORE_ENV} (set by test/globalSetup.ts)`).toBeDefined();
    const before = JSON.parse(readFileSync(file!, "utf8")) as Record<string, string>;
    expect(
      accountSettingsChanges(before, accountSettingsDigest()),
      "a test ran a tool with the account's own home: give the command a home of its own " +
        "(offlinePulumiSettings in scripts/pulumiEnv.ts sets PULUMI_HOME)",
    ).toEqual([]);
  });
});

describe("accountSettingsChanges", () => {
  test("names what was added, removed and changed", () => {
    expect(
      accountSettingsChanges(
        {
          "/h/.pulumi": "directory",
          "/h/.npmrc": "file of 3 bytes, a",
          "/h/.gitconfig": "file of 1 bytes, b",
        },
        {
          "/h/.pulumi": "directory",
          "/h/.npmrc": "file of 4 bytes, c",
          "/h/.pulumi/credentials.json": "file",
        },
      ),
    ).toEqual([
      "changed /h/.npmrc: file of 3 bytes, a → file of 4 bytes, c",
      "removed /h/.gitconfig (file of 1 bytes, b)",
      "added /h/.pulumi/credentials.json (file)",
    ]);
  });
});
