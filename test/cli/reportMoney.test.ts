import { randomUUID } from "node:crypto";
import { createServer, request, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { buildAllocationReport, targetKey, type WalletAtService } from "../../cli/report/allocationReport.ts";
import { readPreview } from "../../cli/report/previewSteps.ts";
import { maxUsdMovedPerStack, maxUsdMovedPerWallet } from "../../policy/rules.ts";
import { renderMarkdown } from "../../cli/report/renderMarkdown.ts";
import { dominatingAllocation, usdToMicros, type PortfolioWallet } from "../../sdk/nodejs/contract/index.ts";
import { createManualClock } from "../../sandbox/index.ts";
import { TOKEN, startTestSandbox, type TestSandbox } from "../sandbox/helpers.ts";
import { portfolioWallet, useCliDirectory } from "./harness.ts";
import { CATALOG, holdings, previewOf, serviceContext, step, type FixtureStep } from "./previewFixtures.ts";

/**
 * The report's dollars (issue 37): the markdown a reviewer reads for a funded treasury, an unfunded
 * wallet, a report that must fold, and, against the sandbox over HTTP, that the dollars are the
 * service's own to the micro and that the wallets are read a hundred a request.
 */

const TREASURY = "0b3f5c1e-1d2a-4c7e-9f10-5a6b7c8d9e01";
const PAYROLL = "1c4a6d2f-2e3b-4d8f-8a21-6b7c8d9e0f12";

const context = serviceContext;

describe("the report in dollars", () => {
  test("a funded treasury reweighted: the headline and each wallet in dollars beside the bps", async () => {
    const report = buildAllocationReport(
      readPreview(
        previewOf([
          step.sameStack(),
          step.walletUpdate(
            "treasury",
            { tbills: 6000, syrupUsdc: 4000 },
            { tbills: 5000, syrupUsdc: 5000 },
            TREASURY,
          ),
          step.walletUpdate("payroll", { tbills: 10_000 }, { tbills: 7000, resolvRlp: 3000 }, PAYROLL),
        ]),
      ),
      context(
        new Map([
          [
            TREASURY,
            holdings({ tbills: 6000, syrupUsdc: 4000 }, { tbills: 6_000_000, syrupUsdc: 4_000_000 }, 2_500),
          ],
          [PAYROLL, holdings({ tbills: 10_000 }, { tbills: 1_250_000.5 })],
        ]),
      ),
    );
    const markdown = renderMarkdown(report);
    // treasury: $1M tbills → syrupUsdc. payroll: 30% of $1,250,000.50 = $375,000.15 tbills → resolvRlp.
    // Yield: treasury 6M×4.3% + 4M×6.5% = 518,000 → 5M×4.3% + 5M×6.5% = 540,000 (+22,000);
    // payroll 1,250,000.50×4.3% = 53,750.0215 → 875,000.35×4.3% + 375,000.15×10.5% = 77,000.0308 (+23,250.0093).
    expect(report.money.headline).toBe(
      "Moves $1,375,000.15 across 2 wallets, net per source: resolvRlp +$375,000.15, syrupUsdc +$1,000,000.00, " +
        "tbills −$1,375,000.15; yearly yield +$45,250.01; withdrawable at once +$1,000,000.00; " +
        "money leaving can take up to 24 hours.",
    );
    expect(markdown.split("\n")[3]).toBe(`**Dollars:** ${report.money.headline}`);
    expect(markdown).toContain(
      "| tbills | 6000 | 5000 | −1000 | $6,000,000.00 | $5,000,000.00 | −$1,000,000.00 |",
    );
    expect(markdown).toContain(
      "| **sum** | **10000** | **10000** | | **$10,000,000.00** | **$10,000,000.00** | |",
    );
    expect(markdown).toContain(
      "Moves $1,000,000.00 of $10,000,000.00: syrupUsdc +$1,000,000.00, tbills −$1,000,000.00 · " +
        "yearly yield $518,000.00 → $540,000.00 (+$22,000.00) · " +
        "withdrawable at once $4,000,000.00 → $5,000,000.00 (+$1,000,000.00) · within 24 hours $10,000,000.00 (unchanged)",
    );
    expect(markdown).toContain("$2,500.00 received and not yet allocated goes to the new target");
    await expect(markdown).toMatchFileSnapshot("__snapshots__/report-funded-treasury.md");
  });

  test("an unfunded wallet moves $0 and says so; a wallet the service does not list has no dollars, said why", () => {
    const report = buildAllocationReport(
      readPreview(
        previewOf([
          step.walletUpdate("empty", { tbills: 10_000 }, { syrupUsdc: 10_000 }, TREASURY),
          step.walletUpdate("elsewhere", { tbills: 10_000 }, { syrupUsdc: 10_000 }, PAYROLL),
          step.walletCreate("fresh", { tbills: 10_000 }),
        ]),
      ),
      context(new Map([[TREASURY, holdings({ tbills: 10_000 }, { tbills: 0 })]])),
    );
    const markdown = renderMarkdown(report);
    expect(markdown).toContain("The wallet holds no money: this change moves $0.00.");
    expect(markdown).toContain(`Dollars: not shown, the service lists no wallet ${PAYROLL} for this token.`);
    expect(report.money.headline).toBe(
      "Moves $0.00 across 2 wallets (none holds money yet); yearly yield $0.00; " +
        "withdrawable at once $0.00. (1 more wallet without dollars: see below)",
    );
  });

  test("when the service cannot be asked, basis points only, and the reason", () => {
    const report = buildAllocationReport(
      readPreview(
        previewOf([step.walletUpdate("treasury", { tbills: 10_000 }, { syrupUsdc: 10_000 }, TREASURY)]),
      ),
      context(new Map(), { wallets: { available: false, reason: "no token was given" } }),
    );
    const markdown = renderMarkdown(report);
    expect(markdown).toContain("**Dollars:** Dollars not shown, basis points only: no token was given.");
    expect(markdown).toContain("| source | before bps | after bps | Δ bps |\n");
    expect(markdown).not.toContain("| USD now |");
  });

  test("1,000 wallets fold to one row each within the budget; the dollar headline is never cut", () => {
    const steps = [step.sameStack()];
    const byId = new Map<string, WalletAtService>();
    for (let index = 0; index < 1000; index++) {
      const id = randomUUID();
      byId.set(
        id,
        holdings({ tbills: 6000, syrupUsdc: 4000 }, { tbills: 600_000 + index, syrupUsdc: 400_000 }),
      );
      steps.push(
        step.walletUpdate(
          `w${index}`,
          { tbills: 6000, syrupUsdc: 4000 },
          { tbills: 5000, syrupUsdc: 5000 },
          id,
        ),
      );
    }
    const report = buildAllocationReport(readPreview(previewOf(steps)), context(byId));
    const markdown = renderMarkdown(report, 20_000);
    expect(markdown.length).toBeLessThanOrEqual(20_000);
    // Each wallet moves tbills 600,000 + index → half of 1,000,000 + index: 100,000 + index / 2.
    const moved = 1000n * 100_000_000_000n + (BigInt((999 * 1000) / 2) * 1_000_000n) / 2n;
    expect(report.money.totals?.movedMicros).toBe(moved);
    expect(markdown).toContain(`**Dollars:** ${report.money.headline}`);
    expect(markdown).toContain("Moves $100,249,750.00 across 1000 wallets");
    expect(markdown).toMatch(
      /\| w0 \| reweighted \| syrupUsdc 4000→5000, tbills 6000→5000 \| \$100,000\.00 \|/,
    );
    expect(markdown).toMatch(/… and \d+ more wallets, left out to fit the comment/);
  });
});

describe("the comment a reviewer trusts at a glance (issue 57)", () => {
  const RESERVE = "2d5b7e3a-3f4c-4e9a-9b32-7c8d9e0f1a23";
  /** Any ISO 8601 duration a person might be shown: PT0H, PT24H, P7D, P1W, ... */
  const ISO_DURATION = /\bP(?:T\d+[HMS]|\d+[YMWD])/;

  /**
   * Three wallets reweighted: treasury ($1,000,000.12, odd micros) and payroll ($250,000) move money
   * into and out of the same sources, reserve is unfunded.
   */
  const reweight = () =>
    buildAllocationReport(
      readPreview(
        previewOf([
          step.walletUpdate(
            "treasury",
            { tbills: 7000, resolvRlp: 3000 },
            { tbills: 4000, syrupUsdc: 3000, resolvRlp: 3000 },
            TREASURY,
          ),
          step.walletUpdate(
            "payroll",
            { resolvRlp: 10_000 },
            { resolvRlp: 6000, syrupUsdc: 3000, tbills: 1000 },
            PAYROLL,
          ),
          step.walletUpdate("reserve", { tbills: 10_000 }, { syrupUsdc: 10_000 }, RESERVE),
        ]),
      ),
      context(
        new Map([
          [
            TREASURY,
            holdings({ tbills: 7000, resolvRlp: 3000 }, { tbills: 700_000.119519, resolvRlp: 300_000 }),
          ],
          [PAYROLL, holdings({ resolvRlp: 10_000 }, { resolvRlp: 250_000 })],
          [RESERVE, holdings({ tbills: 10_000 }, { tbills: 0 })],
        ]),
      ),
    );

  test("the headline gives each source once, netted over the wallets, beside the gross moved", () => {
    const report = reweight();
    // treasury: tbills 700,000.119519 → 400,000.047807 (−300,000.071712); syrupUsdc and resolvRlp each
    // get 300,000.035856 (the split's two spare micros go to them). payroll: resolvRlp −100,000,
    // syrupUsdc +75,000, tbills +25,000. Netted: resolvRlp −99,999.964144, syrupUsdc +375,000.035856,
    // tbills −275,000.071712, which cancel out. Each rounded on its own they would print −$99,999.96,
    // +$375,000.04 and −$275,000.07, a cent off zero; by largest remainder, +$375,000.03.
    expect(report.money.totals?.flows.map((flow) => [flow.positionKey, flow.netMicros])).toEqual([
      ["resolvRlp", -99_999_964_144n],
      ["syrupUsdc", 375_000_035_856n],
      ["tbills", -275_000_071_712n],
    ]);
    expect(report.money.headline).toBe(
      "Moves $400,000.07 across 3 wallets, net per source: resolvRlp −$99,999.96, syrupUsdc +$375,000.03, " +
        "tbills −$275,000.07; yearly yield +$2,050.00; withdrawable at once +$375,000.04; " +
        "money leaving can take up to 7 days.",
    );
    for (const key of ["resolvRlp", "syrupUsdc", "tbills"])
      expect(report.money.headline.split(key).length - 1, key).toBe(1);
    const markdown = renderMarkdown(report);
    // The wallet's line gives the deltas of its table, whose columns are rounded by largest remainder.
    expect(markdown).toContain(
      "Moves $300,000.07 of $1,000,000.12: resolvRlp +$0.04, syrupUsdc +$300,000.03, tbills −$300,000.07 · ",
    );
    expect(markdown).toContain(
      "Moves $100,000.00 of $250,000.00: resolvRlp −$100,000.00, syrupUsdc +$75,000.00, tbills +$25,000.00 · ",
    );
  });

  test("no ISO duration in the text a reviewer reads; the JSON keeps them", () => {
    const report = reweight();
    const markdown = renderMarkdown(report);
    expect(markdown).not.toMatch(ISO_DURATION);
    expect(markdown).toContain("within 24 hours");
    expect(markdown).toContain("money leaving can take up to 7 days");
    // The compact form too: the one-row-per-wallet table's header.
    expect(renderMarkdown(report, 2_500)).not.toMatch(ISO_DURATION);
    expect(report.money.totals?.longestExit).toBe("PT168H");
    expect(report.wallets[0]?.money.impact?.withdrawable.map((row) => row.within)).toEqual([
      "PT0H",
      "PT24H",
      "PT168H",
    ]);
  });

  test("the policy pack's message and the report write the same amount the same way", () => {
    const report = reweight();
    const treasury = report.wallets.find((wallet) => wallet.name === "treasury")!;
    const [message] = maxUsdMovedPerWallet(
      { resource: "treasury", impact: treasury.money.impact! },
      100_000,
      "max-usd-moved.maxUsdPerWallet",
    );
    expect(message).toBe(
      "treasury: the change moves $300,000.07, above the maximum $100,000.00 per wallet (max-usd-moved.maxUsdPerWallet)",
    );
    const moved = /moves (\$[\d,]+\.\d{2})/.exec(message!)?.[1];
    expect(renderMarkdown(report)).toContain(`Moves ${moved} of $1,000,000.12`);
    const [stackMessage] = maxUsdMovedPerStack(report.money.totals!, 100_000, "k");
    expect(stackMessage).toContain("move $400,000.07 across 3 wallets");
    expect(report.money.headline).toContain("Moves $400,000.07 across 3 wallets");
  });

  test("every printed column of dollars adds up to its printed total", () => {
    // $1,000,000.01 at 4000 / 6000: $400,000.004 and $600,000.006 exact, each to the cent alone
    // $400,000.00 and $600,000.01; held now as $400,000.005 and $600,000.005, alone $400,000.01 and
    // $600,000.01, a cent over the total.
    const report = buildAllocationReport(
      readPreview(
        previewOf([
          step.walletUpdate(
            "odd",
            { tbills: 5000, syrupUsdc: 5000 },
            { tbills: 4000, syrupUsdc: 6000 },
            TREASURY,
          ),
        ]),
      ),
      context(
        new Map([
          [
            TREASURY,
            holdings({ tbills: 5000, syrupUsdc: 5000 }, { tbills: 400_000.005, syrupUsdc: 600_000.005 }),
          ],
        ]),
      ),
    );
    const markdown = renderMarkdown(report);
    const rows = markdown.split("\n").filter((line) => /^\| (syrupUsdc|tbills|\*\*sum\*\*) \|/.test(line));
    const cents = (text: string) => BigInt(text.replace(/[$,.*+]/g, "").replace("−", "-"));
    const columns = rows.map((row) =>
      row
        .split("|")
        .map((c) => c.trim())
        .slice(5, 8),
    );
    const [sum, ...sources] = [columns.at(-1)!, ...columns.slice(0, -1)];
    for (const column of [0, 1]) {
      const total = sources.reduce((acc, row) => acc + cents(row[column]!), 0n);
      expect(total, `column ${column}: ${rows.join("\n")}`).toBe(cents(sum[column]!));
    }
    // And each row: now + Δ = after, as printed.
    for (const row of sources) expect(cents(row[0]!) + cents(row[2]!)).toBe(cents(row[1]!));
    expect(sum.slice(0, 2)).toEqual(["**$1,000,000.01**", "**$1,000,000.01**"]);
  });

  test("the coverage line counts a wallet with a position the catalog does not rate as unpriced, and names it", () => {
    const report = buildAllocationReport(
      readPreview(
        previewOf([
          step.walletUpdate("treasury", { tbills: 10_000 }, { tbills: 5000, syrupUsdc: 5000 }, TREASURY),
          step.walletUpdate("legacy", { tbills: 10_000 }, { tbills: 10_000 - 1, syrupUsdc: 1 }, PAYROLL),
          step.walletUpdate("elsewhere", { tbills: 10_000 }, { syrupUsdc: 10_000 }, RESERVE),
        ]),
      ),
      context(
        new Map([
          [TREASURY, holdings({ tbills: 10_000 }, { tbills: 1_000 })],
          // Still holds a source the catalog no longer lists: no rate, so its yield leaves it out.
          [PAYROLL, holdings({ tbills: 10_000 }, { tbills: 900, ethenaUsde: 100 })],
        ]),
      ),
    );
    expect(report.coverage).toEqual({
      wallets: 3,
      pricedWallets: 1,
      positions: 5,
      pricedPositions: 4,
      unpriced: [
        {
          name: "legacy",
          walletId: PAYROLL,
          reason: "no catalog rate for ethenaUsde, so its yield leaves them out",
        },
        {
          name: "elsewhere",
          walletId: RESERVE,
          reason: `the service lists no wallet ${RESERVE} for this token`,
        },
      ],
      figuresReadAt: "2026-11-23T10:00:05.000Z",
      ratesReadAt: "2026-11-23T10:00:00.000Z",
      ratesAsOf: "2026-11-22T00:00:00.000Z",
    });
    const markdown = renderMarkdown(report);
    const lines = markdown.split("\n");
    // Right under the dollar headline.
    expect(lines[3]).toMatch(/^\*\*Dollars:\*\* /);
    expect(lines[5]).toBe(
      "**Coverage:** 1 of 3 wallets priced, 4 of 5 positions with a catalog rate; not priced: " +
        "`legacy` (no catalog rate for ethenaUsde, so its yield leaves them out); " +
        `\`elsewhere\` (the service lists no wallet ${RESERVE} for this token). ` +
        "Figures of the service's wallets read at 2026-11-23T10:00:05.000Z; rates read at 2026-11-23T10:00:00.000Z " +
        "(as of 2026-11-22T00:00:00.000Z). Yearly yield: each source's dollars at its current catalog rate for a year, " +
        "a projection at today's rates, not a forecast (rates change, and the service may rebalance).",
    );
    // The assumption is stated once, not beside each figure.
    expect(markdown.split("at today's rates").length - 1).toBe(1);
  });
});

describe("dominated allocations", () => {
  test("a quote option that earns more at the same or better liquidity is advised beside the wallet, never a failure", () => {
    const half = { tbills: 5000, syrupUsdc: 5000 };
    // Fixture catalog: syrupUsdc 650 bps at once, tbills 430 within PT24H, resolvRlp 1050 within PT168H.
    expect(dominatingAllocation(half, [{ resolvRlp: 10_000 }], CATALOG)).toBeNull(); // earns more, less liquid
    expect(dominatingAllocation(half, [{ tbills: 6000, syrupUsdc: 4000 }], CATALOG)).toBeNull(); // worse
    expect(dominatingAllocation(half, [{ ethenaUsde: 10_000 }], CATALOG)).toBeNull(); // not in the catalog
    expect(dominatingAllocation(half, [{ ...half }], CATALOG)).toBeNull(); // the same is not better
    const better = dominatingAllocation(half, [{ resolvRlp: 10_000 }, { syrupUsdc: 10_000 }], CATALOG);
    expect(better).toEqual({
      weights: { syrupUsdc: 10_000 },
      blendedRateBps: 650,
      withdrawable: [
        { within: "PT0H", optionBps: 10_000, targetBps: 5000 },
        { within: "PT24H", optionBps: 10_000, targetBps: 10_000 },
        { within: "PT168H", optionBps: 10_000, targetBps: 10_000 },
      ],
    });
    const report = buildAllocationReport(
      readPreview(previewOf([step.walletUpdate("treasury", { tbills: 10_000 }, half, TREASURY)])),
      context(new Map([[TREASURY, holdings({ tbills: 10_000 }, { tbills: 100 })]]), {
        quotes: new Map([[targetKey(half), [{ syrupUsdc: 10_000 }]]]),
      }),
    );
    expect(report.wallets[0]?.betterQuote?.weights).toEqual({ syrupUsdc: 10_000 });
    expect(report.warnings).toEqual([]);
    expect(renderMarkdown(report)).toContain(
      "💡 Advice: the quote endpoint offers **syrupUsdc 10000** at 650.0 bps, withdrawable at once 10000 bps (target 5000), " +
        "within 24 hours 10000 bps (target 10000), within 7 days 10000 bps (target 10000)",
    );
  });
});

describe("the allocation at the service beside the state's (issue 53)", () => {
  const A = { tbills: 6000, syrupUsdc: 4000 };
  const B = { tbills: 5000, syrupUsdc: 5000 };
  const OUTSIDE = { tbills: 3000, syrupUsdc: 7000 };
  /** What the wallet held before the stack asked for A. */
  const EARLIER = { tbills: 8000, syrupUsdc: 2000 };
  /** The treasury reweighted A → B in the code, its state's outputs holding A and `change`. */
  const reweight = (change: Record<string, unknown> | null = null) => {
    const update = step.walletUpdate("treasury", A, B, TREASURY) as {
      oldState: { outputs: Record<string, unknown> };
    };
    update.oldState.outputs["strategyChange"] = change;
    return update;
  };
  const reportOf = (fixture: FixtureStep, wallet: WalletAtService) =>
    buildAllocationReport(readPreview(previewOf([fixture])), context(new Map([[TREASURY, wallet]])));

  test("changed outside the stack: a warning first, the service's allocation as before, and its dollars", () => {
    // The service holds 3000 / 7000 of $10M; the state says 6000 / 4000.
    const report = reportOf(reweight(), holdings(OUTSIDE, { tbills: 3_000_000, syrupUsdc: 7_000_000 }));
    const wallet = report.wallets[0]!;
    expect(wallet.atService).toMatchObject({
      verdict: "changed outside",
      serviceBps: OUTSIDE,
      recordedBps: A,
      recordedChange: null,
    });
    const note =
      "The allocation was changed outside the stack: the service holds syrupUsdc 7000, tbills 3000, " +
      "the stack's state syrupUsdc 4000, tbills 6000. The merge's `pulumi up` refuses this strategy update " +
      "until the stack is refreshed (`pulumi refresh`) and the change is reviewed again (a new preview and report). " +
      "The dollars are from what the service holds.";
    expect(wallet.atService?.note).toBe(note);
    expect(report.warnings[0]).toEqual({
      kind: "changed-outside",
      resource: 'PortfolioWallet "treasury"',
      message: `PortfolioWallet "treasury" (wallet ${TREASURY}): ${note}`,
    });
    // From 3000 / 7000 to 5000 / 5000: $2M moves, not the $1M of the state's 6000 / 4000.
    expect(wallet.rows).toEqual([
      { positionKey: "syrupUsdc", beforeBps: 7000, afterBps: 5000, deltaBps: -2000 },
      { positionKey: "tbills", beforeBps: 3000, afterBps: 5000, deltaBps: 2000 },
    ]);
    expect(wallet.money.impact?.movedMicros).toBe(2_000_000_000_000n);
    expect(wallet.blendedRateBps.before).toBe(3000 * 0.043 + 7000 * 0.065);
    const markdown = renderMarkdown(report);
    expect(markdown).toContain(`- ⚠️ PortfolioWallet "treasury" (wallet ${TREASURY}): ${note}`);
    expect(markdown).toContain(
      `⚠️ **Changed outside the stack.** ${note} The before column is the service's.\n\n| source |`,
    );
    expect(markdown).toContain(
      "| syrupUsdc | 7000 | 5000 | −2000 | $7,000,000.00 | $5,000,000.00 | −$2,000,000.00 |",
    );
  });

  test("the stack's own change still waiting for approval is not an outside change: it says it waits", () => {
    const pending = {
      revision: 1,
      requestId: "7d1c0f3a-2b4e-4c5d-8e6f-7a8b9c0d1e2f",
      status: "pending_approval",
      targetPositions: [
        { positionKey: "syrupUsdc", targetWeightBps: 4000 },
        { positionKey: "tbills", targetWeightBps: 6000 },
      ],
      signingActivityId: "act-42",
      signingActivityStatus: "ACTIVITY_STATUS_CONSENSUS_NEEDED",
      approvalsStillNeeded: 1,
      failureReason: null,
      supersededFailure: null,
    };
    // The wallet still holds what it held when the stack asked for A.
    const report = reportOf(
      reweight(pending),
      holdings(EARLIER, { tbills: 8_000_000, syrupUsdc: 2_000_000 }),
    );
    const wallet = report.wallets[0]!;
    expect(wallet.atService?.verdict).toBe("awaiting the stack's change");
    expect(report.warnings).toEqual([]);
    expect(wallet.rows.map((row) => row.beforeBps)).toEqual([4000, 6000]);
    expect(renderMarkdown(report)).toContain(
      "⏳ The stack's own strategy update to syrupUsdc 4000, tbills 6000 is pending_approval at the service " +
        "(signing activity act-42): the wallet holds syrupUsdc 2000, tbills 8000 until it is approved. Not an outside change.",
    );
    // The same change failed at the service is no longer open: then it is an outside change.
    const failed = reportOf(
      reweight({ ...pending, status: "failed" }),
      holdings(EARLIER, { tbills: 8_000_000, syrupUsdc: 2_000_000 }),
    );
    expect(failed.wallets[0]!.atService?.verdict).toBe("changed outside");
  });

  test("as recorded, or already the code's target: nothing to say; not checked without the service's wallets", () => {
    const recorded = reportOf(reweight(), holdings(A, { tbills: 6_000_000, syrupUsdc: 4_000_000 }));
    expect(recorded.wallets[0]!.atService).toMatchObject({ verdict: "as recorded", note: null });
    const target = reportOf(reweight(), holdings(B, { tbills: 5_000_000, syrupUsdc: 5_000_000 }));
    expect(target.wallets[0]!.atService).toMatchObject({ verdict: "the code's target", note: null });
    for (const report of [recorded, target]) {
      expect(report.warnings).toEqual([]);
      expect(renderMarkdown(report)).not.toMatch(/outside the stack|⏳/);
    }
    const offline = buildAllocationReport(
      readPreview(previewOf([reweight()])),
      context(new Map(), { wallets: { available: false, reason: "offline" } }),
    );
    expect(offline.wallets[0]!.atService).toBeNull();
  });
});

describe("portfolio-wallet report against the sandbox", () => {
  let t: TestSandbox;
  let proxy: Server;
  let proxyUrl: string;
  const requests: string[] = [];
  const cwd = useCliDirectory();

  beforeAll(async () => {
    // A manual clock: the wallets accrue nothing between the report and the answers it is checked against.
    t = await startTestSandbox({ clock: createManualClock(new Date("2026-03-01T00:00:00.000Z")) });
    await t.api("PUT", "/_sandbox/policy", { body: { strategyUpdateApprovals: 0, withdrawalApprovals: 0 } });
    // A counting proxy in front of the sandbox: what the report asks the service, request by request.
    proxy = createServer((incoming, outgoing) => {
      requests.push(`${incoming.method} ${incoming.url}`);
      const target = new URL(incoming.url ?? "/", t.url);
      const forward = request(target, { method: incoming.method, headers: incoming.headers }, (answer) => {
        outgoing.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(outgoing);
      });
      incoming.pipe(forward);
    });
    await new Promise<void>((resolve) => proxy.listen(0, "127.0.0.1", resolve));
    proxyUrl = `http://127.0.0.1:${(proxy.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    await new Promise((resolve) => proxy.close(resolve));
    await t.close();
  });

  test("dollars equal the sandbox's wallet answers to the micro; wallets are read a hundred a request", async () => {
    const created: PortfolioWallet[] = [];
    // 130 wallets: two pages of the list. Three are funded with known deposits.
    for (let index = 0; index < 130; index++) {
      const res = await t.api("POST", "/v2/portfolio-wallets", {
        body: {
          requestId: randomUUID(),
          positions: [
            { positionKey: "tbills", targetWeightBps: 6000 },
            { positionKey: "syrupUsdc", targetWeightBps: 4000 },
          ],
        },
      });
      expect(res.status).toBe(201);
      created.push(res.body as PortfolioWallet);
    }
    const deposits = [1_000_000, 250_000.25, 42];
    for (const [index, amount] of deposits.entries()) {
      const res = await t.api("POST", "/_sandbox/deposits", {
        body: {
          chain: "ethereum",
          address: created[index]!.depositAddresses["ethereum"]!.address,
          amount,
          txHash: `0x${randomUUID().replaceAll("-", "")}`,
        },
      });
      expect(res.status).toBe(201);
    }
    await t.api("POST", "/_sandbox/clock/advance", { body: { seconds: 7200 } });
    const reweighted = [...created.slice(0, 3), created[129]!];
    const preview = previewOf(
      reweighted.map((wallet, index) =>
        step.walletUpdate(
          `w${index}`,
          { tbills: 6000, syrupUsdc: 4000 },
          { tbills: 5000, syrupUsdc: 5000 },
          wallet.id,
        ),
      ),
    );
    requests.length = 0;
    const result = await portfolioWallet(["report", "--format", "json"], {
      cwd: cwd(),
      env: { PORTFOLIO_WALLET_BASE_URL: proxyUrl, PORTFOLIO_WALLET_API_TOKEN: TOKEN },
      input: preview,
    });
    expect(result.stderr).toBe("");
    expect(result.code).toBe(0);
    // The catalog once, and the wallets in two pages of a hundred: no request per wallet.
    expect(requests.filter((line) => line.startsWith("GET /v2/portfolio-wallets/"))).toEqual([
      "GET /v2/portfolio-wallets/strategies",
    ]);
    expect(requests.filter((line) => /^GET \/v2\/portfolio-wallets\?/.test(line))).toHaveLength(2);
    expect(requests.every((line) => line.includes("pageSize=100") || !line.includes("?"))).toBe(true);

    const report = JSON.parse(result.stdout) as {
      money: { totals: { movedMicros: string; fundedWallets: number } };
      wallets: {
        walletId: string;
        money: {
          impact: {
            balanceMicros: string;
            movedMicros: string;
            sources: { positionKey: string; nowMicros: string; afterMicros: string }[];
          };
        };
      }[];
    };
    let moved = 0n;
    for (const wallet of report.wallets) {
      // The sandbox's own answer for the wallet, read after the report (the clock does not move).
      const answer = (await t.api("GET", `/v2/portfolio-wallets/${wallet.walletId}`)).body as PortfolioWallet;
      const impact = wallet.money.impact;
      let balance = 0n;
      for (const position of answer.positions) {
        const source = impact.sources.find((s) => s.positionKey === position.positionKey);
        expect(BigInt(source!.nowMicros)).toBe(usdToMicros(position.valueUsd));
        balance += usdToMicros(position.valueUsd);
      }
      expect(BigInt(impact.balanceMicros)).toBe(balance);
      expect(impact.sources.reduce((sum, s) => sum + BigInt(s.afterMicros), 0n)).toBe(balance);
      // To 5000/5000: what moves is how far tbills is from half the balance, to within the split's micro.
      const tbills = usdToMicros(answer.positions.find((p) => p.positionKey === "tbills")!.valueUsd);
      const expected = tbills * 2n > balance ? tbills - balance / 2n : balance / 2n - tbills;
      const off = BigInt(impact.movedMicros) - expected;
      expect(off >= -1n && off <= 1n, `${impact.movedMicros} vs ${expected}`).toBe(true);
      moved += BigInt(impact.movedMicros);
    }
    expect(BigInt(report.money.totals.movedMicros)).toBe(moved);
    expect(report.money.totals.fundedWallets).toBe(3);
    // About a tenth of the $1,250,042.25 deposited: the deposits were allocated before the report.
    expect(moved > 120_000_000_000n && moved < 130_000_000_000n, String(moved)).toBe(true);
  });
});
