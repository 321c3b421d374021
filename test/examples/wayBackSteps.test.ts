import { execFileSync } from "node:child_process";
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, beforeEach, describe, expect, test } from "vitest";
import {
  evaluateCondition,
  jobCondition,
  jobEnv,
  listAfter,
  readWorkflow,
  runJobSteps,
  writeFakeGh,
  type ExpressionContext,
  git,
} from "./workflowSteps.ts";

/**
 * drift.yml's ways back (issue 56), run word for word as GitHub runs them: the `way-back` job's
 * steps against a local git repository as `origin`, with stand-ins for `gh` (pull requests kept in
 * a file), `npx portfolio-wallet drift|adopt` (they answer as the CLI's exit codes say) and
 * `pulumi` (it records its arguments); and preview.yml's preview step, which turns on `--refresh`
 * for a way back of its own stack only. What is under test is the workflows' logic: which job
 * runs, the branch and what it holds, one pull request per stack and way back, when no pull
 * request is opened, and what the log and the job's summary say. The same steps on the real engine
 * and sandbox, through review and merge: test/examples/upPlanSteps.engine.test.ts.
 */

const drift = readWorkflow("drift.yml");
const preview = readWorkflow("preview.yml");
const up = readWorkflow("up.yml");
const WAY_BACK_STEPS = [
  "The way back's branch",
  "Record what is restored",
  "Adopt the service's allocation",
  "Open or update the pull request",
];

const CONFIG = 'config:\n  treasury:tbillsBps: "6000"\n  treasury:syrupUsdcBps: "4000"\n';
const ADOPTED = 'config:\n  treasury:tbillsBps: "2000"\n  treasury:syrupUsdcBps: "8000"\n';
const driftRecord = (serviceBps: number) =>
  [
    "<!-- portfolio-wallet-drift stack=prod -->",
    "",
    "### treasury/prod: drift, 1 allocation changed at the service",
    "",
    `| tbills | 6000 | ${serviceBps} | −${6000 - serviceBps} |`,
    "",
  ].join("\n");

/** `drift --json`'s resources and their findings, as far as the workflow reads them. */
const driftJson = (...resources: [kind: string, finding: string][]) =>
  JSON.stringify({
    resources: resources.map(([kind, finding]) => ({
      kind,
      name: kind === "WebhookRegistration" ? "events" : "treasury",
      findings: [{ kind: finding }],
    })),
  });

let root: string;
let origin: string;
let pullRequests: string;
let log: string;
let jobs = 0;

/** `npx portfolio-wallet drift|adopt` as the CLI answers, from FAKE_* variables; every call logged. */
function writeFakes(bin: string): void {
  writeFakeGh(bin);
  writeFileSync(
    path.join(bin, "npx"),
    `#!/bin/bash
echo "npx $*" >> "$FAKE_LOG"
output=""; previous=""
for argument in "$@"; do [ "$previous" = --output ] && output="$argument"; previous="$argument"; done
case "$1 $2" in
  "portfolio-wallet drift")
    if [ "$FAKE_EXIT" = 1 ]; then echo "error: the refresh preview is not one drift can read" >&2; exit 1; fi
    case " $* " in
      *" --json "*) printf '%s' "$FAKE_JSON" > "$output" ;;
      *) printf '%s' "$FAKE_MARKDOWN" > "$output" ;;
    esac
    exit "$FAKE_EXIT" ;;
  "portfolio-wallet adopt")
    if [ "$FAKE_EXIT" = 1 ]; then echo "error: the refreshed preview failed; adopt put back everything it had written" >&2; exit 1; fi
    if [ -n "$FAKE_WRITES" ]; then printf '%s' "$FAKE_WRITES" > "$FAKE_WRITES_TO"; fi
    printf '%s' "$FAKE_MARKDOWN" > "$output"
    exit "$FAKE_EXIT" ;;
  *) echo "the fake npx does not answer: $*" >&2; exit 3 ;;
esac
`,
  );
  writeFileSync(
    path.join(bin, "pulumi"),
    `#!/bin/bash\necho "pulumi $*\${PULUMI_DEBUG_COMMANDS:+ PULUMI_DEBUG_COMMANDS=$PULUMI_DEBUG_COMMANDS}" >> "$FAKE_LOG"\n`,
  );
  chmodSync(path.join(bin, "npx"), 0o755);
  chmodSync(path.join(bin, "pulumi"), 0o755);
}

beforeAll(() => {
  root = mkdtempSync(path.join(os.tmpdir(), "pw-way-back-"));
  writeFakes(path.join(root, "bin"));
  log = path.join(root, "calls.log");
  pullRequests = path.join(root, "pull-requests.json");
});

afterAll(() => rmSync(root, { recursive: true, force: true }));

/** A new repository on GitHub: main with infra/ (a program and the prod stack's config), no pull request. */
beforeEach(() => {
  origin = path.join(root, `origin-${++jobs}.git`);
  const seed = path.join(root, `seed-${jobs}`);
  mkdirSync(path.join(seed, "infra"), { recursive: true });
  git(seed, "init", "-q", "-b", "main");
  writeFileSync(path.join(seed, "infra", "Pulumi.yaml"), "name: treasury\nruntime: nodejs\n");
  writeFileSync(path.join(seed, "infra", "Pulumi.prod.yaml"), CONFIG);
  writeFileSync(path.join(seed, "infra", "Pulumi.staging.yaml"), CONFIG);
  writeFileSync(path.join(seed, "README.md"), "treasury\n");
  git(seed, "add", ".");
  git(seed, "commit", "-qm", "base");
  execFileSync("git", ["clone", "-q", "--bare", seed, origin]);
  writeFileSync(pullRequests, "[]");
});

const context = (wayBack: string, stack: string, secrets: Record<string, string>): ExpressionContext => ({
  github: { event_name: "workflow_dispatch", token: "the-workflow-token" },
  inputs: { way_back: wayBack, stack },
  secrets,
});

/**
 * One run of the `way-back` job, dispatched with `way_back` and `stack`: a fresh clone of main (as
 * actions/checkout leaves it), then its steps; `fake` is what the stand-in CLI answers.
 */
async function dispatch(
  wayBack: "restore" | "adopt",
  stack: string,
  fake: { exit: number; markdown: string; json?: string; writes?: string },
  options: { runId?: number; secrets?: Record<string, string> } = {},
) {
  const work = path.join(root, `work-${++jobs}`);
  execFileSync("git", ["clone", "-q", `file://${origin}`, work]);
  // What `npm ci` leaves in infra/, in a repository that does not ignore it: never committed.
  mkdirSync(path.join(work, "infra", "node_modules"));
  writeFileSync(path.join(work, "infra", "node_modules", ".package-lock.json"), "{}\n");
  const runnerTemp = path.join(root, `runner-temp-${jobs}`);
  mkdirSync(runnerTemp);
  writeFileSync(log, "");
  const secrets = options.secrets ?? { WAY_BACK_TOKEN: "app-token", PORTFOLIO_WALLET_API_TOKEN: "read-only" };
  const job = await runJobSteps({
    text: drift,
    job: "way-back",
    names: WAY_BACK_STEPS,
    cwd: path.join(work, "infra"),
    scratch: path.join(root, `scratch-${jobs}`),
    context: context(wayBack, stack, secrets),
    env: {
      PATH: `${path.join(root, "bin")}:${process.env["PATH"]}`,
      HOME: root,
      GITHUB_REPOSITORY: "treasury/infra",
      GITHUB_SERVER_URL: "https://github.com",
      GITHUB_ACTOR: "alice",
      GITHUB_RUN_ID: String(options.runId ?? 101),
      RUNNER_TEMP: runnerTemp,
      FAKE_LOG: log,
      FAKE_PULL_REQUESTS: pullRequests,
      FAKE_EXIT: String(fake.exit),
      FAKE_MARKDOWN: fake.markdown,
      FAKE_JSON: fake.json ?? driftJson(["PortfolioWallet", "allocation"]),
      FAKE_WRITES: fake.writes ?? "",
      FAKE_WRITES_TO: `Pulumi.${stack.split("/").pop()}.yaml`,
    },
  });
  const output = Object.values(job.steps)
    .map((step) => step.output)
    .join("");
  return { ...job, output, calls: readFileSync(log, "utf8").trim().split("\n"), work, runnerTemp };
}

const branches = () =>
  git(origin, "for-each-ref", "--format=%(refname:short)", "refs/heads")
    .split("\n")
    .filter((name) => name !== "main");
const changedFiles = (branch: string) => git(origin, "diff", "--name-only", "main", branch).split("\n");
const show = (branch: string, file: string) => git(origin, "show", `${branch}:${file}`);
const pulls = () =>
  JSON.parse(readFileSync(pullRequests, "utf8")) as {
    number: number;
    head: string;
    base: string;
    title: string;
    body: string;
    state: string;
  }[];

describe("drift.yml: which job a run starts", () => {
  const runs = (event: string, inputs: Record<string, string>) =>
    ["drift", "way-back"].filter((job) =>
      evaluateCondition(jobCondition(job, drift), {}, { github: { event_name: event }, inputs }),
    );

  test("the schedule and a dispatch of check: the drift check of every stack; restore or adopt: the way back of the one stack", () => {
    expect(runs("schedule", {})).toEqual(["drift"]);
    expect(runs("workflow_dispatch", { way_back: "check", stack: "treasury/prod" })).toEqual(["drift"]);
    expect(runs("workflow_dispatch", { way_back: "restore", stack: "treasury/prod" })).toEqual(["way-back"]);
    expect(runs("workflow_dispatch", { way_back: "adopt", stack: "treasury/staging" })).toEqual(["way-back"]);
    // The stack to choose is one of every workflow's stacks; check is the default way.
    const stacks = listAfter(drift, "stack", "drift:");
    expect(stacks).toEqual(["treasury/staging", "treasury/prod"]);
    expect(listAfter(drift, "options", "stack:")).toEqual(stacks);
    expect(listAfter(preview, "stack", "preview:")).toEqual(stacks);
    expect(listAfter(up, "stack", "up:")).toEqual(stacks);
    expect(listAfter(drift, "options", "way_back:")).toEqual(["check", "restore", "adopt"]);
    expect(drift).toMatch(/way_back:\n(\s+\w+: .*\n)*\s+default: check\n/);
    // The job acts for the chosen stack, with a token that starts workflows when one is set.
    expect(
      jobEnv("way-back", drift, context("restore", "treasury/prod", { WAY_BACK_TOKEN: "x" })),
    ).toMatchObject({
      STACK: "treasury/prod",
      WAY_BACK: "restore",
      GH_TOKEN: "x",
    });
    expect(jobEnv("way-back", drift, context("adopt", "treasury/prod", {}))).toMatchObject({
      GH_TOKEN: "the-workflow-token",
    });
  });
});

describe("drift.yml: restore", () => {
  test("a branch portfolio-wallet/restore/<stack> of one commit on main with what drifted under infra/restore/, and one pull request that says what merging does", async () => {
    const run = await dispatch("restore", "treasury/prod", { exit: 2, markdown: driftRecord(2000) });
    expect(run.ok, run.output).toBe(true);
    expect(run.steps["Adopt the service's allocation"]!.outcome).toBe("skipped");
    // One refresh preview, read as JSON to decide and as markdown for the record.
    const events = path.join(run.runnerTemp, "refresh-events.jsonl");
    expect(run.calls.slice(0, 3)).toEqual([
      `pulumi refresh --preview-only --stack treasury/prod --event-log ${events} PULUMI_DEBUG_COMMANDS=true`,
      `npx portfolio-wallet drift --stack treasury/prod --refresh-preview ${events} --json --output ${run.runnerTemp}/drift.json`,
      `npx portfolio-wallet drift --stack treasury/prod --refresh-preview ${events} --markdown --output restore/treasury-prod.md`,
    ]);
    const branch = "portfolio-wallet/restore/treasury-prod";
    expect(branches()).toEqual([branch]);
    expect(git(origin, "rev-list", "--count", `main..${branch}`)).toBe("1");
    expect(changedFiles(branch)).toEqual(["infra/restore/treasury-prod.md"]);
    expect(show(branch, "infra/restore/treasury-prod.md")).toBe(
      `${driftRecord(2000)}\nRestore requested by @alice in https://github.com/treasury/infra/actions/runs/101.`,
    );
    expect(git(origin, "log", "-1", "--format=%s%n%b", branch)).toBe(
      "Restore treasury/prod: the code's allocation back at the service\nRequested by @alice in https://github.com/treasury/infra/actions/runs/101.",
    );
    expect(run.calls.slice(3)).toEqual([
      `gh pr list --repo treasury/infra --head ${branch} --state open --json number --jq .[0].number // empty`,
      expect.stringMatching(
        new RegExp(
          `^gh pr create --repo treasury/infra --base main --head ${branch} --title Restore treasury/prod`,
        ),
      ),
    ]);
    const [pull] = pulls();
    expect(pulls()).toHaveLength(1);
    expect(pull).toMatchObject({ number: 1, head: branch, base: "main", state: "open" });
    expect(pull!.body).toMatch(/^### Restore `treasury\/prod`: the code's allocation back at the service\n/);
    expect(pull!.body).toContain("`infra/restore/treasury-prod.md`");
    expect(pull!.body).toContain("(`pulumi preview --refresh`, nothing written)");
    expect(pull!.body).toContain(
      "**Merging** puts the code's allocation back: up.yml refreshes the stack's state (`pulumi refresh`), holds the service to the reviewed dollars (`portfolio-wallet report-check`",
    );
    expect(pull!.body).toContain("| tbills | 6000 | 2000 | −4000 |");
    expect(pull!.body).not.toContain("[!NOTE]");
    expect(run.summary).toBe(`Opened https://github.com/treasury/infra/pull/1 from ${branch}.\n`);
  });

  test("dispatched again for the stack: the branch is replaced from the current main and its pull request updated, never a second one; once that one is merged, the next dispatch opens a new one", async () => {
    const branch = "portfolio-wallet/restore/treasury-prod";
    await dispatch("restore", "treasury/prod", { exit: 2, markdown: driftRecord(2000) });
    // Main moves on meanwhile; the service changes again.
    const other = path.join(root, `other-${++jobs}`);
    execFileSync("git", ["clone", "-q", `file://${origin}`, other]);
    writeFileSync(path.join(other, "README.md"), "treasury, documented\n");
    git(other, "commit", "-qam", "docs");
    git(other, "push", "-q", "origin", "main");
    const again = await dispatch(
      "restore",
      "treasury/prod",
      { exit: 2, markdown: driftRecord(1000) },
      { runId: 102 },
    );
    expect(again.ok, again.output).toBe(true);
    expect(again.calls.filter((call) => call.startsWith("gh pr create"))).toEqual([]);
    expect(again.calls).toContainEqual(
      expect.stringMatching(
        /^gh pr edit 1 --repo treasury\/infra --title Restore treasury\/prod: .* --body-file /,
      ),
    );
    expect(pulls()).toHaveLength(1);
    expect(pulls()[0]!.body).toContain("| tbills | 6000 | 1000 | −5000 |");
    expect(pulls()[0]!.body).not.toContain("| tbills | 6000 | 2000 |");
    expect(again.summary).toBe(`Updated pull request #1 from ${branch}.\n`);
    // One commit, on the main of now: the first run's commit is gone from the branch.
    expect(git(origin, "rev-list", "--count", `main..${branch}`)).toBe("1");
    expect(git(origin, "rev-parse", `${branch}~1`)).toBe(git(origin, "rev-parse", "main"));
    expect(show(branch, "infra/restore/treasury-prod.md")).toContain("actions/runs/102.");

    // Merged (its branch kept): the next restore of the stack is a new pull request.
    writeFileSync(pullRequests, JSON.stringify(pulls().map((pull) => ({ ...pull, state: "merged" }))));
    const later = await dispatch(
      "restore",
      "treasury/prod",
      { exit: 2, markdown: driftRecord(3000) },
      { runId: 103 },
    );
    expect(later.ok, later.output).toBe(true);
    expect(pulls().map((pull) => [pull.number, pull.state])).toEqual([
      [1, "merged"],
      [2, "open"],
    ]);
  });

  test("no drift (exit 0) or a check that failed (exit 1): the job fails, with no branch and no pull request", async () => {
    const none = await dispatch("restore", "treasury/staging", { exit: 0, markdown: "no drift" });
    expect(none.ok).toBe(false);
    expect(none.output).toContain("::error::treasury/staging has no drift: there is nothing to restore.");
    const failed = await dispatch("restore", "treasury/staging", { exit: 1, markdown: "" });
    expect(failed.ok).toBe(false);
    for (const run of [none, failed]) {
      expect(run.steps["Open or update the pull request"]!.outcome).toBe("skipped");
      expect(run.calls.filter((call) => call.startsWith("gh "))).toEqual([]);
    }
    expect(branches()).toEqual([]);
  });

  test("a wallet the service does not have for the stack's token is not restored (check the token first); a webhook registration it lost is", async () => {
    const wallet = await dispatch("restore", "treasury/prod", {
      exit: 2,
      markdown: driftRecord(2000),
      json: driftJson(["PortfolioWallet", "missing"], ["WebhookRegistration", "missing"]),
    });
    expect(wallet.ok).toBe(false);
    expect(wallet.output).toContain(
      "::error::treasury/prod: PortfolioWallet treasury not found at the service for the stack's API token, so it is not restored. First check the token's organization",
    );
    expect(wallet.calls.filter((call) => call.includes("--markdown") || call.startsWith("gh "))).toEqual([]);
    expect(branches()).toEqual([]);
    const webhook = await dispatch("restore", "treasury/prod", {
      exit: 2,
      markdown: driftRecord(2000),
      json: driftJson(["WebhookRegistration", "missing"], ["PortfolioWallet", "allocation"]),
    });
    expect(webhook.ok, webhook.output).toBe(true);
    expect(branches()).toEqual(["portfolio-wallet/restore/treasury-prod"]);
  });

  test("opened with the workflow's own token (no WAY_BACK_TOKEN): it warns, and the body says how to start the preview", async () => {
    const run = await dispatch(
      "restore",
      "treasury/prod",
      { exit: 2, markdown: driftRecord(2000) },
      { secrets: {} },
    );
    expect(run.ok, run.output).toBe(true);
    expect(run.output).toContain("::warning::This pull request was opened with the workflow's own token");
    expect(pulls()[0]!.body).toMatch(
      /\n> \[!NOTE\]\n> This pull request was opened with the workflow's own token, which starts no workflow: close and reopen it to run preview\.yml \(or set the WAY_BACK_TOKEN secret\)\.\n$/,
    );
  });
});

describe("drift.yml: adopt", () => {
  const adopted = (byHand: string) =>
    `treasury/prod: 1 of ${byHand ? 2 : 1} allocations changed at the service written into the code${byHand ? "; 1 to change by hand" : ""}.\n\n- **PortfolioWallet treasury**: ...\n  - Stack config \`treasury:tbillsBps\`: 6000 → 2000.\n${byHand}`;
  const BY_HAND =
    '  - Change by hand: a literal in the program.\n  - `index.ts:12`  `{ positionKey: "tbills", targetWeightBps: 6000 }`\n';

  test("written and checked (exit 0): the changed config on portfolio-wallet/adopt/<stack>, adopt's summary in the pull request", async () => {
    const run = await dispatch("adopt", "treasury/prod", { exit: 0, markdown: adopted(""), writes: ADOPTED });
    expect(run.ok, run.output).toBe(true);
    expect(run.steps["Record what is restored"]!.outcome).toBe("skipped");
    expect(run.calls[0]).toMatch(
      /^npx portfolio-wallet adopt --stack treasury\/prod --output .*\/adopt\.md$/,
    );
    const branch = "portfolio-wallet/adopt/treasury-prod";
    expect(branches()).toEqual([branch]);
    // Only the program's own file: adopt's summary is not committed.
    expect(changedFiles(branch)).toEqual(["infra/Pulumi.prod.yaml"]);
    expect(show(branch, "infra/Pulumi.prod.yaml")).toBe(ADOPTED.trimEnd());
    const [pull] = pulls();
    expect(pull).toMatchObject({
      number: 1,
      head: branch,
      base: "main",
      title: "Adopt treasury/prod: the service's allocation into the code",
    });
    expect(pull!.body).toMatch(/^### Adopt `treasury\/prod`: the service's allocation into the code\n/);
    expect(pull!.body).toContain(
      "**Merging** keeps the service's allocation: up.yml refreshes the stack's state",
    );
    expect(pull!.body).toContain("Stack config `treasury:tbillsBps`: 6000 → 2000.");
    expect(pull!.body).not.toContain("[!WARNING]");
  });

  test("some written, some to change by hand (exit 2): the pull request is opened and says what is left to change by hand", async () => {
    const run = await dispatch("adopt", "treasury/prod", {
      exit: 2,
      markdown: adopted(BY_HAND),
      writes: ADOPTED,
    });
    expect(run.ok, run.output).toBe(true);
    expect(changedFiles("portfolio-wallet/adopt/treasury-prod")).toEqual(["infra/Pulumi.prod.yaml"]);
    const body = pulls()[0]!.body;
    expect(body).toContain(
      "> [!WARNING]\n> Not every allocation could be written: change by hand, on this branch, the lines listed below before merging.",
    );
    expect(body).toContain("`index.ts:12`");
  });

  test("nothing written (every allocation by hand, or nothing to adopt), or adopt failed: the job fails, with adopt's list in the job's summary, no branch and no pull request", async () => {
    const byHand = await dispatch("adopt", "treasury/prod", {
      exit: 2,
      markdown: `treasury/prod: 0 of 1 ...\n${BY_HAND}`,
    });
    expect(byHand.ok).toBe(false);
    expect(byHand.output).toContain(
      "::error::adopt could write no allocation of treasury/prod into the code, so no pull request is opened: change by hand the lines the job's summary lists",
    );
    expect(byHand.summary).toBe(`treasury/prod: 0 of 1 ...\n${BY_HAND}`);
    const nothing = await dispatch("adopt", "treasury/prod", {
      exit: 0,
      markdown: "treasury/prod: nothing to adopt: no allocation was changed at the service.\n",
    });
    expect(nothing.ok).toBe(false);
    expect(nothing.output).toContain(
      "::error::adopt changed no file of treasury/prod, so no pull request is opened",
    );
    expect(nothing.summary).toContain("nothing to adopt");
    const failed = await dispatch("adopt", "treasury/prod", { exit: 1, markdown: "" });
    expect(failed.ok).toBe(false);
    expect(failed.output).toContain("put back everything it had written");
    expect(failed.output).toContain("::error::adopt failed (the reason is above)");
    for (const run of [byHand, nothing, failed]) {
      expect(run.steps["Open or update the pull request"]!.outcome).toBe("skipped");
      expect(run.calls.filter((call) => call.startsWith("gh "))).toEqual([]);
    }
    expect(branches()).toEqual([]);
  });
});

describe("preview.yml: a way back is previewed against the refreshed state", () => {
  /** The preview step's pulumi call, on a pull request from `headRef`, for the matrix's `stack`. */
  async function previewArgs(stack: string, headRef: string) {
    const work = path.join(root, `preview-${++jobs}`);
    mkdirSync(work);
    writeFileSync(log, "");
    const job = await runJobSteps({
      text: preview,
      job: "preview",
      names: ["pulumi preview"],
      cwd: work,
      scratch: path.join(root, `scratch-${jobs}`),
      context: { matrix: { stack }, github: { head_ref: headRef } },
      env: { PATH: `${path.join(root, "bin")}:${process.env["PATH"]}`, HOME: root, FAKE_LOG: log },
    });
    expect(job.ok, job.steps["pulumi preview"]!.output).toBe(true);
    return { call: readFileSync(log, "utf8").trim(), work };
  }
  const plain = (stack: string) =>
    `pulumi preview --stack ${stack} --json --save-plan plan.json --policy-pack node_modules/@portfolio-wallet/pulumi/policy`;
  const refreshed = (stack: string) =>
    `pulumi preview --stack ${stack} --json --save-plan plan.json --refresh --policy-pack node_modules/@portfolio-wallet/pulumi/policy`;

  test("the stack's own restore or adopt branch turns on --refresh; another stack's, a look-alike or any other branch does not", async () => {
    expect((await previewArgs("treasury/prod", "portfolio-wallet/restore/treasury-prod")).call).toBe(
      refreshed("treasury/prod"),
    );
    expect((await previewArgs("treasury/prod", "portfolio-wallet/adopt/treasury-prod")).call).toBe(
      refreshed("treasury/prod"),
    );
    expect((await previewArgs("treasury/staging", "portfolio-wallet/restore/treasury-prod")).call).toBe(
      plain("treasury/staging"),
    );
    expect((await previewArgs("treasury/staging", "portfolio-wallet/restore/treasury-staging")).call).toBe(
      refreshed("treasury/staging"),
    );
    for (const headRef of [
      "portfolio-wallet/restore/treasury-staging",
      "portfolio-wallet/restore/treasury-prod-old",
      "fork/portfolio-wallet/restore/treasury-prod",
      "portfolio-wallet/rollback/treasury-prod",
      "reweight-tbills",
    ])
      expect((await previewArgs("treasury/prod", headRef)).call, headRef).toBe(plain("treasury/prod"));
  });

  test("the branch name reaches the script as data, never as its text", async () => {
    const attempt = await previewArgs("treasury/prod", "portfolio-wallet/restore/$(touch${IFS}injected)");
    expect(attempt.call).toBe(plain("treasury/prod"));
    expect(existsSync(path.join(attempt.work, "injected"))).toBe(false);
    expect(preview).toMatch(/\n {10}HEAD_REF: \$\{\{ github\.head_ref \}\}\n/);
    expect(preview.match(/github\.head_ref/g)).toHaveLength(1);
  });
});
