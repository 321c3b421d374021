import { describe, expect, test } from "vitest";
import {
  maxUsdMovedPerStack,
  maxUsdMovedPerWallet,
  minUsdWithdrawablePerStack,
  minUsdWithdrawablePerWallet,
} from "../../policy/rules.ts";
import { moneyImpact, stackMoneyImpact } from "../../sdk/nodejs/contract/index.ts";
import { CATALOG } from "../cli/previewFixtures.ts";

/**
 * The money rules on their own: under, at and over each limit, per wallet and per stack. The
 * fixture catalog: syrupUsdc PT0H, tbills PT24H, resolvRlp PT168H.
 */

/** $6M tbills + $4M syrupUsdc reweighted to half and half: moves $1M, $5M stays withdrawable at once. */
const treasury = {
  resource: "treasury",
  impact: moneyImpact(
    {
      positions: [
        { positionKey: "tbills", valueUsd: 6_000_000 },
        { positionKey: "syrupUsdc", valueUsd: 4_000_000 },
      ],
    },
    { tbills: 5000, syrupUsdc: 5000 },
    CATALOG,
  ),
};
/** $100 all in syrupUsdc moved to tbills: nothing withdrawable at once after. */
const small = {
  resource: "petty-cash",
  impact: moneyImpact(
    { positions: [{ positionKey: "syrupUsdc", valueUsd: 100 }] },
    { tbills: 10_000 },
    CATALOG,
  ),
};
const unfunded = {
  resource: "fresh",
  impact: moneyImpact({ positions: [] }, { resolvRlp: 10_000 }, CATALOG),
};

describe("max-usd-moved", () => {
  test("per wallet: at the limit passes; a micro over names the amount, the limit and the key", () => {
    expect(maxUsdMovedPerWallet(treasury, 1_000_000, "k")).toEqual([]);
    expect(maxUsdMovedPerWallet(treasury, 999_999.999999, "max-usd-moved.maxUsdPerWallet")).toEqual([
      // A micro over: in cents both would read $1,000,000.00, so both are given to the micro.
      "treasury: the change moves $1,000,000.00, above the maximum $999,999.999999 per wallet (max-usd-moved.maxUsdPerWallet)",
    ]);
    expect(maxUsdMovedPerWallet(unfunded, 0, "k")).toEqual([]);
  });

  test("per stack: the wallets' moves together", () => {
    const stack = stackMoneyImpact([treasury.impact, small.impact, unfunded.impact]);
    expect(maxUsdMovedPerStack(stack, 1_000_100, "k")).toEqual([]);
    expect(maxUsdMovedPerStack(stack, 1_000_099.99, "max-usd-moved.maxUsdPerStack")).toEqual([
      "the stack's changes move $1,000,100.00 across 3 wallets, above the maximum $1,000,099.99 per stack (max-usd-moved.maxUsdPerStack)",
    ]);
  });
});

describe("min-usd-withdrawable", () => {
  test("per wallet, at once and within a time; a change that moves nothing is not judged", () => {
    expect(minUsdWithdrawablePerWallet(treasury, "PT0H", 5_000_000, "k")).toEqual([]);
    expect(minUsdWithdrawablePerWallet(treasury, "PT0H", 5_000_000.01, "m.minInstantUsdPerWallet")).toEqual([
      "treasury: after the change $5,000,000.00 is withdrawable at once, below the minimum $5,000,000.01 per wallet (m.minInstantUsdPerWallet)",
    ]);
    // Within PT48H counts what the catalog's PT24H and PT0H sources hold: all of it.
    expect(minUsdWithdrawablePerWallet(treasury, "PT48H", 10_000_000, "k")).toEqual([]);
    expect(minUsdWithdrawablePerWallet(small, "PT0H", 1, "k")).toHaveLength(1);
    expect(minUsdWithdrawablePerWallet(small, "PT168H", 101, "k")).toEqual([
      "petty-cash: after the change $100.00 is withdrawable within 7 days, below the minimum $101.00 per wallet (k)",
    ]);
    expect(minUsdWithdrawablePerWallet(unfunded, "PT0H", 1, "k")).toEqual([]);
  });

  test("a limit that is not a duration says so", () => {
    expect(minUsdWithdrawablePerWallet(treasury, "24h", 1, "m.minWithin[0].minUsdPerWallet")[0]).toMatch(
      /^treasury: m\.minWithin\[0\]\.minUsdPerWallet names "24h"; it must be an ISO 8601 duration/,
    );
  });

  test("per stack: over the changed wallets together", () => {
    const stack = stackMoneyImpact([treasury.impact, small.impact]);
    expect(minUsdWithdrawablePerStack(stack, "PT0H", 5_000_000, "k")).toEqual([]);
    expect(minUsdWithdrawablePerStack(stack, "PT0H", 5_000_001, "m.minInstantUsdPerStack")).toEqual([
      "after the stack's changes $5,000,000.00 of its changed wallets is withdrawable at once, below the minimum $5,000,001.00 per stack (m.minInstantUsdPerStack)",
    ]);
  });
});
