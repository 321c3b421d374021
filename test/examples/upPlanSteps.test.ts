import { execFileSync, spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import { chmodSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { repoRoot } from "../../scripts/pulumiEnv.ts";

/**
 * The shell of up.yml's plan steps, run as GitHub runs a `run:` block (bash -eo pipefail), against
 * a local git repository as `origin` and stand-ins for `gh` and `pulumi` that answer like them and
 * record what they were asked. What is under test is the workflow's own logic: which plan it
 * fetches, when it refuses, and what it tells the person reading the log.
 */

const workflow = readFileSync(
  path.join(repoRoot, "examples", "github-actions", "workflows", "up.yml"),
  "utf8",
);

/** The `run: |` block of the step named `name`, dedented. */
function runBlock(name: string): string {
  const lines = workflow.split("\n");
  const start = lines.findIndex((line) => line.trim() === `- name: ${name}`);
  if (start < 0) throw new Error(`up.yml has no step named ${name}`);
  const runLine = lines.findIndex((line, index) => index > start && line.trim() === "run: |");
  const indent = /^ */.exec(lines[runLine]!)![0].length + 2;
  const body: string[] = [];
  for (const line of lines.slice(runLine + 1)) {
    if (line.trim() !== "" && /^ */.exec(line)![0].length < indent) break;
    body.push(line.slice(indent));
  }
  return `${body.join("\n").trimEnd()}\n`;
}

/** The literal values of the step's `env:` (expressions like `${{ matrix.stack }}` are the test's to give). */
function literalEnv(name: string): Record<string, string> {
  const lines = workflow.split("\n");
  const start = lines.findIndex((line) => line.trim() === `- name: ${name}`);
  const end = lines.findIndex((line, index) => index > start && line.trim() === "run: |");
  const env: Record<string, string> = {};
  for (const line of lines.slice(start + 1, end)) {
    const match = /^\s+([A-Z_]+): "?([^"$]*)"?$/.exec(line);
    if (match) env[match[1]!] = match[2]!;
  }
  return env;
}

let root: string;
let work: string;
const commits: Record<string, string> = {};
const PLAN = '{"resourcePlans":{}}\n';

const git = (cwd: string, ...args: string[]) =>
  execFileSync("git", ["-c", "user.name=t", "-c", "user.email=t@example.com", ...args], {
    cwd,
    encoding: "utf8",
  }).trim();

/** Stand-ins on PATH: `gh` answers from FAKE_* variables, `pulumi` prints FAKE_PULUMI_OUTPUT. */
function writeFakes(bin: string): void {
  mkdirSync(bin, { recursive: true });
  writeFileSync(
    path.join(bin, "gh"),
    `#!/bin/bash
echo "gh $*" >> "$FAKE_LOG"
case "$1 $2" in
  "api repos/"*) printf '%s\\n' "$FAKE_REVIEWED" ;;
  "run list") printf '%s\\n' "$FAKE_RUN_ID" ;;
  "run download")
    name=""; dir="."
    while [ $# -gt 0 ]; do case "$1" in --name) name="$2"; shift ;; --dir) dir="$2"; shift ;; esac; shift; done
    [ "$name" = "$FAKE_ARTIFACT" ] || { echo "no artifact $name" >&2; exit 1; }
    printf '%s' '${PLAN}' > "$dir/plan.json" ;;
  *) exit 2 ;;
esac
`,
  );
  writeFileSync(
    path.join(bin, "pulumi"),
    `#!/bin/bash\necho "pulumi $* PULUMI_EXPERIMENTAL=$PULUMI_EXPERIMENTAL" >> "$FAKE_LOG"\nprintf '%s\\n' "$FAKE_PULUMI_OUTPUT"\nexit "\${FAKE_PULUMI_EXIT:-0}"\n`,
  );
  chmodSync(path.join(bin, "gh"), 0o755);
  chmodSync(path.join(bin, "pulumi"), 0o755);
}

beforeAll(() => {
  root = mkdtempSync(path.join(os.tmpdir(), "pw-up-steps-"));
  const origin = path.join(root, "origin");
  mkdirSync(path.join(origin, "infra"), { recursive: true });
  git(origin, "init", "-q", "-b", "main");
  writeFileSync(path.join(origin, "infra", "allocation.json"), '{"tbills": 6000}\n');
  git(origin, "add", ".");
  git(origin, "commit", "-qm", "base");
  // The pull request's head, on a branch deleted after the squash merge.
  git(origin, "checkout", "-qb", "change");
  writeFileSync(path.join(origin, "infra", "allocation.json"), '{"tbills": 5000}\n');
  git(origin, "commit", "-qam", "reweight");
  commits["reviewed"] = git(origin, "rev-parse", "HEAD");
  git(origin, "update-ref", "refs/pull/7/head", "HEAD");
  git(origin, "checkout", "-q", "main");
  // The squash merge: the reviewed infra/, and a README change beside it.
  git(origin, "checkout", "change", "--", "infra");
  writeFileSync(path.join(origin, "README.md"), "docs\n");
  git(origin, "add", ".");
  git(origin, "commit", "-qm", "reweight (#7)");
  commits["merged"] = git(origin, "rev-parse", "HEAD");
  // A later merge whose infra/ nobody reviewed with that plan.
  writeFileSync(path.join(origin, "infra", "allocation.json"), '{"tbills": 4000}\n');
  git(origin, "commit", "-qam", "another change");
  commits["unreviewed"] = git(origin, "rev-parse", "HEAD");
  git(origin, "branch", "-qD", "change");
  work = path.join(root, "work");
  execFileSync("git", ["clone", "-q", "--depth=1", `file://${origin}`, work]);
  writeFakes(path.join(root, "bin"));
});

afterAll(() => rmSync(root, { recursive: true, force: true }));

function runStep(name: string, env: Record<string, string>) {
  const script = path.join(root, "step.sh");
  const log = path.join(root, "calls.log");
  writeFileSync(script, runBlock(name));
  // As actions/checkout leaves it: GITHUB_SHA checked out, one commit deep.
  if (env["GITHUB_SHA"]) {
    git(work, "fetch", "-q", "--depth=1", "origin", env["GITHUB_SHA"]);
    git(work, "checkout", "-q", env["GITHUB_SHA"]);
  }
  writeFileSync(log, "");
  const result = spawnSync("bash", ["--noprofile", "--norc", "-eo", "pipefail", script], {
    cwd: path.join(work, "infra"),
    encoding: "utf8",
    env: {
      PATH: `${path.join(root, "bin")}:${process.env["PATH"]}`,
      HOME: root,
      GITHUB_REPOSITORY: "treasury/infra",
      STACK: "treasury/prod",
      FAKE_LOG: log,
      FAKE_RUN_ID: "4242",
      ...literalEnv(name),
      ...env,
    },
  });
  rmSync(path.join(work, "infra", "plan.json"), { force: true });
  return {
    code: result.status,
    output: `${result.stdout}${result.stderr}`,
    calls: readFileSync(log, "utf8"),
  };
}

describe("up.yml: fetch the reviewed plan", () => {
  const artifactOf = (sha: string) => `pulumi-plan-treasury-prod-${sha}`;

  test("the merged commit's infra/ is the reviewed one: that commit's plan is fetched and its digest printed", () => {
    const step = runStep("Fetch the reviewed plan", {
      GITHUB_SHA: commits["merged"]!,
      FAKE_REVIEWED: commits["reviewed"]!,
      FAKE_ARTIFACT: artifactOf(commits["reviewed"]!),
    });
    expect(step.code, step.output).toBe(0);
    expect(step.output).toContain(
      `Applying plan sha256:${createHash("sha256").update(PLAN).digest("hex")} of ${commits["reviewed"]}`,
    );
    expect(step.calls).toContain(`--commit ${commits["reviewed"]}`);
  });

  test("another infra/ than the reviewed commit's: it stops and says to re-run the preview", () => {
    const step = runStep("Fetch the reviewed plan", {
      GITHUB_SHA: commits["unreviewed"]!,
      FAKE_REVIEWED: commits["reviewed"]!,
      FAKE_ARTIFACT: artifactOf(commits["reviewed"]!),
    });
    expect(step.code).toBe(1);
    expect(step.output).toMatch(
      /::error::infra\/ of the merged commit \w+ is not the reviewed commit .*Re-run the preview/,
    );
    expect(step.calls).not.toContain("run download");
  });

  test("no pull request, or no plan saved for the reviewed commit: it stops and says to re-run the preview", () => {
    const noPullRequest = runStep("Fetch the reviewed plan", {
      GITHUB_SHA: commits["merged"]!,
      FAKE_REVIEWED: "",
      FAKE_ARTIFACT: "",
    });
    expect(noPullRequest.code).toBe(1);
    expect(noPullRequest.output).toMatch(/was not merged from a pull request.*Re-run the preview/);
    const noPlan = runStep("Fetch the reviewed plan", {
      GITHUB_SHA: commits["merged"]!,
      FAKE_REVIEWED: commits["reviewed"]!,
      FAKE_ARTIFACT: "some-other-artifact",
    });
    expect(noPlan.code).toBe(1);
    expect(noPlan.output).toMatch(/No plan pulumi-plan-treasury-prod-\w+ was saved.*Re-run the preview/);
  });
});

describe("up.yml: pulumi up --plan", () => {
  test("runs up with the plan and PULUMI_EXPERIMENTAL=true", () => {
    expect(literalEnv("pulumi up --plan")).toEqual({ PULUMI_EXPERIMENTAL: "true" });
    const step = runStep("pulumi up --plan", { FAKE_PULUMI_OUTPUT: "Resources: 1 updated" });
    expect(step.code).toBe(0);
    expect(step.calls).toMatch(
      /pulumi up --yes --stack treasury\/prod --plan plan\.json .*PULUMI_EXPERIMENTAL=true/,
    );
    expect(step.output).not.toContain("::error::");
  });

  test("a refused plan fails the job with the engine's message and says to re-run the preview", () => {
    const step = runStep("pulumi up --plan", {
      FAKE_PULUMI_OUTPUT:
        "error: resource urn:pulumi:prod::treasury::x::treasury violates plan: properties changed",
      FAKE_PULUMI_EXIT: "255",
    });
    expect(step.code).toBe(255);
    expect(step.output).toContain("violates plan: properties changed");
    expect(step.output).toMatch(
      /::error::The stack or its inputs changed since the preview.*Re-run the preview/,
    );
  });
});
