import { describe, expect, test } from "vitest";
import { UNKNOWN_INPUT } from "../../provider/check.ts";
import { portfolioWalletProvider, type PortfolioWalletOutputs } from "../../provider/portfolioWallet.ts";
import { diffInputsOf, type DiffInputs } from "../../provider/inputs.ts";
import { propertyPath, type ResourceDiff } from "../../provider/resourceDiff.ts";
import { walletStrategyProvider, type WalletStrategyOutputs } from "../../provider/walletStrategy.ts";
import {
  webhookRegistrationProvider,
  type WebhookRegistrationOutputs,
} from "../../provider/webhookRegistration.ts";

/** A kind's diff with engine inputs, read as the adapters read them (provider/inputs.ts). */
const diffWith =
  <K extends "portfolioWallet" | "walletStrategy" | "webhookRegistration">(
    kind: K,
    diff: (connect: never, id: string, olds: never, news: DiffInputs<K>) => Promise<ResourceDiff>,
  ) =>
  (connect: () => never, id: string, olds: unknown, news: Record<string, unknown>) =>
    diff(connect as never, id, olds as never, diffInputsOf(kind, news));
const portfolioWalletDiff = diffWith("portfolioWallet", portfolioWalletProvider.diff);
const walletStrategyDiff = diffWith("walletStrategy", walletStrategyProvider.diff);
const webhookRegistrationDiff = diffWith("webhookRegistration", webhookRegistrationProvider.diff);

/** Diffs need no service: a connection that is never made. */
const noService = () => {
  throw new Error("diff must not reach the service");
};
const WALLET_A = "0b3f5c1e-1d2a-4c7e-9f10-5a6b7c8d9e01";
const WALLET_B = "0b3f5c1e-1d2a-4c7e-9f10-5a6b7c8d9e02";
const URN = "urn:pulumi:dev::treasury::pulumi-nodejs:dynamic/portfoliowallet:PortfolioWallet::treasury";

const wallet = (targetWeightsBps: Record<string, number>, extra: Partial<PortfolioWalletOutputs> = {}) =>
  ({ resourceUrn: URN, targetWeightsBps, onDelete: "fail-if-funded", ...extra }) as PortfolioWalletOutputs;

describe("diffs name each changed property (provider/resourceDiff.ts)", () => {
  test("a reweight names each yield source: changed, added and removed", async () => {
    const diff = await portfolioWalletDiff(noService, "w", wallet({ tbills: 5000, syrupUsdc: 5000 }), {
      resourceUrn: URN,
      targetWeightsBps: { tbills: 3000, resolvRlp: 7000 },
    });
    expect(diff).toEqual({
      changes: true,
      replaces: [],
      deleteBeforeReplace: false,
      detailedDiff: {
        "targetWeightsBps.tbills": { kind: "update", replaces: false },
        "targetWeightsBps.syrupUsdc": { kind: "delete", replaces: false },
        "targetWeightsBps.resolvRlp": { kind: "add", replaces: false },
      },
    });
  });

  test("the same allocation in another order, from program positions, is no change", async () => {
    const diff = await portfolioWalletDiff(noService, "w", wallet({ tbills: 6000, syrupUsdc: 4000 }), {
      resourceUrn: URN,
      positions: [
        { positionKey: "syrupUsdc", targetWeightBps: 4000, currentApy: 7 },
        { positionKey: "tbills", targetWeightBps: 6000 },
      ],
    });
    expect(diff).toMatchObject({ changes: false, detailedDiff: {} });
  });

  test("an allocation still unknown at preview is one update of the whole map, never hidden", async () => {
    const diff = await portfolioWalletDiff(noService, "w", wallet({ tbills: 10000 }), {
      resourceUrn: URN,
      positions: [{ positionKey: "tbills", targetWeightBps: UNKNOWN_INPUT }],
    });
    expect(diff.detailedDiff).toEqual({ targetWeightsBps: { kind: "update", replaces: false } });
  });

  test("onDelete changes in place; its default counts as set", async () => {
    const unchanged = await portfolioWalletDiff(noService, "w", wallet({ tbills: 10000 }), {
      resourceUrn: URN,
      targetWeightsBps: { tbills: 10000 },
    });
    expect(unchanged.changes).toBe(false);
    const retain = await portfolioWalletDiff(noService, "w", wallet({ tbills: 10000 }), {
      resourceUrn: URN,
      targetWeightsBps: { tbills: 10000 },
      onDelete: "retain",
    });
    expect(retain.detailedDiff).toEqual({ onDelete: { kind: "update", replaces: false } });
  });

  test("another wallet replaces a WalletStrategy; a webhook's url replaces it, its status changes in place", async () => {
    const strategy = await walletStrategyDiff(
      noService,
      "s",
      {
        resourceUrn: URN,
        walletId: WALLET_A,
        targetWeightsBps: { tbills: 10000 },
      } as unknown as WalletStrategyOutputs,
      { resourceUrn: URN, walletId: WALLET_B, targetWeightsBps: { tbills: 10000 } },
    );
    expect(strategy).toMatchObject({ changes: true, replaces: ["walletId"] });
    const olds = {
      resourceUrn: URN,
      url: "https://a.example.com",
      eventTypes: ["portfolio_wallet.balance.updated"],
      enabled: true,
    } as WebhookRegistrationOutputs;
    const moved = await webhookRegistrationDiff(noService, "r", olds, {
      ...olds,
      url: "https://b.example.com",
    });
    expect(moved).toMatchObject({
      replaces: ["url"],
      detailedDiff: { url: { kind: "update", replaces: true } },
    });
    const disabled = await webhookRegistrationDiff(noService, "r", olds, {
      ...olds,
      enabled: false,
      disabledReason: "maintenance",
    });
    expect(disabled).toMatchObject({
      replaces: [],
      detailedDiff: { enabled: { kind: "update" }, disabledReason: { kind: "add" } },
    });
  });

  test("property paths quote keys that are not plain names", () => {
    expect(propertyPath("targetWeightsBps", "tbills")).toBe("targetWeightsBps.tbills");
    expect(propertyPath("targetWeightsBps", "usd.v2")).toBe('targetWeightsBps["usd.v2"]');
  });
});
