import { createHash } from "node:crypto";
import { readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, test } from "vitest";
import { driftIssueAction, issueTitle, type ExistingIssue } from "../../cli/drift/driftIssue.ts";
import { buildDriftReport, withDriftDollars } from "../../cli/drift/driftReport.ts";
import { readRefreshPreview } from "../../cli/drift/refreshSteps.ts";
import { driftMarker, renderDriftMarkdown, renderDriftText } from "../../cli/drift/renderDrift.ts";
import { planPreviewMismatches, readPlan } from "../../cli/report/planFile.ts";
import { readPreview } from "../../cli/report/previewSteps.ts";
import { portfolioWallet, useCliDirectory } from "./harness.ts";
import {
  asNativeStep,
  CATALOG,
  previewOf,
  refreshEventLogOf,
  step,
  urnOf,
  refreshedWalletState,
  walletRefresh,
  WALLET,
  type FixtureStep,
} from "./previewFixtures.ts";

/**
 * The drift check's rules on refresh previews shaped like the engine's event log and `--json`
 * digest (the engine itself runs in test/cli/drift/driftEveryProgram.engine.test.ts), the one-issue-per-stack
 * decision of the scheduled workflow, and the saved plan the report reads.
 */

const REGISTRATION = "7e1d2c3b-4a59-4687-9a1b-2c3d4e5f6a7b";
const A = { tbills: 6000, syrupUsdc: 4000 };
const B = { tbills: 5000, syrupUsdc: 5000 };
const C = { tbills: 2000, resolvRlp: 8000 };

function webhookState(inputs: Record<string, unknown>) {
  const full = {
    url: "https://hooks.example.com/a",
    eventTypes: ["portfolio_wallet.balance.updated"],
    enabled: true,
    ...inputs,
  };
  return {
    type: "pulumi-nodejs:dynamic/webhookregistration:WebhookRegistration",
    inputs: full,
    outputs: {
      ...full,
      registrationId: REGISTRATION,
      status: full.enabled ? "active" : "disabled",
      secret: "[secret]",
    },
  };
}

function webhookRefresh(service: Record<string, unknown>): FixtureStep {
  return {
    op: "update",
    urn: urnOf("webhook", "events"),
    oldState: webhookState({}),
    newState: webhookState(service),
  };
}

const CHECKED_AT = "2026-11-25T06:17:00.000Z";
const driftOf = (steps: FixtureStep[]) =>
  buildDriftReport(readRefreshPreview(refreshEventLogOf([step.sameStack(), ...steps])), CHECKED_AT);

describe("drift report", () => {
  test("an allocation changed at the service is drift, per yield source", () => {
    const report = driftOf([walletRefresh(B, C)]);
    expect(report.drift).toBe(true);
    expect(report.headline).toBe("treasury/prod: drift, 1 allocation changed at the service");
    expect(report.resources).toHaveLength(1);
    expect(report.resources[0]).toMatchObject({ name: "treasury", kind: "PortfolioWallet", id: WALLET });
    expect(report.resources[0]!.findings.map((f) => f.kind)).toEqual(["allocation"]);
    expect(report.resources[0]!.sources).toEqual([
      { positionKey: "resolvRlp", codeBps: 0, serviceBps: 8000, deltaBps: 8000 },
      { positionKey: "syrupUsdc", codeBps: 5000, serviceBps: 0, deltaBps: -5000 },
      { positionKey: "tbills", codeBps: 5000, serviceBps: 2000, deltaBps: -3000 },
    ]);
    const markdown = renderDriftMarkdown(report);
    expect(markdown.split("\n")[0]).toBe(driftMarker("prod"));
    expect(markdown).toContain("| resolvRlp | 0 | 8000 | +8000 |");
    expect(markdown).toContain("| **sum** | **10000** | **10000** | |");
  });

  test("a yield source keyed like an object member counts 0 bps on the side that lacks it", () => {
    // A new position key may be any name; `constructor` or `toString` read from a plain object
    // would give its member, a function, rather than 0.
    const report = driftOf([
      walletRefresh({ tbills: 5000, toString: 5000 }, { tbills: 5000, constructor: 5000 }),
    ]);
    expect(report.resources[0]!.sources).toEqual([
      { positionKey: "constructor", codeBps: 0, serviceBps: 5000, deltaBps: 5000 },
      { positionKey: "tbills", codeBps: 5000, serviceBps: 5000, deltaBps: 0 },
      { positionKey: "toString", codeBps: 5000, serviceBps: 0, deltaBps: -5000 },
    ]);
    const markdown = renderDriftMarkdown(report);
    expect(markdown).toContain("| constructor | 0 | 5000 | +5000 |");
    expect(markdown).toContain("| toString | 5000 | 0 | −5000 |");
  });

  test("market movement (a rate, the blended rate, the status) is never drift", () => {
    const report = driftOf([walletRefresh(A, A, { rates: [518, 590] })]);
    expect(report.drift).toBe(false);
    expect(report.headline).toBe("treasury/prod: no drift");
    expect(report.inSync).toBe(1);
  });

  test("the code's own update waiting for approval is shown, not counted as drift", () => {
    const report = driftOf([
      walletRefresh(B, A, { change: { status: "pending_approval", target: B, signingActivityId: "act-1" } }),
    ]);
    expect(report.drift).toBe(false);
    expect(report.awaitingApproval).toEqual([
      { name: "treasury", id: WALLET, status: "pending_approval", signingActivityId: "act-1" },
    ]);
    expect(renderDriftMarkdown(report)).toContain(
      "the code's strategy update is pending_approval (signing activity act-1)",
    );
  });

  test("a pending strategy update the code does not ask for is drift, with how to reject it", () => {
    const report = driftOf([
      walletRefresh(A, A, { change: { status: "pending_approval", target: C, signingActivityId: "act-2" } }),
    ]);
    expect(report.drift).toBe(true);
    expect(report.resources[0]!.findings.map((f) => f.kind)).toEqual(["pending-strategy-update"]);
    expect(report.resources[0]!.findings[0]!.message).toContain(
      "resolvRlp 8000, tbills 2000 is pending_approval",
    );
    expect(report.resources[0]!.findings[0]!.message).toContain("portfolio-wallet reject act-2");
    // A change that completed or failed is history, not drift.
    expect(driftOf([walletRefresh(A, A, { change: { status: "failed", target: C } })]).drift).toBe(false);
  });

  test("a webhook disabled or changed at the service is drift; its url never reaches the report", () => {
    const disabled = driftOf([webhookRefresh({ enabled: false, disabledReason: "portal" })]);
    expect(disabled.resources[0]!.findings.map((f) => f.kind)).toEqual(["webhook-disabled"]);
    expect(disabled.resources[0]!.findings[0]!.message).toContain('("portal")');
    const changed = driftOf([webhookRefresh({ url: "https://user:hunter2@hooks.example.com/b" })]);
    expect(changed.resources[0]!.findings.map((f) => f.kind)).toEqual(["webhook-changed"]);
    expect(changed.resources[0]!.findings[0]!.message).toContain("(url)");
    expect(JSON.stringify(changed) + renderDriftMarkdown(changed)).not.toContain("hunter2");
  });

  test("a resource the service no longer has is drift", () => {
    const report = driftOf([
      { op: "delete", urn: urnOf("wallet", "treasury"), oldState: refreshedWalletState(A, null) },
      { op: "delete", urn: urnOf("webhook", "events"), oldState: webhookState({}) },
    ]);
    expect(report.resources.map((r) => [r.kind, r.findings[0]!.kind])).toEqual([
      ["PortfolioWallet", "missing"],
      ["WebhookRegistration", "missing"],
    ]);
    expect(report.headline).toBe("treasury/prod: drift, 2 resources missing at the service");
  });

  /** The drift report of `facts`, priced with the service's answer for WALLET read at `readAt`. */
  const driftInDollars = (
    facts: ReturnType<typeof readRefreshPreview>,
    wallet: { positions: { positionKey: string; valueUsd: number }[] },
    readAt: string,
  ) =>
    withDriftDollars(
      buildDriftReport(facts, CHECKED_AT),
      facts,
      { available: true, byId: new Map([[WALLET, wallet]]), readAt },
      CATALOG,
    );

  test("each printed column of dollars adds up to the printed balance (cents by largest remainder)", () => {
    const facts = readRefreshPreview(refreshEventLogOf([walletRefresh(A, C)]));
    // $1,000,000.01 at the service as $200,000.005 and $800,000.005: each to the cent alone,
    // $200,000.01 and $800,000.01, a cent more than the balance under them.
    const wallet = {
      positions: [
        { positionKey: "tbills", valueUsd: 200_000.005 },
        { positionKey: "resolvRlp", valueUsd: 800_000.005 },
      ],
    };
    const report = driftInDollars(facts, wallet, CHECKED_AT);
    const markdown = renderDriftMarkdown(report);
    const cents = (text: string) => BigInt(text.replace(/[$,.*+]/g, "").replace("−", "-"));
    const rows = markdown
      .split("\n")
      .filter((line) => /^\| (tbills|resolvRlp|syrupUsdc|\*\*sum\*\*) \|/.test(line))
      .map((line) =>
        line
          .split("|")
          .map((c) => c.trim())
          .slice(5, 8),
      );
    const sum = rows.at(-1)!;
    const sources = rows.slice(0, -1);
    expect(sum.slice(0, 2)).toEqual(["**$1,000,000.01**", "**$1,000,000.01**"]);
    for (const column of [0, 1])
      expect(
        sources.reduce((total, row) => total + cents(row[column]!), 0n),
        markdown,
      ).toBe(cents(sum[column]!));
    // Δ is service − code as printed.
    for (const row of sources) expect(cents(row[1]!) - cents(row[0]!)).toBe(cents(row[2]!));
    // The code's 6000 / 4000 of it: $600,000.006 and $400,000.004 exact.
    expect(markdown).toContain("| tbills | 6000 | 2000 | −4000 | $600,000.01 | $200,000.00 | −$400,000.01 |");
  });

  test("an allocation drift in dollars: per source, the service's valueUsd against the balance at the code's weights", async () => {
    const steps = [step.sameStack(), walletRefresh(A, C), webhookRefresh({ enabled: false })];
    const facts = readRefreshPreview(refreshEventLogOf(steps));
    const wallet = {
      positions: [
        { positionKey: "tbills", valueUsd: 2_000_000.01 },
        { positionKey: "resolvRlp", valueUsd: 8_000_000.02 },
      ],
    };
    const report = driftInDollars(facts, wallet, "2026-11-23T10:00:05.000Z");
    const drifted = report.resources.find((r) => r.kind === "PortfolioWallet")!;
    // The code puts 6000 / 4000 bps of $10,000,000.03: $6,000,000.018 and $4,000,000.012, exact to the micro.
    expect(drifted.dollars).toEqual({
      available: true,
      misplacedMicros: "8000000020000",
      balanceMicros: "10000000030000",
      sources: [
        {
          positionKey: "resolvRlp",
          serviceMicros: "8000000020000",
          codeMicros: "0",
          deltaMicros: "8000000020000",
        },
        {
          positionKey: "syrupUsdc",
          serviceMicros: "0",
          codeMicros: "4000000012000",
          deltaMicros: "-4000000012000",
        },
        {
          positionKey: "tbills",
          serviceMicros: "2000000010000",
          codeMicros: "6000000018000",
          deltaMicros: "-4000000008000",
        },
      ],
    });
    // Only an allocation finding has dollars.
    expect(report.resources.find((r) => r.kind === "WebhookRegistration")!.dollars).toBeNull();
    expect(report.misplacedMicros).toBe("8000000020000");
    const markdown = renderDriftMarkdown(report);
    expect(markdown).toContain("**Dollars:** $8,000,000.02 sits where the code does not put it");
    expect(markdown).toContain(
      "| tbills | 6000 | 2000 | −4000 | $6,000,000.02 | $2,000,000.01 | −$4,000,000.01 |",
    );
    expect(markdown).toContain(
      "| **sum** | **10000** | **10000** | | **$10,000,000.03** | **$10,000,000.03** | |",
    );
    expect(renderDriftText(report)).toMatch(
      /tbills\s+6000\s+2000\s+−4000\s+\$6,000,000\.02\s+\$2,000,000\.01\s+−\$4,000,000\.01/,
    );
    // The issue body docs/cli.md and examples/github-actions/README.md show (test/docs/renderedReports.test.ts).
    await expect(markdown).toMatchFileSnapshot("__snapshots__/drift-allocation-and-webhook.md");

    // An unfunded wallet: nothing sits anywhere. A service that cannot be asked: the finding says why.
    const empty = withDriftDollars(
      buildDriftReport(facts, CHECKED_AT),
      facts,
      {
        available: true,
        byId: new Map([[WALLET, { positions: [] }]]),
        readAt: CHECKED_AT,
      },
      CATALOG,
    );
    expect(empty.misplacedMicros).toBe("0");
    const offline = withDriftDollars(
      buildDriftReport(facts, CHECKED_AT),
      facts,
      { available: false, reason: "no API token" },
      [],
    );
    expect(offline.misplacedMicros).toBeNull();
    expect(renderDriftMarkdown(offline)).toContain("- 💵 Dollars not shown: no API token.");
    expect(renderDriftMarkdown(offline)).toContain("| tbills | 6000 | 2000 | −4000 |\n");
    // A saved report from before dollars (drift-issue reads old JSON) still renders.
    const { misplacedMicros: _dropped, ...old } = buildDriftReport(facts, CHECKED_AT);
    expect(
      renderDriftMarkdown({ ...old, resources: old.resources.map(({ dollars: _d, ...r }) => r) } as never),
    ).toContain("| tbills | 6000 | 2000 | −4000 |");
  });

  test("what is not a refresh preview is refused with what to pass", () => {
    expect(() => readRefreshPreview("{")).toThrow(/--event-log FILE.*pulumi refresh --preview-only --json/);
    expect(() => readRefreshPreview('{"steps": 3}')).toThrow(/expected an object with a `steps` array/);
    expect(() => readRefreshPreview("{}\nnot json\n")).toThrow(/not JSON at line 2/);
  });

  test("an event log of a refresh that did not finish, or that misses a resource's read, is refused, never 'no drift'", () => {
    // Every log ends with a cancel event (it closes the engine's stream): a finished refresh is read.
    expect(driftOf([walletRefresh(A, C)]).drift).toBe(true);
    const steps = [step.sameStack(), walletRefresh(A, C)];
    expect(() => readRefreshPreview(refreshEventLogOf(steps, { finished: false }))).toThrow(
      /has no summary: the refresh did not finish/,
    );
    const withoutRead = refreshEventLogOf(steps)
      .split("\n")
      .filter((line) => !(line.includes("resOutputsEvent") && line.includes("PortfolioWallet")))
      .join("\n");
    expect(() => readRefreshPreview(withoutRead)).toThrow(/no read result for urn:pulumi:prod::treasury::/);
  });

  test("the --json digest: read for the native plugin's resources, refused for the dynamic resources it cannot show", () => {
    const steps = [step.sameStack(), walletRefresh(B, C), webhookRefresh({ enabled: false })];
    const native = buildDriftReport(readRefreshPreview(previewOf(steps.map(asNativeStep))), CHECKED_AT);
    expect(native.headline).toBe(
      "treasury/prod: drift, 1 allocation changed at the service, 1 webhook disabled",
    );
    expect(native).toEqual({ ...driftOf(steps.slice(1)), resources: native.resources });
    expect(native.resources).toEqual(driftOf(steps.slice(1)).resources);
    // The digest of a TypeScript program keeps the state from before the read: it is refused, naming the way that works.
    expect(() => readRefreshPreview(previewOf(steps))).toThrow(
      /PortfolioWallet::treasury, a resource of a TypeScript program.*--event-log/,
    );
  });
});

describe("the drift issue of a stack", () => {
  const stack = "treasury/prod";
  const report = `${driftMarker("prod")}\n### treasury/prod: drift, 1 webhook disabled\n`;
  const issue = (number: number, state: "open" | "closed", forStack = stack): ExistingIssue => ({
    number,
    state,
    body: `${driftMarker(forStack)}\n### old report\n`,
  });
  const decide = (drift: boolean, issues: ExistingIssue[]) =>
    driftIssueAction({ stack, drift, report, checkedAt: "2026-11-25T06:17:00.000Z", issues });

  test("drift and no issue of the stack: one is opened, marked with the stack", () => {
    const action = decide(true, [
      issue(3, "open", "treasury/staging"),
      { number: 4, state: "open", body: "unrelated" },
    ]);
    expect(action).toEqual({
      action: "open",
      title: issueTitle(stack),
      body: `${driftMarker(stack)}\n### treasury/prod: drift, 1 webhook disabled\n`,
    });
  });

  test("drift and an open issue: it is updated, whatever its title became", () => {
    expect(decide(true, [issue(7, "open")])).toMatchObject({ action: "update", number: 7 });
  });

  test("drift back after a closed issue: the newest closed one is reopened, never a second opened", () => {
    expect(decide(true, [issue(7, "closed"), issue(12, "closed")])).toMatchObject({
      action: "reopen",
      number: 12,
    });
  });

  test("no drift: open issues of the stack are closed; with none, nothing happens", () => {
    expect(decide(false, [issue(7, "open"), issue(9, "open"), issue(3, "closed")])).toMatchObject({
      action: "close",
      numbers: [7, 9],
    });
    expect(decide(false, [issue(7, "closed")])).toEqual({ action: "none" });
    expect(decide(false, [])).toEqual({ action: "none" });
  });

  test("several open issues of one stack (made by hand): the oldest is updated, none added", () => {
    expect(decide(true, [issue(9, "open"), issue(7, "open")])).toMatchObject({ action: "update", number: 7 });
  });
});

describe("a saved plan", () => {
  const plan = {
    manifest: { version: "v3.259.0" },
    config: { "portfolio-wallet:apiToken": { secure: "v1:cipher" } },
    resourcePlans: {
      [urnOf("wallet", "treasury")]: {
        goal: { type: "x" },
        steps: ["update"],
        state: { targetWeightsBps: B, walletId: WALLET },
      },
      [urnOf("webhook", "events")]: {
        goal: { type: "y" },
        steps: ["create-replacement", "replace", "delete-replaced"],
        state: {},
      },
    },
  };
  const preview = readPreview(
    previewOf([
      step.sameStack(),
      step.walletUpdate("treasury", A, B, WALLET),
      step.webhookCreateReplacement("events"),
      step.webhookReplace("events"),
      step.webhookDeleteReplaced("events"),
    ]),
  );

  test("is read by allowlist with its digest, and agrees with the preview of the same run", () => {
    const bytes = Buffer.from(JSON.stringify(plan));
    const saved = readPlan(bytes);
    expect(saved.sha256).toBe(createHash("sha256").update(bytes).digest("hex"));
    expect(saved.facts.steps.map((s) => [s.name, s.op])).toEqual([
      ["treasury", "update"],
      ["events", "replace"],
    ]);
    expect(planPreviewMismatches(saved, preview)).toEqual([]);
  });

  test("a plan of another preview is named with each difference", () => {
    const other: { resourcePlans: Record<string, { state: unknown }> } = structuredClone(plan);
    other.resourcePlans[urnOf("wallet", "treasury")]!.state = { targetWeightsBps: C };
    expect(planPreviewMismatches(readPlan(Buffer.from(JSON.stringify(other))), preview)).toEqual([
      "treasury: other target weights in the plan than in the preview",
    ]);
  });
});

describe("portfolio-wallet drift and drift-issue", () => {
  const cwd = useCliDirectory();
  const write = (name: string, text: string) => {
    const file = path.join(cwd(), name);
    writeFileSync(file, text);
    return file;
  };

  test("exit 0 without drift, 2 with drift, 1 on an error or a bad flag", async () => {
    const clean = write(
      "clean.jsonl",
      refreshEventLogOf([step.sameStack(), walletRefresh(A, A, { rates: [518, 600] })]),
    );
    const drifted = write("drifted.jsonl", refreshEventLogOf([step.sameStack(), walletRefresh(A, C)]));
    const none = await portfolioWallet(["drift", "--refresh-preview", clean], { cwd: cwd() });
    expect(none.code, none.stderr).toBe(0);
    expect(none.stdout).toContain("treasury/prod: no drift");
    const drift = await portfolioWallet(["drift", "--refresh-preview", drifted], { cwd: cwd() });
    expect(drift.code, drift.stderr).toBe(2);
    expect(drift.stdout).toMatch(/tbills\s+6000\s+2000\s+−4000/);
    const markdown = await portfolioWallet(["drift", "--refresh-preview", drifted, "--markdown"], {
      cwd: cwd(),
    });
    expect(markdown.stdout).toContain("| tbills | 6000 | 2000 | −4000 |");
    const json = await portfolioWallet(["--json", "drift", "--refresh-preview", drifted], { cwd: cwd() });
    expect(JSON.parse(json.stdout).drift).toBe(true);
    const broken = await portfolioWallet(["drift", "--refresh-preview", write("broken.json", "{")], {
      cwd: cwd(),
    });
    expect(broken.code).toBe(1);
    expect(broken.stderr).toContain("pulumi refresh --preview-only --event-log FILE");
    expect((await portfolioWallet(["drift", "--no-such-flag"], { cwd: cwd() })).code).toBe(1);
    // Without a Pulumi project, running the refresh itself is an error too.
    expect((await portfolioWallet(["drift"], { cwd: cwd() })).code).toBe(1);
  });

  test("drift-issue prints the action for $GITHUB_OUTPUT and writes the body", async () => {
    const drifted = write("drifted.jsonl", refreshEventLogOf([step.sameStack(), walletRefresh(A, C)]));
    await portfolioWallet(
      ["--json", "drift", "--refresh-preview", drifted, "--output", path.join(cwd(), "drift.json")],
      {
        cwd: cwd(),
      },
    );
    const issues = write(
      "issues.json",
      JSON.stringify([{ number: 5, state: "CLOSED", body: `${driftMarker("treasury/prod")}\nold` }]),
    );
    const body = path.join(cwd(), "issue.md");
    const result = await portfolioWallet(
      [
        "drift-issue",
        "--stack",
        "treasury/prod",
        "--drift",
        path.join(cwd(), "drift.json"),
        "--issues",
        issues,
        "--body-file",
        body,
      ],
      { cwd: cwd() },
    );
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toBe("action=reopen\nnumber=5\n");
    const written = readFileSync(body, "utf8");
    expect(written.split("\n")[0]).toBe(driftMarker("treasury/prod"));
    expect(written).toContain("| tbills | 6000 | 2000 | −4000 |");
  });

  test("report --plan with a preview of another run is refused, and shows the digest when they agree", async () => {
    const catalog = write("catalog.json", JSON.stringify({ strategies: CATALOG }));
    const previewFile = write(
      "preview.json",
      previewOf([step.sameStack(), step.walletUpdate("treasury", A, B, WALLET)]),
    );
    const planText = JSON.stringify({
      resourcePlans: { [urnOf("wallet", "treasury")]: { steps: ["update"], state: { targetWeightsBps: B } } },
    });
    const planFile = write("plan.json", planText);
    const agreed = await portfolioWallet(
      ["report", "--preview", previewFile, "--plan", planFile, "--catalog", catalog],
      {
        cwd: cwd(),
      },
    );
    expect(agreed.code, agreed.stderr).toBe(0);
    expect(agreed.stdout).toContain(
      `**Plan:** \`sha256:${createHash("sha256").update(planText).digest("hex")}\``,
    );
    const stale = write(
      "stale.json",
      JSON.stringify({
        resourcePlans: {
          [urnOf("wallet", "treasury")]: { steps: ["update"], state: { targetWeightsBps: C } },
        },
      }),
    );
    const refused = await portfolioWallet(
      ["report", "--preview", previewFile, "--plan", stale, "--catalog", catalog],
      {
        cwd: cwd(),
      },
    );
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain("are not of the same preview (treasury: other target weights");
    expect(refused.stdout).toBe("");
  });
});
