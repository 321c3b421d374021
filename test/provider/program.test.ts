import { describe, expect, test } from "vitest";
import { runMockedProgram, type MockedRegistration } from "./helpers.ts";

/**
 * Programs with `pulumi.runtime.setMocks`: what the resource classes register. The program runs
 * in a plain Node process (test/provider/programs/mockedProgram.ts explains why).
 */

const byType = (registrations: MockedRegistration[], type: string) =>
  registrations.filter((registration) => registration.type === type);

describe("resource classes under mocks", () => {
  test("register the dynamic type tokens, pass resourceUrn equal to the URN, and mark secret as a secret output", async () => {
    const report = await runMockedProgram("all-kinds");
    expect(report.registrations.map((r) => r.type).sort()).toEqual([
      "pulumi-nodejs:dynamic/portfoliowallet:PortfolioWallet",
      "pulumi-nodejs:dynamic/walletstrategy:WalletStrategy",
      "pulumi-nodejs:dynamic/webhookregistration:WebhookRegistration",
    ]);
    for (const registration of report.registrations) {
      // The provider derives every requestId from this input: it must be the resource's real URN.
      expect(registration.inputs["resourceUrn"]).toBe(registration.urn);
      expect(typeof registration.inputs["__provider"]).toBe("string");
    }
    const [webhook] = byType(
      report.registrations,
      "pulumi-nodejs:dynamic/webhookregistration:WebhookRegistration",
    );
    expect(webhook?.additionalSecretOutputs).toEqual(["secret"]);
    const [wallet] = byType(report.registrations, "pulumi-nodejs:dynamic/portfoliowallet:PortfolioWallet");
    expect(wallet?.inputs).toMatchObject({
      label: "treasury",
      positions: [
        { positionKey: "tbills", targetWeightBps: 6000 },
        { positionKey: "syrupUsdc", targetWeightBps: 4000 },
      ],
    });
    expect(report.errors).toEqual([]);
    expect(report.hasErrors).toBe(false);
    // Registration runs without stack-trace capture (see withoutStackTraces), and restores it.
    expect(report.stackTraceLimitAfter).toBe(17);
  });

  test("a resource under a component gets the component's type chain in its resourceUrn", async () => {
    const report = await runMockedProgram("parented");
    const [wallet] = byType(report.registrations, "pulumi-nodejs:dynamic/portfoliowallet:PortfolioWallet");
    expect(wallet?.urn).toContain(
      "acme:treasury:Treasury$pulumi-nodejs:dynamic/portfoliowallet:PortfolioWallet::ops-wallet",
    );
    expect(wallet?.inputs["resourceUrn"]).toBe(wallet?.urn);
  });

  test("a PortfolioWallet and a WalletStrategy on the same wallet log an error naming both", async () => {
    const report = await runMockedProgram("wallet-and-strategy-on-one-wallet");
    expect(report.hasErrors).toBe(true);
    expect(report.errors).toHaveLength(1);
    expect(report.errors[0]).toContain('WalletStrategy "treasury-strategy"');
    expect(report.errors[0]).toContain('PortfolioWallet "treasury"');
    expect(report.errors[0]).toContain("treasury-wallet-id");
  });

  test("two WalletStrategies on the same wallet log an error", async () => {
    const report = await runMockedProgram("two-strategies-on-one-wallet");
    expect(report.hasErrors).toBe(true);
    expect(report.errors).toEqual([
      expect.stringMatching(/WalletStrategy "second" and WalletStrategy "first" both manage/),
    ]);
  });
});
