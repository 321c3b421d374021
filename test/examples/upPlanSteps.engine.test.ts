import { execFileSync, spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import {
  chmodSync,
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { formatDollars, moneyImpact, usdToMicros } from "../../sdk/nodejs/contract/index.ts";
import { runProcess } from "../cli/harness.ts";
import { packedPackage } from "../consumer/harness/packedPackage.ts";
import { ORG, startTestSandbox, TOKEN, type TestSandbox } from "../sandbox/helpers.ts";
import { PROGRAM_KINDS, type ProgramProject } from "../support/programProjects.ts";
import { configSetAll } from "../support/pulumiConfig.ts";
import {
  callSandbox,
  appliedWeightsOf,
  depositInto,
  waitForWeightsOf,
  type SandboxAccess,
} from "../support/sandboxAccess.ts";
import {
  evaluateCondition,
  literalEnv,
  mergedPull,
  readOutputs,
  readWorkflow,
  runBlock,
  runJobSteps,
  stepCondition,
  stepId,
  usesStep,
  writeFakeGh,
  type ExpressionContext,
  git,
} from "./workflowSteps.ts";

/**
 * The shell of up.yml's plan steps, run as GitHub runs a `run:` block (bash -eo pipefail), against
 * a local git repository as `origin` and stand-ins for `gh` and `pulumi` that answer like them and
 * record what they were asked. What is under test is the workflow's own logic: which plan it
 * fetches, when it refuses, and what it tells the person reading the log. Then the money the
 * merge is held to (issue 53), through the real engine: preview.yml's and up.yml's own steps on a
 * TypeScript program of the packed package against a funded wallet in the sandbox.
 */

const workflow = readWorkflow("up.yml");
const previewWorkflow = readWorkflow("preview.yml");

let root: string;
let work: string;
const commits: Record<string, string> = {};
const PLAN = '{"resourcePlans":{}}\n';

/**
 * Stand-ins on PATH: `gh` (test/examples/workflowSteps.ts: the merged pull request from
 * FAKE_PULLS, the artifact from FAKE_ARTIFACT_DIR), and `pulumi`, which prints FAKE_PULUMI_OUTPUT.
 */
function writeFakes(bin: string): void {
  writeFakeGh(bin);
  writeFileSync(
    path.join(bin, "pulumi"),
    `#!/bin/bash\necho "pulumi $* PULUMI_EXPERIMENTAL=$PULUMI_EXPERIMENTAL" >> "$FAKE_LOG"\nprintf '%s\\n' "$FAKE_PULUMI_OUTPUT"\nexit "\${FAKE_PULUMI_EXIT:-0}"\n`,
  );
  chmodSync(path.join(bin, "pulumi"), 0o755);
}

/** The artifacts the fake `gh run download` serves: a plan with its report, and a plan alone. */
const artifacts = { full: "", noReport: "" };

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
  artifacts.full = path.join(root, "artifacts", "full");
  artifacts.noReport = path.join(root, "artifacts", "no-report");
  for (const dir of [artifacts.full, artifacts.noReport]) {
    mkdirSync(dir, { recursive: true });
    writeFileSync(path.join(dir, "plan.json"), PLAN);
  }
  writeFileSync(path.join(artifacts.full, "report.json"), "{}");
});

afterAll(() => rmSync(root, { recursive: true, force: true }));

function runStep(name: string, env: Record<string, string>) {
  const script = path.join(root, "step.sh");
  const log = path.join(root, "calls.log");
  const outputFile = path.join(root, "github-output");
  writeFileSync(script, runBlock(name, workflow));
  writeFileSync(outputFile, "");
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
      GITHUB_OUTPUT: outputFile,
      FAKE_LOG: log,
      FAKE_RUN_ID: "4242",
      FAKE_ARTIFACT_DIR: artifacts.full,
      ...literalEnv(name, workflow),
      ...env,
    },
  });
  rmSync(path.join(work, "infra", "plan.json"), { force: true });
  rmSync(path.join(work, "infra", "report.json"), { force: true });
  return {
    code: result.status,
    output: `${result.stdout}${result.stderr}`,
    calls: readFileSync(log, "utf8"),
    outputs: readOutputs(outputFile),
  };
}

describe("up.yml: fetch the reviewed plan", () => {
  const artifactOf = (sha: string) => `pulumi-plan-treasury-prod-${sha}`;

  test("the merged commit's infra/ is the reviewed one: that commit's plan is fetched and its digest printed", () => {
    const step = runStep("Fetch the reviewed plan", {
      GITHUB_SHA: commits["merged"]!,
      FAKE_PULLS: mergedPull(commits["reviewed"]!, "change"),
      FAKE_ARTIFACT: artifactOf(commits["reviewed"]!),
    });
    expect(step.code, step.output).toBe(0);
    expect(step.output).toContain(
      `Applying plan sha256:${createHash("sha256").update(PLAN).digest("hex")} of ${commits["reviewed"]}`,
    );
    expect(step.calls).toContain(`--commit ${commits["reviewed"]}`);
  });

  test("a way back of this stack (drift.yml's branch portfolio-wallet/<restore|adopt>/<stack with / as ->): its outputs say so, and the state is refreshed before the dollars are checked; any other branch: not", () => {
    const refresh = "Refresh the state (a way back)";
    const fetched = stepId("Fetch the reviewed plan", workflow);
    for (const [ref, wayBack] of [
      ["portfolio-wallet/restore/treasury-prod", "restore"],
      ["portfolio-wallet/adopt/treasury-prod", "adopt"],
      // Another stack's way back, a longer name, another way, an ordinary branch.
      ["portfolio-wallet/restore/treasury-staging", ""],
      ["portfolio-wallet/restore/treasury-prod-2", ""],
      ["portfolio-wallet/rollback/treasury-prod", ""],
      ["change", ""],
    ] as const) {
      const step = runStep("Fetch the reviewed plan", {
        GITHUB_SHA: commits["merged"]!,
        FAKE_PULLS: mergedPull(commits["reviewed"]!, ref),
        FAKE_ARTIFACT: artifactOf(commits["reviewed"]!),
      });
      expect(step.code, step.output).toBe(0);
      expect(step.outputs, ref).toEqual({ head_ref: ref, way_back: wayBack });
      const runs = evaluateCondition(stepCondition(refresh, workflow), {
        [fetched]: { outcome: "success", outputs: step.outputs },
      });
      expect(runs, ref).toBe(wayBack !== "");
    }
    // The refresh writes the state from the service, after the plan is fetched and before the check
    // and up read it.
    const order = ["Fetch the reviewed plan", refresh, "Check the reviewed dollars", "pulumi up --plan"].map(
      (name) => workflow.indexOf(`- name: ${name}`),
    );
    expect(order).toEqual([...order].sort((a, b) => a - b));
    const step = runStep(refresh, {});
    expect(step.code, step.output).toBe(0);
    expect(step.calls).toBe(
      "pulumi refresh --stack treasury/prod --yes --skip-preview PULUMI_EXPERIMENTAL=\n",
    );
  });

  test("another infra/ than the reviewed commit's: it stops and says to re-run the preview", () => {
    const step = runStep("Fetch the reviewed plan", {
      GITHUB_SHA: commits["unreviewed"]!,
      FAKE_PULLS: mergedPull(commits["reviewed"]!, "change"),
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
      FAKE_PULLS: "[]",
      FAKE_ARTIFACT: "",
    });
    expect(noPullRequest.code).toBe(1);
    expect(noPullRequest.output).toMatch(/was not merged from a pull request.*Re-run the preview/);
    const noPlan = runStep("Fetch the reviewed plan", {
      GITHUB_SHA: commits["merged"]!,
      FAKE_PULLS: mergedPull(commits["reviewed"]!, "change"),
      FAKE_ARTIFACT: "some-other-artifact",
    });
    expect(noPlan.code).toBe(1);
    expect(noPlan.output).toMatch(/No plan pulumi-plan-treasury-prod-\w+ was saved.*Re-run the preview/);
    const noReport = runStep("Fetch the reviewed plan", {
      GITHUB_SHA: commits["merged"]!,
      FAKE_PULLS: mergedPull(commits["reviewed"]!, "change"),
      FAKE_ARTIFACT: artifactOf(commits["reviewed"]!),
      FAKE_ARTIFACT_DIR: artifacts.noReport,
    });
    expect(noReport.code).toBe(1);
    expect(noReport.output).toMatch(/holds no report\.json, the reviewed dollars .*Re-run the preview/);
  });
});

describe("up.yml: pulumi up --plan", () => {
  test("runs up with the plan and PULUMI_EXPERIMENTAL=true", () => {
    expect(literalEnv("pulumi up --plan", workflow)).toEqual({ PULUMI_EXPERIMENTAL: "true" });
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

describe("up.yml: the reviewed dollars held to the service, through the engine", () => {
  const A = { tbills: 6000, syrupUsdc: 4000 };
  const B = { tbills: 5000, syrupUsdc: 5000 };
  let t: TestSandbox;
  let project: ProgramProject;
  let walletId: string;
  const access: SandboxAccess = { url: "", token: TOKEN };

  /**
   * A step's `run:` block in the project as the job runs it (the job's env: the service's URL and
   * token, the stack), with the real engine on PATH. The one change to a block's text: the policy
   * pack's offline manifest, which the offline engine runs (docs/policy.md).
   */
  async function jobStep(text: string, name: string) {
    const script = path.join(project.dir, "step.sh");
    const outputFile = path.join(project.dir, "github-output");
    writeFileSync(outputFile, "");
    writeFileSync(
      script,
      runBlock(name, text).replaceAll(
        "node_modules/@portfolio-wallet/pulumi/policy ",
        "node_modules/@portfolio-wallet/pulumi/policy/offline ",
      ),
    );
    const run = await runProcess("bash", ["--noprofile", "--norc", "-eo", "pipefail", script], {
      cwd: project.dir,
      env: {
        ...project.env(),
        ...literalEnv(name, text),
        STACK: "dev",
        COMMIT: "4f2c9e1",
        PORTFOLIO_WALLET_BASE_URL: t.url,
        PORTFOLIO_WALLET_API_TOKEN: TOKEN,
        GITHUB_OUTPUT: outputFile,
      },
    });
    const outputs = Object.fromEntries(
      readFileSync(outputFile, "utf8")
        .split("\n")
        .filter((line) => line.includes("="))
        .map((line) => [line.slice(0, line.indexOf("=")), line.slice(line.indexOf("=") + 1)]),
    );
    return { code: run.code, output: `${run.stdout}${run.stderr}`, outputs };
  }

  /** preview.yml on the pull request: the state for the pack, the preview with it, the report. */
  let reportOutputs: Record<string, string> = {};
  async function review(): Promise<bigint> {
    for (const name of ["Stack state for the policy pack", "pulumi preview", "Allocation report"]) {
      const step = await jobStep(previewWorkflow, name);
      const log = path.join(project.dir, "preview.log");
      if (step.code !== 0 && existsSync(log)) step.output += readFileSync(log, "utf8");
      expect(step.code, `${name}: ${step.output}`).toBe(0);
      if (name === "Allocation report") reportOutputs = step.outputs;
    }
    const report = JSON.parse(readFileSync(path.join(project.dir, "report.json"), "utf8")) as {
      plan: { sha256: string };
      wallets: { walletId: string; money: { impact: { movedMicros: string } } }[];
    };
    expect(report.plan.sha256).toBe(
      createHash("sha256")
        .update(readFileSync(path.join(project.dir, "plan.json")))
        .digest("hex"),
    );
    expect(report.wallets.map((wallet) => wallet.walletId)).toEqual([walletId]);
    return BigInt(report.wallets[0]!.money.impact.movedMicros);
  }

  /** A deposit to the wallet, allocated by the sandbox (its processing time passed on its clock). */
  const deposit = (amount: number) => depositInto(access, walletId, amount, 2 * 3600 * 1000);

  /** What the plan moves now, from the sandbox's own wallet answer. */
  async function movedNow(): Promise<bigint> {
    const [wallet, catalog] = await Promise.all([
      callSandbox(access, "GET", `/v2/portfolio-wallets/${walletId}`),
      callSandbox(access, "GET", "/v2/portfolio-wallets/strategies"),
    ]);
    return moneyImpact(wallet, B, catalog.strategies).movedMicros;
  }

  /** `$1,234.56` in the check's words, as micros. */
  const figureAfter = (output: string, words: string) => {
    const match = new RegExp(`${words} \\$([\\d,]+\\.\\d\\d)`).exec(output);
    expect(match, `${words} in ${output}`).not.toBeNull();
    return usdToMicros(Number(match![1]!.replaceAll(",", "")));
  };

  beforeAll(async () => {
    const tarball = await packedPackage();
    t = await startTestSandbox({
      rebalanceDelayMs: 5,
      allowPrivateWebhookUrls: true,
      tokens: { [TOKEN]: ORG },
    });
    access.url = t.url;
    await callSandbox(access, "PUT", "/_sandbox/policy", {
      strategyUpdateApprovals: 0,
      withdrawalApprovals: 0,
    });
    project = await PROGRAM_KINDS.find((kind) => kind.name === "esm-typescript")!.create(
      tarball,
      "merge-check",
    );
    await project.pulumi(["stack", "init", "dev"]);
    // The check's USD tolerance from the stack's config, read as the CLI reads it (`pulumi config`).
    await project.pulumi(
      configSetAll(
        {
          "portfolio-wallet:baseUrl": t.url,
          "portfolio-wallet:reviewToleranceUsd": "500",
          tbillsBps: String(A.tbills),
          syrupUsdcBps: String(A.syrupUsdc),
        },
        { "portfolio-wallet:apiToken": TOKEN },
      ),
    );
    await project.pulumi(["up", "--yes", "--skip-preview"]);
    walletId = (
      JSON.parse((await project.pulumi(["stack", "output", "--json"])).stdout) as { walletId: string }
    ).walletId;
    await deposit(1_000_000);
    await project.pulumi(configSetAll({ tbillsBps: String(B.tbills), syrupUsdcBps: String(B.syrupUsdc) }));
  }, 600_000);

  afterAll(async () => {
    project?.cleanUp();
    await t?.close();
  });

  test("a deposit beyond the tolerance since the review: the check refuses before up, naming the wallet and the figures; reviewed again, one within passes and up --plan applies", async () => {
    // Reviewed: 6000 / 4000 → 5000 / 5000 of $1M moves about $100,000 (1% of it: $1,000 allowed).
    const reviewedMoved = await review();
    expect(reviewedMoved > 99_000_000_000n && reviewedMoved < 101_000_000_000n).toBe(true);
    await deposit(200_000);
    const refused = await jobStep(workflow, "Check the reviewed dollars");
    expect(refused.code, refused.output).toBe(1);
    expect(refused.output).toContain(
      `✗ PortfolioWallet "treasury" (wallet ${walletId}): the review saw ${formatDollars(reviewedMoved)} move, the service now makes it $`,
    );
    // About $20,000 more: 10% of the $200,000 deposit.
    const now = figureAfter(refused.output, "the service now makes it");
    const expected = await movedNow();
    expect(now - expected >= -50_000n && now - expected <= 50_000n, `${now} vs ${expected}`).toBe(true);
    expect(now - reviewedMoved > 19_000_000_000n).toBe(true);
    expect(refused.output).toMatch(
      /beyond the tolerance of \$1,0\d\d\.\d\d \(the larger of \$500\.00 and 1% of the reviewed .*Why: deposits since the review: the invested balance went from \$1,000,\d{3}\.\d\d to \$1,200,\d{3}\.\d\d/,
    );
    expect(refused.output).toContain(`do not apply plan sha256:`);
    expect(refused.output).toContain(
      "::error::The reviewed dollars of this plan were not confirmed against the service",
    );

    // The preview run again and reviewed; then $1,000 arrives: $100 more, within $1,200.
    const again = await review();
    await deposit(1_000);
    const passed = await jobStep(workflow, "Check the reviewed dollars");
    expect(passed.code, passed.output).toBe(0);
    expect(passed.output).toContain(
      `✓ PortfolioWallet "treasury" (wallet ${walletId}): the review saw ${formatDollars(again)} move, the service now makes it $`,
    );
    expect(passed.output).toMatch(
      /\), within the tolerance of \$1,2\d\d\.\d\d .*Why: deposits since the review/,
    );
    expect(passed.output).toContain("The reviewed dollars hold for 1 wallet");
    const up = await jobStep(workflow, "pulumi up --plan");
    expect(up.code, up.output).toBe(0);
    const applied = await callSandbox(access, "GET", `/v2/portfolio-wallets/${walletId}`);
    expect(
      Object.fromEntries(
        applied.strategyConfig.positions.map((p: { positionKey: string; targetWeightBps: number }) => [
          p.positionKey,
          p.targetWeightBps,
        ]),
      ),
    ).toEqual(B);
  }, 900_000);

  /**
   * preview.yml's two comment steps as GitHub runs them on the pull request's comments (one per
   * stack, by header): their `if:` evaluated on the job's step outcomes and outputs, and the
   * comment action's `only_update` (update an existing comment, never create one).
   */
  function commentSteps(
    comments: Map<string, string>,
    steps: Record<string, { outcome: string; outputs: Record<string, string> }>,
  ): void {
    for (const name of [
      "Post the report (one comment per stack, updated in place)",
      "Update an earlier report (under the comment thresholds)",
    ]) {
      const step = usesStep(name, previewWorkflow);
      expect(step.with["path"]).toBe("infra/report.md");
      if (!evaluateCondition(step.if, steps)) continue;
      const header = step.with["header"]!;
      if (step.with["only_update"] === "true" && !comments.has(header)) continue;
      comments.set(header, readFileSync(path.join(project.dir, "report.md"), "utf8"));
    }
  }

  test("preview.yml's comment: posted for a change above the stack's comment thresholds, updated when a later push drops under them, never posted anew under them", async () => {
    const comments = new Map<string, string>();
    const ran = () => ({
      preview: { outcome: "success", outputs: {} },
      report: { outcome: "success", outputs: reportOutputs },
    });
    // A 1000 bps reweight of about $1.2M: above the defaults (a cent, a basis point).
    await project.pulumi(configSetAll({ tbillsBps: "4000", syrupUsdcBps: "6000" }));
    await review();
    expect(reportOutputs).toEqual({ post: "true" });
    commentSteps(comments, ran());
    expect([...comments.keys()]).toEqual(["portfolio-wallet ${{ matrix.stack }}"]);
    expect(comments.values().next().value).toMatch(/### treasury-esm\/dev: 1 wallet reweighted/);
    expect(comments.values().next().value).not.toContain("**Comment:**");

    // The next push: 1 bps (about $120 to the instant source), under the thresholds the stack sets.
    await project.pulumi(
      configSetAll({
        tbillsBps: "4999",
        syrupUsdcBps: "5001",
        "portfolio-wallet:commentUsdMoved": "1000",
        "portfolio-wallet:commentWeightBps": "10",
      }),
    );
    await review();
    expect(reportOutputs).toEqual({ post: "false" });
    commentSteps(comments, ran());
    const updated = comments.values().next().value!;
    expect(updated).toMatch(
      /\*\*Comment:\*\* Under the comment thresholds: it moves \$1\d\d\.\d\d \(threshold \$1,000\.00\), the largest weight change is 1 bps \(threshold 10\), and withdrawable at once falls by \$0\.00 \(threshold \$0\.01\)/,
    );
    // The same push on a pull request with no comment yet: none is posted.
    const fresh = new Map<string, string>();
    commentSteps(fresh, ran());
    expect(fresh.size).toBe(0);
    // A failed preview is always posted.
    commentSteps(fresh, {
      preview: { outcome: "failure", outputs: {} },
      report: { outcome: "skipped", outputs: {} },
    });
    expect(fresh.size).toBe(1);
  }, 600_000);
});

/**
 * drift.yml's two ways back (issue 56) from review to merge, every step as the workflows have it,
 * on a TypeScript program of the packed package against the sandbox: the way-back job's steps
 * (the real CLI, with a fake `gh` that keeps the pull requests), preview.yml's steps on the pull
 * request from its branch (the real engine, refreshed), then up.yml's on the merged commit (the
 * state refreshed before the check and the plan). Each job runs in a fresh clone of a local
 * `origin`, as actions/checkout leaves it, with the project's installed packages as `npm ci` would
 * leave them. The workflow's branch rules, re-runs and failures without the engine:
 * test/examples/wayBackSteps.test.ts.
 */
describe("drift.yml's ways back through review and merge, through the engine", () => {
  const driftWorkflow = readWorkflow("drift.yml");
  const A = { tbills: 6000, syrupUsdc: 4000 };
  // Changed at the service behind the stack's back: restore puts A back.
  const C = { tbills: 2000, resolvRlp: 8000 };
  // Changed at the service again, then adopted: the stack's config takes it.
  const D = { tbills: 3000, syrupUsdc: 7000 };
  // The local backend's full name of the stack (a Pulumi Cloud stack is treasury/prod); the branch
  // is named from it by the same rule.
  const STACK = "organization/treasury-esm/prod";
  const SLUG = "organization-treasury-esm-prod";
  type Weights = Record<string, number>;
  let t: TestSandbox;
  let project: ProgramProject;
  let walletId: string;
  let scratch: string;
  let origin: string;
  let jobs = 0;
  const access: SandboxAccess = { url: "", token: TOKEN };

  const appliedWeights = () => appliedWeightsOf(access, walletId);
  const waitForWeights = (weights: Weights) => waitForWeightsOf(access, walletId, weights);

  /** An allocation changed at the service directly, as in its console. */
  async function changeAtService(weights: Weights): Promise<void> {
    await callSandbox(access, "PATCH", `/v2/portfolio-wallets/${walletId}/strategy`, {
      requestId: crypto.randomUUID(),
      positions: Object.entries(weights).map(([positionKey, targetWeightBps]) => ({
        positionKey,
        targetWeightBps,
      })),
    });
    await waitForWeights(weights);
  }

  /** A fresh checkout of `ref`, with the project's packages installed as `npm ci` leaves them. */
  function checkout(ref: string): string {
    const dir = path.join(scratch, `checkout-${++jobs}`);
    execFileSync("git", ["clone", "-q", `file://${origin}`, dir]);
    git(dir, "checkout", "-q", ref);
    symlinkSync(path.join(project.dir, "node_modules"), path.join(dir, "node_modules"));
    return dir;
  }

  /** A job's steps in `dir`, as the runner runs them (policy pack: its offline manifest). */
  async function job(
    text: string,
    name: string,
    steps: string[],
    dir: string,
    context: ExpressionContext,
    env: Record<string, string> = {},
  ) {
    const runnerTemp = path.join(scratch, `runner-temp-${++jobs}`);
    mkdirSync(runnerTemp);
    const ran = await runJobSteps({
      text,
      job: name,
      names: steps,
      cwd: dir,
      scratch: path.join(scratch, `steps-${jobs}`),
      context: {
        secrets: { WAY_BACK_TOKEN: "app-token", PORTFOLIO_WALLET_API_TOKEN: TOKEN },
        vars: { PORTFOLIO_WALLET_BASE_URL: t.url },
        ...context,
      },
      env: {
        ...project.env(),
        PATH: `${path.join(scratch, "bin")}:${project.env()["PATH"]}`,
        GITHUB_REPOSITORY: "treasury/infra",
        GITHUB_SERVER_URL: "https://github.com",
        GITHUB_ACTOR: "alice",
        GITHUB_RUN_ID: String(500 + jobs),
        RUNNER_TEMP: runnerTemp,
        FAKE_LOG: path.join(scratch, "calls.log"),
        FAKE_PULL_REQUESTS: path.join(scratch, "pull-requests.json"),
        FAKE_RUN_ID: "4242",
        ...env,
      },
      script: (block) =>
        block.replaceAll(
          "node_modules/@portfolio-wallet/pulumi/policy ",
          "node_modules/@portfolio-wallet/pulumi/policy/offline ",
        ),
    });
    const failed = Object.entries(ran.steps).filter(([, step]) => step.outcome === "failure");
    return { ...ran, log: failed.map(([step, { output }]) => `${step}:\n${output}`).join("\n") };
  }

  const pullRequests = () =>
    JSON.parse(readFileSync(path.join(scratch, "pull-requests.json"), "utf8")) as {
      number: number;
      head: string;
      base: string;
      body: string;
      state: string;
    }[];

  /** drift.yml dispatched with `way_back` for the stack. */
  async function dispatch(wayBack: "restore" | "adopt") {
    const dir = checkout("main");
    const ran = await job(
      driftWorkflow,
      "way-back",
      [
        "The way back's branch",
        "Record what is restored",
        "Adopt the service's allocation",
        "Open or update the pull request",
      ],
      dir,
      {
        github: { event_name: "workflow_dispatch", token: "the-workflow-token" },
        inputs: { way_back: wayBack, stack: STACK },
      },
    );
    expect(ran.ok, ran.log).toBe(true);
    return ran;
  }

  /** preview.yml on the pull request from `branch`: the report and the plan, kept as its artifact. */
  async function previewOf(branch: string) {
    const head = git(origin, "rev-parse", branch);
    const dir = checkout(head);
    const stateBefore = (await project.pulumi(["stack", "export", "--stack", STACK])).stdout;
    const ran = await job(
      previewWorkflow,
      "preview",
      ["Stack state for the policy pack", "pulumi preview", "Allocation report", "Keep the plan"],
      dir,
      {
        matrix: { stack: STACK },
        github: { head_ref: branch, event: { pull_request: { head: { sha: head } } } },
      },
    );
    const previewLog = existsSync(path.join(dir, "preview.log"))
      ? readFileSync(path.join(dir, "preview.log"), "utf8")
      : "";
    expect(ran.ok && ran.steps["pulumi preview"]!.outcome === "success", `${ran.log}${previewLog}`).toBe(
      true,
    );
    // The refresh is the preview's only: the state is as it was.
    expect((await project.pulumi(["stack", "export", "--stack", STACK])).stdout).toBe(stateBefore);
    const artifact = path.join(scratch, `artifact-${++jobs}`);
    mkdirSync(artifact);
    for (const file of ["plan.json", "report.json"]) cpSync(path.join(dir, file), path.join(artifact, file));
    return {
      head,
      artifact,
      name: ran.steps["Keep the plan"]!.outputs["artifact"]!,
      markdown: readFileSync(path.join(dir, "report.md"), "utf8"),
      report: JSON.parse(readFileSync(path.join(dir, "report.json"), "utf8")) as {
        wallets: { walletId: string; money: { impact: { movedMicros: string } | null } }[];
      },
    };
  }

  /** The pull request squash-merged on GitHub: main gets the branch's tree; its branch is kept. */
  function merge(branch: string, number: number): string {
    const dir = checkout("main");
    git(dir, "merge", "-q", "--squash", `origin/${branch}`);
    git(dir, "commit", "-qm", `${branch} (#${number})`);
    git(dir, "push", "-q", "origin", "main");
    const pulls = pullRequests().map((pull) =>
      pull.number === number ? { ...pull, state: "merged" } : pull,
    );
    writeFileSync(path.join(scratch, "pull-requests.json"), JSON.stringify(pulls));
    return git(dir, "rev-parse", "HEAD");
  }

  /** up.yml on the merged commit, with the plan and report preview.yml kept for the branch's head. */
  async function upOf(
    merged: string,
    branch: string,
    reviewed: Awaited<ReturnType<typeof previewOf>>,
    steps: string[],
  ) {
    const dir = checkout(merged);
    return job(
      workflow,
      "up",
      steps,
      dir,
      { matrix: { stack: STACK }, github: { token: "the-workflow-token" } },
      {
        GITHUB_SHA: merged,
        FAKE_PULLS: mergedPull(reviewed.head, branch),
        FAKE_ARTIFACT: reviewed.name,
        FAKE_ARTIFACT_DIR: reviewed.artifact,
      },
    );
  }

  /** The `| source | before | after |` rows of the report's wallet table. */
  const beforeAndAfter = (markdown: string) =>
    Object.fromEntries(
      [...markdown.matchAll(/^\| (\w+) \| (\d+) \| (\d+) \|/gm)]
        .filter((row) => row[1] !== "source")
        .map((row) => [row[1]!, [Number(row[2]), Number(row[3])]]),
    );
  const nonZero = (weights: Record<string, number>) =>
    Object.fromEntries(Object.entries(weights).filter(([, bps]) => bps !== 0));

  beforeAll(async () => {
    const tarball = await packedPackage();
    t = await startTestSandbox({
      rebalanceDelayMs: 5,
      allowPrivateWebhookUrls: true,
      tokens: { [TOKEN]: ORG },
    });
    access.url = t.url;
    await callSandbox(access, "PUT", "/_sandbox/policy", {
      strategyUpdateApprovals: 0,
      withdrawalApprovals: 0,
    });
    project = await PROGRAM_KINDS.find((kind) => kind.name === "esm-typescript")!.create(tarball, "way-back");
    await project.pulumi(["stack", "init", STACK]);
    await project.pulumi(
      configSetAll(
        { "portfolio-wallet:baseUrl": t.url, tbillsBps: String(A.tbills), syrupUsdcBps: String(A.syrupUsdc) },
        { "portfolio-wallet:apiToken": TOKEN },
      ),
    );
    await project.pulumi(["up", "--yes", "--skip-preview"]);
    walletId = (
      JSON.parse((await project.pulumi(["stack", "output", "--json"])).stdout) as { walletId: string }
    ).walletId;
    await depositInto(access, walletId, 1_000_000, 2 * 3600 * 1000);

    // The infrastructure repository: the project on main, its packages ignored.
    scratch = mkdtempSync(path.join(os.tmpdir(), "pw-way-back-engine-"));
    writeFakeGh(path.join(scratch, "bin"));
    writeFileSync(path.join(scratch, "pull-requests.json"), "[]");
    writeFileSync(path.join(project.dir, ".gitignore"), "node_modules\n");
    git(project.dir, "init", "-q", "-b", "main");
    git(project.dir, "add", ".");
    git(project.dir, "commit", "-qm", "treasury");
    origin = path.join(scratch, "origin.git");
    execFileSync("git", ["clone", "-q", "--bare", project.dir, origin]);
  }, 600_000);

  afterAll(async () => {
    project?.cleanUp();
    await t?.close();
    if (scratch) rmSync(scratch, { recursive: true, force: true });
  });

  test("restore: the pull request records the drift; its preview, refreshed, moves the service's allocation back to the code's in dollars; on merge the state is refreshed first, and up --plan puts the code's allocation back", async () => {
    await changeAtService(C);
    const branch = `portfolio-wallet/restore/${SLUG}`;
    await dispatch("restore");
    expect(git(origin, "diff", "--name-only", "main", branch)).toBe(`restore/${SLUG}.md`);
    const record = git(origin, "show", `${branch}:restore/${SLUG}.md`);
    expect(record).toMatch(/: drift, 1 allocation changed at the service/);
    expect(record).toContain("| resolvRlp | 0 | 8000 | +8000 |");
    const [pull] = pullRequests();
    expect(pullRequests()).toHaveLength(1);
    expect(pull).toMatchObject({ number: 1, head: branch, base: "main", state: "open" });
    expect(pull!.body).toContain("| resolvRlp | 0 | 8000 | +8000 |");

    // The review: before is what the service holds, after is the code's.
    const reviewed = await previewOf(branch);
    const service = await appliedWeights();
    const rows = beforeAndAfter(reviewed.markdown);
    expect(
      nonZero(Object.fromEntries(Object.entries(rows).map(([key, [before]]) => [key, before!]))),
    ).toEqual(service);
    expect(
      nonZero(Object.fromEntries(Object.entries(rows).map(([key, [, after]]) => [key, after!]))),
    ).toEqual(A);
    const [wallet] = reviewed.report.wallets;
    expect(reviewed.report.wallets.map((w) => w.walletId)).toEqual([walletId]);
    // About $800,000 of $1M moves back (80% of it leaves resolvRlp), from the service's own figures.
    const [answer, catalog] = await Promise.all([
      callSandbox(access, "GET", `/v2/portfolio-wallets/${walletId}`),
      callSandbox(access, "GET", "/v2/portfolio-wallets/strategies"),
    ]);
    const moved = BigInt(wallet!.money.impact!.movedMicros);
    const expected = moneyImpact(answer, A, catalog.strategies).movedMicros;
    expect(moved - expected >= -50_000n && moved - expected <= 50_000n, `${moved} vs ${expected}`).toBe(true);
    expect(moved > 790_000_000_000n).toBe(true);

    // The merge. Without the refresh, the plan changes nothing: the state still holds the code's
    // allocation, so the engine finds the wallet unchanged, and up --plan "succeeds" with the
    // service's allocation left where it is...
    const merged = merge(branch, 1);
    const unrefreshed = await upOf(merged, branch, reviewed, [
      "Fetch the reviewed plan",
      "Check the reviewed dollars",
      "pulumi up --plan",
    ]);
    expect(unrefreshed.ok, unrefreshed.log).toBe(true);
    expect(unrefreshed.steps["Fetch the reviewed plan"]!.outputs).toEqual({
      head_ref: branch,
      way_back: "restore",
    });
    expect(unrefreshed.steps["pulumi up --plan"]!.output).toMatch(
      /Updating \(prod\):[\s\S]*Resources:\n\s+3 unchanged\n/,
    );
    expect(await appliedWeights()).toEqual(service);
    // ...and up.yml refreshes first: the check holds, and up --plan applies the reviewed plan.
    const up = await upOf(merged, branch, reviewed, [
      "Fetch the reviewed plan",
      "Refresh the state (a way back)",
      "Check the reviewed dollars",
      "pulumi up --plan",
    ]);
    expect(up.ok, up.log).toBe(true);
    expect(up.steps["Refresh the state (a way back)"]!.outcome).toBe("success");
    expect(up.steps["Check the reviewed dollars"]!.output).toContain(
      "The reviewed dollars hold for 1 wallet",
    );
    await waitForWeights(A);
  }, 900_000);

  test("adopt: the pull request changes the stack's config to the service's allocation; its refreshed preview changes no wallet; on merge the state takes it and the service is left as it is", async () => {
    await changeAtService(D);
    const branch = `portfolio-wallet/adopt/${SLUG}`;
    await dispatch("adopt");
    expect(git(origin, "diff", "--name-only", "main", branch)).toBe("Pulumi.prod.yaml");
    const config = git(origin, "show", `${branch}:Pulumi.prod.yaml`);
    const service = await appliedWeights();
    expect(service).toEqual(D);
    expect(config).toContain(`treasury-esm:tbillsBps: "${service["tbills"]}"`);
    expect(config).toContain(`treasury-esm:syrupUsdcBps: "${service["syrupUsdc"]}"`);
    const pull = pullRequests().find((candidate) => candidate.head === branch)!;
    expect(pull).toMatchObject({ number: 2, base: "main", state: "open" });
    expect(pull.body).toMatch(/Stack config `treasury-esm:tbillsBps`: 6000 → 3000\./);
    expect(pull.body).not.toContain("[!WARNING]");

    const reviewed = await previewOf(branch);
    expect(reviewed.report.wallets).toEqual([]);
    expect(beforeAndAfter(reviewed.markdown)).toEqual({});

    const merged = merge(branch, 2);
    const up = await upOf(merged, branch, reviewed, [
      "Fetch the reviewed plan",
      "Refresh the state (a way back)",
      "Check the reviewed dollars",
      "pulumi up --plan",
    ]);
    expect(up.ok, up.log).toBe(true);
    expect(up.steps["Fetch the reviewed plan"]!.outputs["way_back"]).toBe("adopt");
    const exported = JSON.parse((await project.pulumi(["stack", "export", "--stack", STACK])).stdout) as {
      deployment: {
        resources: {
          type: string;
          outputs?: { targetWeightsBps?: Record<string, number> };
        }[];
      };
    };
    const recorded = exported.deployment.resources.find((resource) =>
      resource.type.endsWith(":PortfolioWallet"),
    )!;
    expect(recorded.outputs!.targetWeightsBps).toEqual(D);
    expect(await appliedWeights()).toEqual(D);
  }, 900_000);
});
