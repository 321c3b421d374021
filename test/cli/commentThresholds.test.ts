import { describe, expect, test } from "vitest";
import {
  buildAllocationReport,
  type ReportContext,
  type WalletAtService,
} from "../../cli/report/allocationReport.ts";
import {
  DEFAULT_COMMENT_THRESHOLDS,
  resolveCommentThresholds,
  type CommentThresholds,
} from "../../cli/report/commentThresholds.ts";
import { readPreview } from "../../cli/report/previewSteps.ts";
import { renderMarkdown } from "../../cli/report/renderMarkdown.ts";
import { usdToMicros } from "../../sdk/nodejs/contract/index.ts";
import { holdings, previewOf, serviceContext, step, type FixtureStep } from "./previewFixtures.ts";

/**
 * Whether a preview is worth a pull-request comment (issue 57): the thresholds on the dollars moved,
 * the largest weight change and the money withdrawable at once lost, with what a reviewer must read
 * whatever their size. The workflow's use of the decision is tested in test/examples/upPlanSteps.engine.test.ts.
 */

const TREASURY = "0b3f5c1e-1d2a-4c7e-9f10-5a6b7c8d9e01";
const PAYROLL = "1c4a6d2f-2e3b-4d8f-8a21-6b7c8d9e0f12";

const M = (usd: number) => usdToMicros(usd);

function reportOf(
  steps: FixtureStep[],
  byId: Map<string, WalletAtService>,
  commentThresholds: CommentThresholds = DEFAULT_COMMENT_THRESHOLDS,
  overrides: Partial<ReportContext> = {},
) {
  return buildAllocationReport(
    readPreview(previewOf([step.sameStack(), ...steps])),
    serviceContext(byId, { commentThresholds, ...overrides }),
  );
}

const A = { tbills: 6000, syrupUsdc: 4000 };
const treasuryAt = (weights: Record<string, number>, usd: number) =>
  new Map([
    [
      TREASURY,
      holdings(
        weights,
        Object.fromEntries(Object.entries(weights).map(([key, bps]) => [key, (usd * bps) / 10_000])),
      ),
    ],
  ]);

describe("the comment thresholds", () => {
  test("by default any change of an allocation is worth a comment, and a preview that changes nothing is not", () => {
    const nothing = reportOf([step.walletSame("treasury", A, TREASURY)], treasuryAt(A, 1_000_000));
    expect(nothing.comment.post).toBe(false);
    expect(nothing.comment.reasons).toEqual([]);
    expect(renderMarkdown(nothing)).toContain(
      "**Comment:** Under the comment thresholds: it moves $0.00 (threshold $0.01), the largest weight change is 0 bps (threshold 1), and withdrawable at once falls by $0.00 (threshold $0.01); the workflow posts no comment for it, and an earlier comment is updated to this.",
    );
    // One basis point of an unfunded wallet: no dollars, but a weight changes.
    const onePoint = reportOf(
      [step.walletUpdate("treasury", A, { tbills: 5999, syrupUsdc: 4001 }, TREASURY)],
      treasuryAt(A, 0),
    );
    expect(onePoint.comment.post).toBe(true);
    expect(onePoint.comment.reasons).toEqual(["the largest weight change is 1 bps (threshold 1)"]);
    expect(renderMarkdown(onePoint)).not.toContain("**Comment:**");
    expect(renderMarkdown(onePoint)).toContain(
      "- This comment was posted because the largest weight change is 1 bps",
    );
  });

  test("raised thresholds: a move under all three is not worth a comment; at a threshold it is, naming it", () => {
    const raised: CommentThresholds = {
      usdMovedMicros: M(10_000),
      weightBps: 500,
      withdrawableLostMicros: M(5_000),
    };
    // 1 bps of $1,000,000 from tbills (within 24 hours) to syrupUsdc (at once): $100 moved, nothing lost.
    const small = reportOf(
      [step.walletUpdate("treasury", A, { tbills: 5999, syrupUsdc: 4001 }, TREASURY)],
      treasuryAt(A, 1_000_000),
      raised,
    );
    expect(small.comment).toMatchObject({
      post: false,
      measured: { usdMovedMicros: M(100), largestWeightChangeBps: 1, withdrawableLostMicros: 0n },
    });
    expect(small.comment.summary).toContain("it moves $100.00 (threshold $10,000.00)");
    // 100 bps the other way: $10,000 moved, exactly the threshold, and $10,000 withdrawable at once lost.
    const atThreshold = reportOf(
      [step.walletUpdate("treasury", A, { tbills: 6100, syrupUsdc: 3900 }, TREASURY)],
      treasuryAt(A, 1_000_000),
      raised,
    );
    expect(atThreshold.comment.post).toBe(true);
    expect(atThreshold.comment.reasons).toEqual([
      "it moves $10,000.00 (threshold $10,000.00)",
      "withdrawable at once falls by $10,000.00 (threshold $5,000.00)",
    ]);
  });

  test("money withdrawable at once lost in one wallet is not netted against another's gain", () => {
    const byId = new Map([
      [TREASURY, holdings(A, { tbills: 600_000, syrupUsdc: 400_000 })],
      [PAYROLL, holdings(A, { tbills: 600_000, syrupUsdc: 400_000 })],
    ]);
    const report = reportOf(
      [
        step.walletUpdate("treasury", A, { tbills: 7000, syrupUsdc: 3000 }, TREASURY),
        step.walletUpdate("payroll", A, { tbills: 5000, syrupUsdc: 5000 }, PAYROLL),
      ],
      byId,
      { usdMovedMicros: M(1_000_000), weightBps: 10_000, withdrawableLostMicros: M(100_000) },
    );
    // The stack's instant liquidity is unchanged; treasury's falls by $100,000.
    expect(report.comment.measured.withdrawableLostMicros).toBe(M(100_000));
    expect(report.comment.reasons).toEqual([
      "withdrawable at once falls by $100,000.00 (threshold $100,000.00)",
    ]);
  });

  test("a warning, a wallet created, or dollars the report cannot work out are worth a comment whatever the thresholds", () => {
    const never: CommentThresholds = {
      usdMovedMicros: M(1e12),
      weightBps: 10_000,
      withdrawableLostMicros: M(1e12),
    };
    const created = reportOf([step.walletCreate("growth", A)], new Map(), never);
    expect(created.comment.reasons).toEqual(['PortfolioWallet "growth" is created']);
    const refused = reportOf([step.walletDelete("legacy", A, TREASURY)], new Map(), never, {
      balances: new Map([[TREASURY, 2_500]]),
    });
    expect(refused.comment.post).toBe(true);
    expect(refused.comment.reasons).toEqual(['a warning on PortfolioWallet "legacy"']);
    const unread = reportOf(
      [step.walletUpdate("treasury", A, { tbills: 5999, syrupUsdc: 4001 }, TREASURY)],
      new Map(),
      never,
      { wallets: { available: false, reason: "no token was given" } },
    );
    expect(unread.comment.reasons).toEqual(['the dollars of PortfolioWallet "treasury" are unknown']);
  });

  test("set by flag, else stack config, else the default; every bad value named with where it came from", () => {
    expect(resolveCommentThresholds({}, () => undefined)).toEqual(DEFAULT_COMMENT_THRESHOLDS);
    const config: Record<string, string> = {
      "portfolio-wallet:commentUsdMoved": "2500.50",
      "portfolio-wallet:commentWeightBps": "50",
    };
    expect(resolveCommentThresholds({ weightBps: "25" }, (key) => config[key])).toEqual({
      usdMovedMicros: M(2_500.5),
      weightBps: 25,
      withdrawableLostMicros: M(0.01),
    });
    expect(() =>
      resolveCommentThresholds(
        { weightBps: "1.5" },
        (key) => ({ "portfolio-wallet:commentWithdrawableLostUsd": "-1" })[key],
      ),
    ).toThrow(
      '--comment-weight-bps is "1.5": it must be a whole number of basis points from 1 to 10000, such as 1 or 500; ' +
        'stack config portfolio-wallet:commentWithdrawableLostUsd is "-1": it must be a USD amount of 0 or more, such as 0.01 or 5000.',
    );
  });
});
