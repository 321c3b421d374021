import { chmodSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { repoRoot } from "../../scripts/pulumiEnv.ts";
import { createManualClock } from "../../sandbox/index.ts";
import { ORG, startTestSandbox, TOKEN, type TestSandbox } from "../sandbox/helpers.ts";
import { callSandbox, fundedWallet, type SandboxAccess } from "../support/sandboxAccess.ts";
import { readWorkflow, runJobSteps, writeFakeGh } from "./workflowSteps.ts";

/**
 * watch.yml, run word for word as GitHub runs its steps: the real `portfolio-wallet watch` and
 * `watch-issue` (this checkout's CLI, as `npx portfolio-wallet`) against a funded wallet in the
 * sandbox, the stack's state from a stand-in `pulumi` (a `pulumi stack export` of that wallet: the
 * watch runs no program, so no engine is needed), and a stand-in `gh` that keeps the repository's
 * issues in a file. What is under test is the schedule's one issue per stack: opened when a band is
 * left, updated while it stays left, closed when every wallet is back within, reopened when one
 * leaves again, never a second one, and never the stack's drift issue.
 */

const watch = readWorkflow("watch.yml");
const STEPS = [
  "Market watch",
  "Decide the stack's watch issue",
  "Open the issue",
  "Reopen the issue (a band was left again)",
  "Update the issue",
  "Close the issue (every wallet within its bands)",
];
const cliMain = path.join(repoRoot, "cli", "main.ts");

let root: string;
let infra: string;
let t: TestSandbox;
const access: SandboxAccess = { url: "", token: TOKEN };
let walletId: string;

/** Stand-ins on PATH: gh (workflowSteps.ts, issues in $FAKE_ISSUES), npx and pulumi. */
function writeFakes(bin: string): void {
  writeFakeGh(bin);
  // The runner's npx runs the package's bin; here this checkout's CLI.
  writeFileSync(
    path.join(bin, "npx"),
    `#!/bin/bash\n[ "$1" = portfolio-wallet ] || { echo "the fake npx runs portfolio-wallet only" >&2; exit 3; }\nshift\nexec "${process.execPath}" "${cliMain}" "$@"\n`,
  );
  // The stack's state and config, as the Pulumi CLI answers them (no program runs for either).
  writeFileSync(
    path.join(bin, "pulumi"),
    `#!/bin/bash
echo "pulumi $*" >> "$FAKE_LOG"
case "$1 $2" in
  "stack export") cat "$FAKE_STATE" ;;
  "config --json") cat "$FAKE_CONFIG" ;;
  *) echo "the fake pulumi does not answer: $*" >&2; exit 2 ;;
esac
`,
  );
  for (const tool of ["gh", "npx", "pulumi"]) chmodSync(path.join(bin, tool), 0o755);
}

beforeAll(async () => {
  t = await startTestSandbox({
    clock: createManualClock(new Date("2026-06-01T00:00:00.000Z")),
    tokens: { [TOKEN]: ORG },
  });
  access.url = t.url;
  root = mkdtempSync(path.join(os.tmpdir(), "pw-watch-steps-"));
  infra = path.join(root, "infra");
  mkdirSync(infra, { recursive: true });
  writeFileSync(path.join(infra, "Pulumi.yaml"), "name: treasury\nruntime: nodejs\n");
  writeFakes(path.join(root, "bin"));
  const { wallet } = await fundedWallet(access, 1_000_000, { settleMs: 2 * 3600 * 1000 });
  walletId = wallet.id;
  const urn = "urn:pulumi:prod::treasury::portfolio-wallet:index:PortfolioWallet::treasury";
  writeFileSync(
    path.join(root, "state.json"),
    JSON.stringify({
      version: 3,
      deployment: {
        resources: [
          {
            urn,
            type: "portfolio-wallet:index:PortfolioWallet",
            outputs: { walletId, appliedRatesBps: { tbills: 430, syrupUsdc: 650 } },
          },
        ],
      },
    }),
  );
  writeFileSync(
    path.join(root, "config.json"),
    JSON.stringify({ "portfolio-wallet:watchRateDropBps": { value: "100", secret: false } }),
  );
  writeFileSync(
    path.join(root, "issues.json"),
    JSON.stringify([
      {
        number: 1,
        state: "open",
        title: "Drift: treasury/prod",
        body: "<!-- portfolio-wallet-drift stack=treasury/prod -->\nthe drift issue",
        comments: [],
      },
    ]),
  );
}, 120_000);

afterAll(async () => {
  await t?.close();
  rmSync(root, { recursive: true, force: true });
});

async function runWatch() {
  rmSync(path.join(infra, "watch.json"), { force: true });
  const run = await runJobSteps({
    text: watch,
    job: "watch",
    names: STEPS,
    cwd: infra,
    env: {
      PATH: `${path.join(root, "bin")}:${process.env["PATH"]}`,
      HOME: root,
      GITHUB_REPOSITORY: "treasury/infra",
      FAKE_LOG: path.join(root, "calls.log"),
      FAKE_STATE: path.join(root, "state.json"),
      FAKE_CONFIG: path.join(root, "config.json"),
      FAKE_ISSUES: path.join(root, "issues.json"),
    },
    context: {
      matrix: { stack: "treasury/prod" },
      secrets: { PORTFOLIO_WALLET_API_TOKEN: TOKEN, PULUMI_ACCESS_TOKEN: "" },
      vars: { PORTFOLIO_WALLET_BASE_URL: t.url },
      github: { token: "gh-token" },
    },
    scratch: path.join(root, "scratch"),
  });
  const issues = JSON.parse(readFileSync(path.join(root, "issues.json"), "utf8")) as {
    number: number;
    state: string;
    title: string;
    body: string;
    comments: string[];
  }[];
  return { run, issues, watchIssues: issues.filter((issue) => issue.number !== 1) };
}

const setRate = (key: string, currentRateBps: number) =>
  callSandbox(access, "PUT", `/_sandbox/catalog/${key}/rate`, { currentRateBps });

describe("watch.yml: one market-watch issue per stack", () => {
  test("opened when a band is left, updated while it stays left, closed once back within, reopened when left again; the drift issue untouched", async () => {
    // syrupUsdc 350 below its rate at apply: outside the stack config's 100 bps band.
    await setRate("syrupUsdc", 300);
    const opened = await runWatch();
    expect(opened.run.ok, JSON.stringify(opened.run.steps["Market watch"])).toBe(true);
    expect(opened.run.steps["Decide the stack's watch issue"]!.outputs).toMatchObject({
      action: "open",
      title: "Market watch: treasury/prod",
    });
    expect(opened.watchIssues).toHaveLength(1);
    const [issue] = opened.watchIssues;
    expect(issue).toMatchObject({ state: "open", title: "Market watch: treasury/prod" });
    expect(issue!.body.split("\n")[0]).toBe("<!-- portfolio-wallet-watch stack=treasury/prod -->");
    expect(issue!.body).toContain(`#### PortfolioWallet \`treasury\` (wallet ${walletId})`);
    expect(issue!.body).toContain("rate-drop: syrupUsdc pays 300 bps, 350 below the 650");

    // Still outside, a deeper cut: the same issue, its body the new report.
    await setRate("syrupUsdc", 200);
    const updated = await runWatch();
    expect(updated.run.steps["Update the issue"]!.outcome).toBe("success");
    expect(updated.watchIssues).toHaveLength(1);
    expect(updated.watchIssues[0]!.body).toContain("syrupUsdc pays 200 bps, 450 below");

    // Back within its band: closed, saying so.
    await setRate("syrupUsdc", 600);
    const closed = await runWatch();
    expect(closed.run.steps["Decide the stack's watch issue"]!.outputs["action"]).toBe("close");
    expect(closed.watchIssues[0]).toMatchObject({ state: "closed" });
    expect(closed.watchIssues[0]!.comments[0]).toContain("Every wallet within its bands");

    // Left again: the same issue reopened and updated, never a second one.
    await setRate("syrupUsdc", 100);
    const reopened = await runWatch();
    expect(reopened.run.steps["Reopen the issue (a band was left again)"]!.outcome).toBe("success");
    expect(reopened.watchIssues).toHaveLength(1);
    expect(reopened.watchIssues[0]).toMatchObject({ state: "open" });
    expect(reopened.watchIssues[0]!.body).toContain("syrupUsdc pays 100 bps");
    // The stack's drift issue is another issue: the watch never touched it.
    expect(reopened.issues.find((i) => i.number === 1)).toMatchObject({
      state: "open",
      body: expect.stringContaining("the drift issue"),
    });
  }, 240_000);

  test("a watch that fails (a bad band in the stack config) leaves the issue as it is and fails the job", async () => {
    const before = readFileSync(path.join(root, "issues.json"), "utf8");
    const config = path.join(root, "config.json");
    const good = readFileSync(config, "utf8");
    writeFileSync(
      config,
      JSON.stringify({ "portfolio-wallet:watchDriftBps": { value: "-5", secret: false } }),
    );
    try {
      const failed = await runWatch();
      expect(failed.run.ok).toBe(false);
      expect(failed.run.steps["Market watch"]!.code).toBe(1);
      expect(failed.run.steps["Market watch"]!.output).toContain(
        'stack config portfolio-wallet:watchDriftBps is "-5"',
      );
      expect(failed.run.steps["Decide the stack's watch issue"]!.outcome).toBe("skipped");
      expect(readFileSync(path.join(root, "issues.json"), "utf8")).toBe(before);
    } finally {
      writeFileSync(config, good);
    }
  }, 120_000);
});
