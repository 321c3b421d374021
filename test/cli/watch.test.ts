import { readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, test } from "vitest";
import { formatDollars, usdToMicros } from "../../sdk/nodejs/contract/money.ts";
import type { PortfolioWallet } from "../../sdk/nodejs/contract/wallet.ts";
import { watchWallets, type WatchBands } from "../../cli/watch/marketWatch.ts";
import { renderWatch } from "../../cli/watch/renderWatch.ts";
import { resolveWatchBands } from "../../cli/watch/watchSettings.ts";
import { portfolioWallet, useCliDirectory } from "./harness.ts";
import { CATALOG } from "./previewFixtures.ts";

/**
 * The market watch's bands on wallet answers shaped like the service's (the engine and the
 * sandbox's market run it in test/cli/drift/driftEveryProgram.engine.test.ts), its settings, and the one
 * watch issue per stack.
 */

const WALLET_ID = "0b3f5c1e-1d2a-4c7e-9f10-5a6b7c8d9e01";

const BANDS: WatchBands = {
  driftBps: 500,
  driftBpsByWallet: {},
  instantMinBps: 0,
  instantMinUsd: 0,
  withinMinBps: [],
  rateDropBps: 100,
};

/** A wallet answer: tbills (PT24H) and syrupUsdc (PT0H) at the given values and a 6000/4000 target. */
function answer(tbillsUsd: number, syrupUsd: number): PortfolioWallet {
  const total = tbillsUsd + syrupUsd;
  const weight = (usd: number) => (usd / total) * 10_000;
  return {
    id: WALLET_ID,
    totalBalanceUsd: total,
    instantWithdrawableUsd: syrupUsd,
    pendingAllocationsUsd: 0,
    blendedRateBps: 500,
    strategyConfig: {
      positions: [
        { positionKey: "tbills", targetWeightBps: 6000 },
        { positionKey: "syrupUsdc", targetWeightBps: 4000 },
      ],
    },
    positions: [
      {
        positionKey: "tbills",
        valueUsd: tbillsUsd,
        weightBps: weight(tbillsUsd),
        targetWeightBps: 6000,
        driftBps: weight(tbillsUsd) - 6000,
      },
      {
        positionKey: "syrupUsdc",
        valueUsd: syrupUsd,
        weightBps: weight(syrupUsd),
        targetWeightBps: 4000,
        driftBps: weight(syrupUsd) - 4000,
      },
    ],
    liquidityProfile: [
      { maxProcessingTime: "PT0H", weightBps: weight(syrupUsd) },
      { maxProcessingTime: "PT24H", weightBps: weight(tbillsUsd) },
    ],
    depositAddresses: {},
  } as unknown as PortfolioWallet;
}

const watch = (
  wallet: PortfolioWallet,
  bands: Partial<WatchBands> = {},
  appliedRatesBps: Record<string, number> | null = { tbills: 430, syrupUsdc: 650 },
) =>
  watchWallets({
    stack: "treasury/prod",
    checkedAt: "2026-12-01T00:00:00.000Z",
    bands: { ...BANDS, ...bands },
    wallets: [{ name: "treasury", kind: "PortfolioWallet", walletId: WALLET_ID, appliedRatesBps }],
    answers: new Map([[WALLET_ID, wallet]]),
    catalog: CATALOG,
    dollars: formatDollars,
  });

const catalogRate = (key: string) => CATALOG.find((entry) => entry.positionKey === key)!.currentRateBps;

describe("the market watch", () => {
  test("at target, at the rates the allocation was set at: within every band", () => {
    const report = watch(
      answer(600_000, 400_000),
      {},
      { tbills: catalogRate("tbills"), syrupUsdc: catalogRate("syrupUsdc") },
    );
    expect(report.outside).toBe(false);
    expect(report.headline).toBe("treasury/prod: every wallet within its bands");
  });

  test("a position past its band, either way, with the dollars off target; exactly at the band is within", () => {
    const rates = { tbills: catalogRate("tbills"), syrupUsdc: catalogRate("syrupUsdc") };
    const off = watch(answer(660_000.5, 339_999.5), {}, rates);
    expect(off.wallets[0]!.findings.map((f) => [f.kind, "positionKey" in f ? f.positionKey : ""])).toEqual([
      ["position-off-band", "syrupUsdc"],
      ["position-off-band", "tbills"],
    ]);
    const tbills = off.wallets[0]!.findings.find(
      (f) => f.kind === "position-off-band" && f.positionKey === "tbills",
    )!;
    // 660,000.50 held against 6000 bps of 1,000,000.00.
    expect(tbills).toMatchObject({ offTargetMicros: "60000500000", targetWeightBps: 6000 });
    expect(tbills.message).toContain("+$60,000.50 off target");
    expect(off.headline).toBe("treasury/prod: 2 outside their bands in 1 of 1 wallet");
    expect(watch(answer(650_000, 350_000), {}, rates).outside).toBe(false);
    // A wallet's own band replaces the stack's.
    expect(watch(answer(650_000, 350_000), { driftBpsByWallet: { treasury: 100 } }, rates).outside).toBe(
      true,
    );
  });

  test("a position keyed like an object member and missing from the targets is off target by all it holds", () => {
    // A new position key may be any name; `constructor` read from a plain object of targets would
    // give its member, a function, rather than a target of 0 bps.
    const wallet = answer(600_000, 300_000);
    wallet.totalBalanceUsd = 1_000_000;
    wallet.positions.push({
      positionKey: "constructor",
      valueUsd: 100_000,
      weightBps: 1000,
      targetWeightBps: 0,
      driftBps: 1000,
    } as PortfolioWallet["positions"][number]);
    const report = watch(wallet, {}, { tbills: catalogRate("tbills"), syrupUsdc: catalogRate("syrupUsdc") });
    const held = report.wallets[0]!.findings.find(
      (f) => f.kind === "position-off-band" && f.positionKey === "constructor",
    )!;
    expect(held).toMatchObject({ targetWeightBps: 0, driftBps: 1000, offTargetMicros: "100000000000" });
    expect(held.message).toContain("+$100,000.00 off target");
  });

  test("withdrawable at once and within a processing time below their floors", () => {
    const rates = { tbills: catalogRate("tbills"), syrupUsdc: catalogRate("syrupUsdc") };
    const report = watch(
      answer(600_000, 400_000),
      { instantMinUsd: 400_000.01, withinMinBps: [{ within: "PT12H", minBps: 4001 }] },
      rates,
    );
    const kinds = report.wallets[0]!.findings.map((f) => f.kind);
    expect(kinds).toEqual(["instant-below-floor", "within-below-floor"]);
    expect(report.wallets[0]!.findings[0]!.message).toContain(
      "$400,000.00 (4000 bps of $1,000,000.00) is withdrawable at once, below the floor of $400,000.01",
    );
    // At the floor is not below it; the day's floor counts tbills (PT24H) too.
    expect(
      watch(
        answer(600_000, 400_000),
        { instantMinBps: 4000, withinMinBps: [{ within: "PT24H", minBps: 10_000 }] },
        rates,
      ).outside,
    ).toBe(false);
  });

  test("a rate fallen beyond its band below the rate at apply, with the yearly cost; none recorded is a note", () => {
    const report = watch(
      answer(600_000, 400_000),
      {},
      { tbills: catalogRate("tbills"), syrupUsdc: catalogRate("syrupUsdc") + 101 },
    );
    const [drop] = report.wallets[0]!.findings;
    expect(drop).toMatchObject({ kind: "rate-drop", positionKey: "syrupUsdc", bandBps: 100 });
    // 101 bps of $400,000 a year.
    expect(drop!.kind === "rate-drop" && drop!.yearlyCostMicros).toBe(usdToMicros(4_040).toString());
    expect(watch(answer(600_000, 400_000), {}, { syrupUsdc: catalogRate("syrupUsdc") + 100 }).outside).toBe(
      false,
    );
    const unrecorded = watch(answer(600_000, 400_000), {}, null);
    expect(unrecorded.outside).toBe(false);
    expect(unrecorded.wallets[0]!.notes[0]).toContain("no rates recorded for its allocation");
  });

  test("rendered as an issue body: marker, headline, each finding", () => {
    const markdown = renderWatch(watch(answer(660_000, 340_000)), true);
    expect(markdown.split("\n")[0]).toBe("<!-- portfolio-wallet-watch stack=treasury/prod -->");
    expect(markdown).toContain("### treasury/prod: 2 outside their bands in 1 of 1 wallet");
    expect(markdown).toContain(
      "#### PortfolioWallet `treasury` (wallet 0b3f5c1e-1d2a-4c7e-9f10-5a6b7c8d9e01)",
    );
    expect(markdown).toContain("Market movement, not drift");
  });
});

describe("the watch's bands", () => {
  test("flags, else stack config, else the documented defaults", () => {
    const config: Record<string, string> = {
      "portfolio-wallet:watchDriftBps": "250",
      "portfolio-wallet:watchInstantMinUsd": "100000",
      "portfolio-wallet:watchWithinMinBps": "PT24H=5000, P7D=9000",
      "portfolio-wallet:watchDriftBpsByWallet": '{"payroll": 50}',
    };
    expect(resolveWatchBands({ rateDropBps: "25" }, (key) => config[key])).toEqual({
      driftBps: 250,
      instantMinBps: 0,
      instantMinUsd: 100_000,
      rateDropBps: 25,
      driftBpsByWallet: { payroll: 50 },
      withinMinBps: [
        { within: "PT24H", minBps: 5000 },
        { within: "P7D", minBps: 9000 },
      ],
    });
    expect(resolveWatchBands({}, () => undefined)).toMatchObject({
      driftBps: 500,
      rateDropBps: 100,
      instantMinUsd: 0,
    });
  });

  test("a bad value is named with where it came from and what to write", () => {
    expect(() => resolveWatchBands({ driftBps: "-1" }, () => undefined)).toThrow(
      '--drift-band-bps is "-1": it must be a number of basis points from 0 to 10000, such as 500.',
    );
    expect(() =>
      resolveWatchBands({}, (key) => (key.endsWith("watchWithinMinBps") ? "24h=5000" : undefined)),
    ).toThrow(
      /stack config portfolio-wallet:watchWithinMinBps has "24h=5000": each entry must be <ISO 8601 duration>=<bps>/,
    );
    expect(() => resolveWatchBands({}, (key) => (key.endsWith("ByWallet") ? "[1]" : undefined))).toThrow(
      /watchDriftBpsByWallet is "\[1\]": it must be a JSON object of wallet resource names/,
    );
  });
});

describe("portfolio-wallet watch-issue", () => {
  const cwd = useCliDirectory();
  test("opens the stack's watch issue, and closes it once every wallet is within its bands", async () => {
    const write = (name: string, text: string) => {
      writeFileSync(path.join(cwd(), name), text);
      return path.join(cwd(), name);
    };
    const outside = write("watch.json", JSON.stringify(watch(answer(660_000, 340_000))));
    const body = path.join(cwd(), "issue.md");
    const issues = write("issues.json", "[]");
    const opened = await portfolioWallet(
      [
        "watch-issue",
        "--stack",
        "treasury/prod",
        "--watch",
        outside,
        "--issues",
        issues,
        "--body-file",
        body,
      ],
      { cwd: cwd() },
    );
    expect(opened.code, opened.stderr).toBe(0);
    expect(opened.stdout).toBe("action=open\ntitle=Market watch: treasury/prod\n");
    const issueBody = readFileSync(body, "utf8");
    expect(issueBody.split("\n")[0]).toBe("<!-- portfolio-wallet-watch stack=treasury/prod -->");
    // The drift issue of the same stack is another issue: it is never taken for the watch's.
    const both = write(
      "both.json",
      JSON.stringify([
        { number: 3, state: "OPEN", body: "<!-- portfolio-wallet-drift stack=treasury/prod -->\nx" },
        { number: 4, state: "OPEN", body: issueBody },
      ]),
    );
    const within = write(
      "within.json",
      JSON.stringify(
        watch(
          answer(600_000, 400_000),
          {},
          { tbills: catalogRate("tbills"), syrupUsdc: catalogRate("syrupUsdc") },
        ),
      ),
    );
    const closed = await portfolioWallet(
      ["watch-issue", "--stack", "treasury/prod", "--watch", within, "--issues", both, "--body-file", body],
      { cwd: cwd() },
    );
    expect(closed.stdout).toBe("action=close\nnumbers=4\n");
    expect(readFileSync(body, "utf8")).toContain("Every wallet within its bands");
  });
});
