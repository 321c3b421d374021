import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, test } from "vitest";
import { repoRoot } from "../../scripts/pulumiEnv.ts";

/**
 * No shell text of the repository pipes into a reader that may stop before its input ends: under
 * `set -o pipefail` (every script here, the doc walk's terminal, a GitHub Actions step with
 * `shell: bash`) the writer then dies of SIGPIPE and the pipeline fails with 141, though the reader
 * found what it looked for. `tar -tzf "$archive" | grep -qx …` in scripts/release.sh failed so on
 * a loaded machine (issue 54). Read the whole output first (`names="$(tar -tzf …)"`, then
 * `grep -qx … <<<"$names"`), or let the reader read to the end (`sed -n 1p`, `grep >/dev/null`).
 */

/** A pipe (not `||`) into `grep -q`/`-m`/`--quiet`/`--max-count`, `head`, or a `sed` that quits. */
const EARLY_EXITING_READER =
  /(?<!\|)\|(?!\|)\s*(?:grep\b[^|;&)]*\s(?:-[a-zA-Z]*[qm][a-zA-Z]*\b|--quiet|--silent|--max-count)|head\b|sed\b[^|;&)]*\dq\b)/;

/** The lines of `text` (1-based) that pipe into an early-exiting reader. */
export function earlyExitingPipes(text: string): number[] {
  return text
    .split("\n")
    .flatMap((line, index) =>
      !line.trimStart().startsWith("#") && EARLY_EXITING_READER.test(line) ? [index + 1] : [],
    );
}

/** Files holding shell the repository runs or tells a user to run. */
function shellFiles(): string[] {
  return execFileSync("git", ["ls-files", "*.sh", ".ci/run", "*.yml", "*.yaml", "*.md"], {
    cwd: repoRoot,
    encoding: "utf8",
  })
    .split("\n")
    .filter((file) => file !== "" && !file.startsWith("node_modules/"));
}

describe("shell pipes under pipefail", () => {
  test("the check finds a pipe into grep -q, head or a quitting sed, and passes a read to the end", () => {
    expect(
      earlyExitingPipes(
        [
          'tar -tzf "$archive" | grep -qx launcher || die',
          "pulumi version | head -n 1",
          "list | grep -E -m 5 error",
          "list | sed -n 1q",
          'grep -qx launcher <<<"$names" || die',
          "list | sed -n 1p",
          "list | tail -n 1",
          "a || grep -q b file",
        ].join("\n"),
      ),
    ).toEqual([1, 2, 3, 4]);
  });

  test("no script, workflow or doc of the repository pipes into a reader that may stop early", () => {
    const found = shellFiles().flatMap((file) =>
      earlyExitingPipes(readFileSync(path.join(repoRoot, file), "utf8")).map((line) => `${file}:${line}`),
    );
    expect(found).toEqual([]);
  });
});
