import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, test } from "vitest";
import {
  allowedYieldSources,
  maxWeightPerSource,
  maxWeightPerStrategyType,
  minWithdrawableShare,
  oneManagerPerWallet,
  retainNeedsAllowList,
  webhookUsesHttps,
} from "../../policy/rules.ts";
import { managerOf, targetWeightsOf } from "../../policy/subjects.ts";
import { nativeTypeTokenOf, typeTokenOf } from "../../sdk/nodejs/resources/resourceTypes.ts";
import { repoRoot } from "../../scripts/pulumiEnv.ts";
import { CATALOG } from "../cli/previewFixtures.ts";

/** The pack's rules on their own: under, at and over each limit; a missing catalog entry; an unknown key. */

const treasury = (weights: Record<string, number>) => ({ resource: "treasury", weights });

describe("max-weight-per-source", () => {
  test("under and at the limit pass; over it names the source, its weight, the limit and the config key", () => {
    expect(maxWeightPerSource(treasury({ tbills: 4999, syrupUsdc: 5001 - 0 }), 6000, "k")).toEqual([]);
    expect(maxWeightPerSource(treasury({ tbills: 5000, syrupUsdc: 5000 }), 5000, "k")).toEqual([]);
    expect(
      maxWeightPerSource(treasury({ tbills: 5001, syrupUsdc: 4999 }), 5000, "max-weight-per-source.maxBps"),
    ).toEqual([
      "treasury: tbills is 5001 bps, above the maximum 5000 bps per yield source (max-weight-per-source.maxBps)",
    ]);
  });

  test("an unknown key is judged by its weight like any other", () => {
    expect(maxWeightPerSource(treasury({ ethenaUsde: 10_000 }), 5000, "k")).toHaveLength(1);
  });
});

describe("max-weight-per-strategy-type", () => {
  test("a type at its limit passes; over it fails; 0 forbids the type", () => {
    const weights = treasury({ tbills: 7000, resolvRlp: 3000 });
    expect(maxWeightPerStrategyType(weights, CATALOG, { deltaNeutralStrategy: 3000 }, "k")).toEqual([]);
    expect(maxWeightPerStrategyType(weights, CATALOG, { deltaNeutralStrategy: 2999 }, "k")).toHaveLength(1);
    expect(
      maxWeightPerStrategyType(
        weights,
        CATALOG,
        { deltaNeutralStrategy: 0 },
        "max-weight-per-strategy-type.maxBps",
      ),
    ).toEqual([
      "treasury: strategy type deltaNeutralStrategy is 3000 bps, above the maximum 0 bps (max-weight-per-strategy-type.maxBps.deltaNeutralStrategy)",
    ]);
  });

  test("a source missing from the catalog has no type, so it does not count towards one", () => {
    expect(
      maxWeightPerStrategyType(treasury({ ethenaUsde: 10_000 }), CATALOG, { deltaNeutralStrategy: 0 }, "k"),
    ).toEqual([]);
  });
});

describe("min-withdrawable-share", () => {
  test("PT0H share under, at and over the minimum, with the message of the example", () => {
    // syrupUsdc is the only PT0H source.
    expect(
      minWithdrawableShare(treasury({ tbills: 7000, syrupUsdc: 3000 }), CATALOG, "PT0H", 3000, "k"),
    ).toEqual([]);
    expect(
      minWithdrawableShare(treasury({ tbills: 6000, syrupUsdc: 4000 }), CATALOG, "PT0H", 3000, "k"),
    ).toEqual([]);
    expect(
      minWithdrawableShare(
        treasury({ tbills: 8000, syrupUsdc: 2000 }),
        CATALOG,
        "PT0H",
        3000,
        "min-withdrawable-share.minInstantBps",
      ),
    ).toEqual([
      "treasury: the share withdrawable at once is 2000 bps, below the minimum 3000 bps (min-withdrawable-share.minInstantBps)",
    ]);
  });

  test("a longer horizon counts every source no slower than it", () => {
    // tbills (PT24H) counts within PT24H; resolvRlp (PT168H) does not.
    const weights = treasury({ tbills: 5000, syrupUsdc: 2000, resolvRlp: 3000 });
    expect(minWithdrawableShare(weights, CATALOG, "PT24H", 7000, "k")).toEqual([]);
    expect(minWithdrawableShare(weights, CATALOG, "P1D", 7001, "k")).toEqual([
      "treasury: the share withdrawable within 24 hours is 7000 bps, below the minimum 7001 bps (k)",
    ]);
  });

  test("a source missing from the catalog is never counted as liquid, and the message says so", () => {
    expect(minWithdrawableShare(treasury({ ethenaUsde: 10_000 }), CATALOG, "PT0H", 1, "k")).toEqual([
      "treasury: the share withdrawable at once is 0 bps, below the minimum 1 bps (k) (not in the catalog, so not counted: ethenaUsde)",
    ]);
  });

  test("a limit that is not a duration is reported, not ignored", () => {
    expect(minWithdrawableShare(treasury({ tbills: 10_000 }), CATALOG, "one day", 0, "k")).toEqual([
      'treasury: k names "one day"; it must be an ISO 8601 duration such as PT0H, PT24H or P3DT12H, and this one does not start with P: write it as PT24H or P3D, not 24H or 3D',
    ]);
  });
});

describe("allowed-yield-sources", () => {
  test("empty lists allow every catalog source", () => {
    expect(allowedYieldSources(treasury({ tbills: 5000, resolvRlp: 5000 }), CATALOG, {}, "k")).toEqual([]);
  });

  test("allow and exclude lists of keys and types", () => {
    const weights = treasury({ tbills: 5000, resolvRlp: 5000 });
    expect(
      allowedYieldSources(weights, CATALOG, { excludedStrategyTypes: ["deltaNeutralStrategy"] }, "a"),
    ).toEqual([
      "treasury: resolvRlp is a deltaNeutralStrategy, an excluded strategy type (a.excludedStrategyTypes)",
    ]);
    expect(allowedYieldSources(weights, CATALOG, { allowedPositionKeys: ["tbills"] }, "a")).toEqual([
      "treasury: resolvRlp is not among the allowed yield sources tbills (a.allowedPositionKeys)",
    ]);
    expect(allowedYieldSources(weights, CATALOG, { excludedPositionKeys: ["tbills"] }, "a")).toEqual([
      "treasury: tbills is an excluded yield source (a.excludedPositionKeys)",
    ]);
    expect(
      allowedYieldSources(
        weights,
        CATALOG,
        { allowedStrategyTypes: ["tbills", "deltaNeutralStrategy"] },
        "a",
      ),
    ).toEqual([]);
  });

  test("an unknown key is always a finding: its type and liquidity are unknown", () => {
    expect(allowedYieldSources(treasury({ ethenaUsde: 10_000 }), CATALOG, {}, "a")).toEqual([
      "treasury: ethenaUsde is not in the strategy catalog, so its type and liquidity are unknown",
    ]);
  });
});

describe("production guardrails", () => {
  test("retain is allowed only for wallets on the allow list", () => {
    expect(retainNeedsAllowList("ops", "fail-if-funded", [], "k")).toEqual([]);
    expect(retainNeedsAllowList("ops", undefined, [], "k")).toEqual([]);
    expect(retainNeedsAllowList("ops", "retain", ["ops"], "k")).toEqual([]);
    expect(retainNeedsAllowList("ops", "retain", ["archive"], "k")).toEqual([
      'ops: onDelete is "retain", which lets the wallet and its funds leave the stack unmanaged; add "ops" to k to allow it',
    ]);
  });

  test("webhooks over http fail without quoting the URL (it may carry credentials)", () => {
    expect(webhookUsesHttps("events", "https://hooks.example.com/a", "k")).toEqual([]);
    const findings = webhookUsesHttps("events", "http://user:hunter2@hooks.example.com/a", "k");
    expect(findings).toEqual(["events: the webhook url uses http, not https (k)"]);
    expect(webhookUsesHttps("events", "not a url", "k")).toEqual([
      "events: the webhook url is not an absolute URL (k)",
    ]);
  });
});

describe("one-manager-per-wallet", () => {
  test("a PortfolioWallet and a WalletStrategy on one wallet are one finding naming both; unknown ids are not judged", () => {
    const wallet = "0d5e7a52-7f0e-4c1a-9d55-3c2a8b1f6e01";
    expect(
      oneManagerPerWallet([
        { resource: "treasury", kind: "PortfolioWallet", walletId: wallet },
        { resource: "treasury-strategy", kind: "WalletStrategy", walletId: wallet },
        { resource: "new", kind: "PortfolioWallet", walletId: undefined },
        { resource: "other", kind: "WalletStrategy", walletId: "1c4a6d2f-2e3b-4d8f-8a21-6b7c8d9e0f12" },
      ]),
    ).toEqual([
      `wallet ${wallet} is managed by PortfolioWallet "treasury" and WalletStrategy "treasury-strategy"; keep its allocation in one resource`,
    ]);
    expect(oneManagerPerWallet([{ resource: "a", kind: "WalletStrategy", walletId: wallet }])).toEqual([]);
  });
});

describe("what the pack reads of a resource", () => {
  test("weights from the checked map or, before check, from positions; unknown values are not judged", () => {
    expect(targetWeightsOf("portfolioWallet", { targetWeightsBps: { tbills: 10_000 } })).toEqual({
      tbills: 10_000,
    });
    expect(
      targetWeightsOf("portfolioWallet", { positions: [{ positionKey: "tbills", targetWeightBps: 10_000 }] }),
    ).toEqual({
      tbills: 10_000,
    });
    expect(
      targetWeightsOf("portfolioWallet", {
        positions: [{ positionKey: "tbills", targetWeightBps: undefined }],
      }),
    ).toBeUndefined();
    expect(targetWeightsOf("portfolioWallet", {})).toBeUndefined();
  });

  test("the wallet a resource manages: a PortfolioWallet's id or adopted id, a WalletStrategy's walletId", () => {
    // Dynamic resources (TypeScript programs) and the native provider's (every other language) alike.
    for (const tokenOf of [typeTokenOf, nativeTypeTokenOf]) {
      expect(
        managerOf({ type: tokenOf("portfolioWallet"), name: "a", props: { adoptWalletId: "w1" } })?.walletId,
      ).toBe("w1");
      expect(
        managerOf({ type: tokenOf("walletStrategy"), name: "b", props: { walletId: "w2" } })?.walletId,
      ).toBe("w2");
    }
    expect(managerOf({ type: "aws:s3/bucket:Bucket", name: "c", props: {} })).toBeUndefined();
  });
});

describe("the pack's manifests", () => {
  test("carry the package's version (the engine shows it) and run the built pack", () => {
    const { version } = JSON.parse(readFileSync(path.join(repoRoot, "package.json"), "utf8")) as {
      version: string;
    };
    for (const dir of ["policy", "policy/offline"]) {
      const manifest = JSON.parse(readFileSync(path.join(repoRoot, dir, "package.json"), "utf8")) as {
        version: string;
        main: string;
      };
      expect(manifest.version).toBe(version);
      expect(path.resolve(repoRoot, dir, manifest.main)).toBe(
        path.join(repoRoot, "dist", "cjs", "policy", "pack.js"),
      );
    }
    expect(readFileSync(path.join(repoRoot, "policy", "PulumiPolicy.yaml"), "utf8")).toMatch(
      /^runtime: nodejs$/m,
    );
    expect(readFileSync(path.join(repoRoot, "policy", "offline", "PulumiPolicy.yaml"), "utf8")).toMatch(
      /^runtime: nodejsshim$/m,
    );
  });
});
