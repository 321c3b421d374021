import { describe, expect, test } from "vitest";
import { UNKNOWN_INPUT } from "../../provider/check.ts";
import {
  POSITIONS_A,
  baseConfig,
  checked,
  mutatingKeys,
  providerOf,
  requestCounts,
  resetRequestCounts,
  startProviderSandbox,
  urnOf,
  useProviderSandbox,
} from "./helpers.ts";

const wallets = providerOf("portfolioWallet");
const strategies = providerOf("walletStrategy");
const webhooks = providerOf("webhookRegistration");

const t = useProviderSandbox({ configure: [wallets] });

const propertiesOf = (result: { failures?: { property: string }[] }) =>
  (result.failures ?? []).map((failure) => failure.property).sort();

describe("check(): PortfolioWallet", () => {
  test("returns every failure at once, naming each property, without any request", async () => {
    await resetRequestCounts(t);
    const result = await wallets.check(
      {},
      {
        resourceUrn: urnOf("PortfolioWallet"),
        positions: [
          { positionKey: "tbills", targetWeightBps: 6000 },
          { positionKey: "", targetWeightBps: 3000 },
          { positionKey: "syrupUsdc", targetWeightBps: 1.5 },
        ],
        onDelete: "delete-it",
        adoptWalletId: "not-a-uuid",
        label: "x".repeat(201),
      },
    );
    expect(propertiesOf(result)).toEqual(
      [
        "adoptWalletId",
        "label",
        "onDelete",
        // 6000 + 3000 + 1.5 is not 10000 either: reported in the same answer.
        "positions",
        "positions[1].positionKey",
        "positions[2].targetWeightBps",
      ].sort(),
    );
    // The input is refused before the catalog is consulted: a bad input never costs a request.
    expect(await requestCounts(t)).toEqual({});
  });

  // AllocationSchema's cross-position rules run even when a single position is malformed.
  test("reports a duplicate key even when another position has a bad weight", async () => {
    const result = await wallets.check(
      {},
      {
        resourceUrn: urnOf("PortfolioWallet"),
        positions: [
          { positionKey: "tbills", targetWeightBps: 6000 },
          { positionKey: "tbills", targetWeightBps: 3000 },
          { positionKey: "syrupUsdc", targetWeightBps: 1.5 },
        ],
      },
    );
    expect(propertiesOf(result)).toEqual([
      "positions",
      "positions[1].positionKey",
      "positions[2].targetWeightBps",
    ]);
  });

  test("reports a weight sum other than 10000 and a duplicate key together", async () => {
    const result = await wallets.check(
      {},
      {
        resourceUrn: urnOf("PortfolioWallet"),
        positions: [
          { positionKey: "tbills", targetWeightBps: 6000 },
          { positionKey: "tbills", targetWeightBps: 3000 },
        ],
      },
    );
    expect(result.failures).toEqual(
      expect.arrayContaining([
        { property: "positions", reason: expect.stringContaining("sum to 9000") },
        { property: "positions[1].positionKey", reason: expect.stringContaining("duplicate") },
      ]),
    );
    expect(result.inputs).toBeUndefined();
  });

  test("checks positionKeys against the catalog and lists the valid keys", async () => {
    const result = await wallets.check(
      {},
      {
        resourceUrn: urnOf("PortfolioWallet"),
        positions: [
          { positionKey: "tbills", targetWeightBps: 5000 },
          { positionKey: "junkBonds", targetWeightBps: 5000 },
        ],
      },
    );
    expect(result.failures).toHaveLength(1);
    expect(result.failures[0].property).toBe("positions[1].positionKey");
    expect(result.failures[0].reason).toContain('"junkBonds"');
    for (const key of ["tbills", "resolvRlp", "syrupUsdc"]) expect(result.failures[0].reason).toContain(key);
  });

  test("normalizes valid inputs: the allocation as a map of weights, onDelete default", async () => {
    const resourceUrn = urnOf("PortfolioWallet");
    const inputs = await checked(
      wallets,
      {},
      {
        resourceUrn,
        positions: [
          { positionKey: "tbills", targetWeightBps: 6000, currentApy: 430 },
          { positionKey: "syrupUsdc", targetWeightBps: 4000, maxProcessingTime: "PT0H" },
        ],
      },
    );
    // The allocation travels as a map (what a diff names per yield source); quote fields are dropped.
    expect(inputs).toMatchObject({
      resourceUrn,
      targetWeightsBps: { syrupUsdc: 4000, tbills: 6000 },
      onDelete: "fail-if-funded",
    });
    expect(inputs).not.toHaveProperty("positions");
  });

  test("a label change is a check failure (the service cannot rename a wallet)", async () => {
    const resourceUrn = urnOf("PortfolioWallet");
    const olds = await checked(wallets, {}, { resourceUrn, positions: POSITIONS_A, label: "treasury" });
    const result = await wallets.check(olds, { resourceUrn, positions: POSITIONS_A, label: "operations" });
    expect(result.failures).toEqual([{ property: "label", reason: expect.stringContaining('"treasury"') }]);
  });

  test("a label change and an unknown positionKey are reported together", async () => {
    const resourceUrn = urnOf("PortfolioWallet");
    const olds = await checked(wallets, {}, { resourceUrn, positions: POSITIONS_A, label: "treasury" });
    const result = await wallets.check(olds, {
      resourceUrn,
      positions: [{ positionKey: "gold", targetWeightBps: 10000 }],
      label: "operations",
    });
    expect(propertiesOf(result)).toEqual(["label", "positions[0].positionKey"]);
  });

  test("adding or changing adoptWalletId after creation is a check failure", async () => {
    const resourceUrn = urnOf("PortfolioWallet");
    const olds = await checked(wallets, {}, { resourceUrn, positions: POSITIONS_A });
    const result = await wallets.check(olds, {
      resourceUrn,
      positions: POSITIONS_A,
      adoptWalletId: "3f1c2a9e-8b7d-4c1e-9f0a-2b3c4d5e6f70",
    });
    expect(propertiesOf(result)).toEqual(["adoptWalletId"]);
  });

  test("inputs unknown during preview are not judged", async () => {
    const result = await wallets.check(
      {},
      { resourceUrn: urnOf("PortfolioWallet"), positions: UNKNOWN_INPUT },
    );
    expect(result.failures ?? []).toEqual([]);
  });
});

describe("check(): WalletStrategy", () => {
  test("returns every failure at once: bad walletId and a bad weight sum", async () => {
    await resetRequestCounts(t);
    const result = await strategies.check(
      {},
      {
        resourceUrn: urnOf("WalletStrategy"),
        walletId: "wallet-1",
        positions: [{ positionKey: "tbills", targetWeightBps: 9999 }],
      },
    );
    expect(propertiesOf(result)).toEqual(["positions", "walletId"]);
    expect(await requestCounts(t)).toEqual({});
  });

  test("checks positionKeys against the catalog", async () => {
    const result = await strategies.check(
      {},
      {
        resourceUrn: urnOf("WalletStrategy"),
        walletId: "3f1c2a9e-8b7d-4c1e-9f0a-2b3c4d5e6f70",
        positions: [{ positionKey: "gold", targetWeightBps: 10000 }],
      },
    );
    expect(result.failures).toEqual([
      { property: "positions[0].positionKey", reason: expect.stringContaining("valid keys are: ") },
    ]);
  });
});

describe("check(): WebhookRegistration", () => {
  test("returns every failure at once: bad URL, unknown and repeated event types, without any request", async () => {
    await resetRequestCounts(t);
    const result = await webhooks.check(
      {},
      {
        resourceUrn: urnOf("WebhookRegistration"),
        url: "ftp://example.com/hooks",
        eventTypes: ["portfolio_wallet.balance.updated", "portfolio_wallet.mood.changed"],
        enabled: "yes",
      },
    );
    expect(propertiesOf(result)).toEqual(["enabled", "eventTypes[1]", "url"]);
    expect(
      result.failures.find((f: { property: string }) => f.property === "eventTypes[1]").reason,
    ).toContain("portfolio_wallet.strategy.status_changed");
    expect(await requestCounts(t)).toEqual({});
  });

  test("a repeated event type is a failure", async () => {
    const result = await webhooks.check(
      {},
      {
        resourceUrn: urnOf("WebhookRegistration"),
        url: "https://example.com/hooks",
        eventTypes: ["portfolio_wallet.balance.updated", "portfolio_wallet.balance.updated"],
      },
    );
    expect(propertiesOf(result)).toEqual(["eventTypes"]);
  });
});

describe("check(): requests", () => {
  test("many checks of every kind fetch the catalog once and make no mutating call", async () => {
    // A fresh sandbox is a fresh session: nothing is cached yet.
    const fresh = await startProviderSandbox();
    try {
      await wallets.configure(baseConfig(fresh));
      for (let i = 0; i < 5; i++) {
        await checked(wallets, {}, { resourceUrn: urnOf("PortfolioWallet"), positions: POSITIONS_A });
        await checked(
          strategies,
          {},
          {
            resourceUrn: urnOf("WalletStrategy"),
            walletId: "3f1c2a9e-8b7d-4c1e-9f0a-2b3c4d5e6f70",
            positions: POSITIONS_A,
          },
        );
        await checked(
          webhooks,
          {},
          {
            resourceUrn: urnOf("WebhookRegistration"),
            url: "https://example.com/hooks",
            eventTypes: ["portfolio_wallet.balance.updated"],
          },
        );
      }
      const counts = await requestCounts(fresh);
      expect(mutatingKeys(counts)).toEqual([]);
      expect(counts).toEqual({ "GET /v2/portfolio-wallets/strategies": 1 });
    } finally {
      await wallets.configure(baseConfig(t));
      await fresh.close();
    }
  });

  test("concurrent checks share one catalog fetch", async () => {
    const fresh = await startProviderSandbox();
    try {
      await wallets.configure(baseConfig(fresh));
      await Promise.all(
        Array.from({ length: 8 }, () =>
          checked(wallets, {}, { resourceUrn: urnOf("PortfolioWallet"), positions: POSITIONS_A }),
        ),
      );
      expect(await requestCounts(fresh)).toEqual({ "GET /v2/portfolio-wallets/strategies": 1 });
    } finally {
      await wallets.configure(baseConfig(t));
      await fresh.close();
    }
  });
});
