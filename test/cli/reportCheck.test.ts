import { writeFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, test } from "vitest";
import {
  buildAllocationReport,
  type AllocationReport,
  type ReportContext,
  type WalletAtService,
} from "../../cli/report/allocationReport.ts";
import { readPlan } from "../../cli/report/planFile.ts";
import { readPreview } from "../../cli/report/previewSteps.ts";
import { checkAgainstReview, elapsedText } from "../../cli/report/reviewCheck.ts";
import { readReviewedReport, withReviewedState } from "../../cli/report/reviewedReport.ts";
import {
  allowedDifferenceMicros,
  DEFAULT_REVIEW_TOLERANCE,
  resolveReviewTolerance,
} from "../../cli/report/reviewTolerance.ts";
import { usdToMicros } from "../../sdk/nodejs/contract/money.ts";
import { portfolioWallet, useCliDirectory } from "./harness.ts";
import { CATALOG, holdings, previewOf, step, urnOf } from "./previewFixtures.ts";

/**
 * The merge check (issue 53): its tolerances and their defaults, the reviewed report as the merge
 * job reads it, the comparison of the dollars reviewed with the dollars now and why they differ,
 * and the command's answers to bad input. Through the engine and the example workflow's own
 * commands: test/examples/upPlanSteps.engine.test.ts.
 */

const WALLET = "0b3f5c1e-1d2a-4c7e-9f10-5a6b7c8d9e01";
const A = { tbills: 6000, syrupUsdc: 4000 };
const B = { tbills: 5000, syrupUsdc: 5000 };
const REVIEWED_AT = "2026-11-23T10:00:00.000Z";
const M = (usd: number) => usdToMicros(usd);

const planText = JSON.stringify({
  manifest: { version: "v3.259.0" },
  resourcePlans: {
    [urnOf("wallet", "treasury")]: {
      goal: { type: "x" },
      steps: ["update"],
      // As the engine writes it: the planned inputs, without the wallet id (an output of the state).
      state: { targetWeightsBps: B },
    },
  },
});
const plan = readPlan(Buffer.from(planText));

const wallet = holdings;

function contextOf(atService: WalletAtService, readAt = REVIEWED_AT): ReportContext {
  return {
    catalog: CATALOG,
    catalogSource: "the service at https://api.example.com",
    catalogReadAt: readAt,
    commit: null,
    balances: new Map(),
    approverConfigured: false,
    wallets: { available: true, byId: new Map([[WALLET, atService]]), readAt: "2026-11-23T10:00:05.000Z" },
    planSha256: plan.sha256,
  };
}

const asJson = (report: AllocationReport) =>
  JSON.stringify(report, (_key, value: unknown) => (typeof value === "bigint" ? value.toString() : value));

/** The review: the treasury reweighted A → B, $6M / $4M at the service, as its JSON report says it. */
const reviewedJson = asJson(
  buildAllocationReport(
    readPreview(previewOf([step.sameStack(), step.walletUpdate("treasury", A, B, WALLET)])),
    contextOf(wallet(A, { tbills: 6_000_000, syrupUsdc: 4_000_000 })),
  ),
);
const reviewed = readReviewedReport(reviewedJson, "--reviewed report.json");

/** The merge: the plan's report against the wallet as the service answers now. */
function checkNow(atService: WalletAtService, minutesLater = 60, tolerance = DEFAULT_REVIEW_TOLERANCE) {
  const current = buildAllocationReport(withReviewedState(plan.facts, reviewed), contextOf(atService));
  return checkAgainstReview({
    reviewed,
    current,
    tolerance,
    catalog: CATALOG,
    now: new Date(Date.parse(REVIEWED_AT) + minutesLater * 60_000),
  });
}

describe("the merge check's tolerance", () => {
  test("defaults to the larger of $100 and 1% of the reviewed figure, exact in micros", () => {
    expect(DEFAULT_REVIEW_TOLERANCE).toEqual({ percent: 1, usdMicros: M(100) });
    expect(resolveReviewTolerance({}, () => undefined)).toEqual(DEFAULT_REVIEW_TOLERANCE);
    expect(allowedDifferenceMicros(M(1_000_000), DEFAULT_REVIEW_TOLERANCE)).toBe(M(10_000));
    expect(allowedDifferenceMicros(M(5_000), DEFAULT_REVIEW_TOLERANCE)).toBe(M(100));
    expect(allowedDifferenceMicros(0n, DEFAULT_REVIEW_TOLERANCE)).toBe(M(100));
    expect(allowedDifferenceMicros(M(333.33), { percent: 0.5, usdMicros: 0n })).toBe(1_666_650n);
  });

  test("flags first, then the stack config's keys; each bad value is named with where it was set", () => {
    const config: Record<string, string> = {
      "portfolio-wallet:reviewTolerancePercent": "2.5",
      "portfolio-wallet:reviewToleranceUsd": "250",
    };
    expect(resolveReviewTolerance({}, (key) => config[key])).toEqual({ percent: 2.5, usdMicros: M(250) });
    expect(resolveReviewTolerance({ usd: "0" }, (key) => config[key])).toEqual({
      percent: 2.5,
      usdMicros: 0n,
    });
    expect(() => resolveReviewTolerance({ percent: "abc", usd: "-1" }, () => undefined)).toThrow(
      '--tolerance-percent is "abc": it must be a percentage from 0 to 100, such as 1 or 0.5; ' +
        '--tolerance-usd is "-1": it must be a USD amount of 0 or more, such as 100 or 2500.50.',
    );
    expect(() =>
      resolveReviewTolerance({}, (key) => ({ "portfolio-wallet:reviewTolerancePercent": "150" })[key]),
    ).toThrow(
      'stack config portfolio-wallet:reviewTolerancePercent is "150": it must be a percentage from 0 to 100',
    );
  });
});

describe("the reviewed report", () => {
  test("is read with its plan's digest and each wallet's figures", () => {
    expect(reviewed.planSha256).toBe(plan.sha256);
    expect(reviewed.readAt).toBe(REVIEWED_AT);
    expect(reviewed.wallets[0]).toMatchObject({
      urn: urnOf("wallet", "treasury"),
      walletId: WALLET,
      money: { impact: { movedMicros: M(1_000_000), balanceMicros: M(10_000_000) } },
      atService: { verdict: "as recorded", recordedBps: A },
    });
  });

  test("what is not one says which flag, which field, and what to pass", () => {
    expect(() => readReviewedReport("# markdown", "--reviewed report.md")).toThrow(
      /^--reviewed report\.md is not JSON: pass the JSON the pull request's preview job kept with its plan: `portfolio-wallet report --preview preview\.json --plan plan\.json --format json --output report\.json`$/,
    );
    const old = JSON.parse(reviewedJson) as { wallets: Record<string, unknown>[] };
    delete old.wallets[0]!["urn"];
    (old.wallets[0]!["money"] as { impact: Record<string, unknown> }).impact["movedMicros"] = 1000000;
    expect(() => readReviewedReport(JSON.stringify(old), "--reviewed report.json")).toThrow(
      /is not a report of `portfolio-wallet report --format json` of this version \(wallets\[0\]\.urn: .*; wallets\[0\]\.money\.impact\.movedMicros: .*\)/,
    );
    expect(() =>
      readReviewedReport(
        JSON.stringify({ ...JSON.parse(reviewedJson), plan: null }),
        "--reviewed report.json",
      ),
    ).toThrow(/--reviewed report\.json names no plan \(it was made without --plan\)/);
  });
});

describe("the dollars at the merge against the review", () => {
  const named = `PortfolioWallet "treasury" (wallet ${WALLET})`;

  test("unchanged: it holds, and says the plan may be applied", () => {
    const check = checkNow(wallet(A, { tbills: 6_000_000, syrupUsdc: 4_000_000 }));
    expect(check.holds).toBe(true);
    expect(check.wallets).toEqual([
      expect.objectContaining({
        holds: true,
        reviewedMovedMicros: M(1_000_000),
        currentMovedMicros: M(1_000_000),
        reasons: [],
        message: `${named}: moves $1,000,000.00, as reviewed.`,
      }),
    ]);
    expect(check.summary).toBe(
      `The reviewed dollars hold for 1 wallet (reviewed 60 min ago): plan sha256:${plan.sha256} may be applied.`,
    );
  });

  test("a deposit beyond the tolerance: refused, naming the figures and the deposit", () => {
    // $200,000 more, allocated 6000 / 4000: $1,020,000 moves, $20,000 more than reviewed; $10,000 is allowed.
    const check = checkNow(wallet(A, { tbills: 6_120_000, syrupUsdc: 4_080_000 }));
    expect(check.holds).toBe(false);
    expect(check.wallets[0]!.message).toBe(
      `${named}: the review saw $1,000,000.00 move, the service now makes it $1,020,000.00 (+$20,000.00), ` +
        "beyond the tolerance of $10,000.00 (the larger of $100.00 and 1% of the reviewed $1,000,000.00). " +
        "Why: deposits since the review: the invested balance went from $10,000,000.00 to $10,200,000.00 " +
        "(+$200,000.00), more than the catalog's rates earn in 60 min.",
    );
    expect(check.summary).toBe(
      `The reviewed dollars do not hold for 1 wallet of 1: do not apply plan sha256:${plan.sha256}. Re-run the preview ` +
        "(open a pull request from the current main; an empty commit will do), review its report, and merge it.",
    );
  });

  test("within the tolerance it holds and says why the figure moved: yield, or a small deposit", () => {
    // A day of yield at ≤ 6.5%: $10M earns at most about $1,781; this is $1,000.
    const yielded = checkNow(wallet(A, { tbills: 6_000_600, syrupUsdc: 4_000_400 }), 24 * 60);
    expect(yielded.holds).toBe(true);
    expect(yielded.wallets[0]!.reasons).toEqual([
      "yield since the review: the invested balance went from $10,000,000.00 to $10,001,000.00 (+$1,000.00), " +
        "within what the catalog's rates earn in 24 h",
    ]);
    expect(yielded.wallets[0]!.message).toMatch(/\(\+\$100\.00\), within the tolerance of \$10,000\.00/);
    // The same growth within a minute is money that arrived, still within the tolerance.
    const deposited = checkNow(wallet(A, { tbills: 6_000_600, syrupUsdc: 4_000_400 }), 1);
    expect(deposited.holds).toBe(true);
    expect(deposited.wallets[0]!.reasons[0]).toMatch(/^deposits since the review: .*in 60 s$/);
  });

  test("withdrawals, and money received not yet allocated, are named", () => {
    const check = checkNow(wallet(A, { tbills: 3_000_000, syrupUsdc: 2_000_000 }, 40_000));
    expect(check.holds).toBe(false);
    expect(check.wallets[0]!.reasons).toEqual([
      "withdrawals since the review: the invested balance went from $10,000,000.00 to $5,000,000.00 (−$5,000,000.00)",
      "money received and not yet allocated went from $0.00 to $40,000.00 (not moved by the change until the service allocates it)",
    ]);
  });

  test("an outside change of the allocation since the review is refused, even within the dollars, and says to refresh", () => {
    // Changed at the service to 5500 / 4500 and rebalanced: $500,000 moves, within a 60% tolerance.
    const check = checkNow(
      wallet({ tbills: 5500, syrupUsdc: 4500 }, { tbills: 5_500_000, syrupUsdc: 4_500_000 }),
      60,
      {
        percent: 60,
        usdMicros: 0n,
      },
    );
    expect(check.holds).toBe(false);
    expect(check.wallets[0]!.reasons).toEqual([
      "an outside change of the allocation: the service holds syrupUsdc 4500, tbills 5500 (at the review it held " +
        "syrupUsdc 4000, tbills 6000), the stack's state syrupUsdc 4000, tbills 6000. The merge's `pulumi up` refuses " +
        "this strategy update until the stack is refreshed (`pulumi refresh`) and the change is reviewed again (a new preview and report).",
    ]);
    expect(check.summary).toMatch(/Refresh the stack \(`pulumi refresh`\), then re-run the preview/);
  });

  test("a review without dollars has no figure to hold the merge to: refused", () => {
    const offline = asJson(
      buildAllocationReport(readPreview(previewOf([step.walletUpdate("treasury", A, B, WALLET)])), {
        ...contextOf(wallet(A, {})),
        wallets: { available: false, reason: "the report ran offline" },
      }),
    );
    const current = buildAllocationReport(
      withReviewedState(plan.facts, readReviewedReport(offline, "--reviewed r.json")),
      contextOf(wallet(A, { tbills: 6_000_000, syrupUsdc: 4_000_000 })),
    );
    const check = checkAgainstReview({
      reviewed: readReviewedReport(offline, "--reviewed r.json"),
      current,
      tolerance: DEFAULT_REVIEW_TOLERANCE,
      catalog: CATALOG,
      now: new Date(REVIEWED_AT),
    });
    expect(check.holds).toBe(false);
    expect(check.wallets[0]!.message).toBe(
      `${named}: the review showed no dollars for it (the report ran offline), so there is no reviewed figure to hold the $1,000,000.00 it moves now to.`,
    );
  });

  test("elapsed time reads in the unit that fits", () => {
    expect([45_000, 12 * 60_000, 5 * 3600_000, 3 * 86_400_000].map(elapsedText)).toEqual([
      "45 s",
      "12 min",
      "5 h",
      "3 days",
    ]);
  });
});

describe("portfolio-wallet report-check: bad input", () => {
  const cwd = useCliDirectory();
  const write = (name: string, text: string) => {
    const file = path.join(cwd(), name);
    writeFileSync(file, text);
    return file;
  };
  const run = (args: string[]) =>
    portfolioWallet(["report-check", ...args], {
      cwd: cwd(),
      env: { PORTFOLIO_WALLET_BASE_URL: "http://127.0.0.1:9", PORTFOLIO_WALLET_API_TOKEN: "t" },
    });

  test("a missing file, a report of another plan, a tolerance that is not a number: exit 1 naming what to do", async () => {
    const report = write("report.json", reviewedJson);
    const planFile = write("plan.json", planText);
    const missing = await run(["--reviewed", path.join(cwd(), "nope.json"), "--plan", planFile]);
    expect(missing.code).toBe(1);
    expect(missing.stderr).toMatch(
      /--reviewed \S+nope\.json: no such file; pass the JSON report the pull request's preview job kept with its plan/,
    );
    const other = write("other-plan.json", planText.replace("5000", "5001"));
    const mismatch = await run(["--reviewed", report, "--plan", other]);
    expect(mismatch.code).toBe(1);
    expect(mismatch.stderr).toContain(
      `is the report of plan sha256:${plan.sha256}, but --plan ${other} is sha256:`,
    );
    const tolerance = await run(["--reviewed", report, "--plan", planFile, "--tolerance-usd", "lots"]);
    expect(tolerance.code).toBe(1);
    expect(tolerance.stderr).toContain(
      '--tolerance-usd is "lots": it must be a USD amount of 0 or more, such as 100 or 2500.50.',
    );
    const usage = await run(["--plan", planFile]);
    expect(usage.code).toBe(2);
    expect(usage.stderr).toContain("required option '--reviewed <file>' not specified");
  });
});
