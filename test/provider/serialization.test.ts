import { createRequire } from "node:module";
import { beforeAll, describe, expect, test } from "vitest";
import type * as dynamic from "@pulumi/pulumi/dynamic/index.js";
import {
  POSITIONS_A,
  approverConfig,
  baseConfig,
  canonical,
  configSource,
  generateTurnkeyApiKeyPair,
  runMockedProgram,
  textOf,
  walletTargets,
  type MockedProgramReport,
  useProviderSandbox,
} from "./helpers.ts";

/**
 * The serialized provider as Pulumi stores it in each resource's `__provider`: produced by the
 * real resource classes in a mocked program (dynamic.Resource → serializeProvider →
 * runtime.serializeFunction), then loaded the way the dynamic-provider host loads it
 * (require-from-string, `.handler()`), configured and run against the sandbox.
 */

const require = createRequire(import.meta.url);
const requireFromString = require("require-from-string") as (code: string) => {
  handler(): dynamic.ResourceProvider;
};

const API_TOKEN = "pw-live-token-5f2c9a7e1b3d4c6f8a0e2b4d6f8a1c3e";
const approverKeys = generateTurnkeyApiKeyPair();
/**
 * Here the program imports the sources, outside node_modules, so the serializer copies the provider
 * by value; an installed package is serialized by reference, and its 1 KB bound is asserted in
 * test/consumer/layouts.engine.test.ts.
 */
const SIZE_LIMIT_BYTES = 8 * 1024;

const KINDS = {
  PortfolioWallet: "pulumi-nodejs:dynamic/portfoliowallet:PortfolioWallet",
  WalletStrategy: "pulumi-nodejs:dynamic/walletstrategy:WalletStrategy",
  WebhookRegistration: "pulumi-nodejs:dynamic/webhookregistration:WebhookRegistration",
} as const;

const t = useProviderSandbox({ sandbox: { tokens: { [API_TOKEN]: "org-serialized" } } });
let report: MockedProgramReport;
beforeAll(async () => {
  // The program runs with the secrets in its stack config and environment, as a real `up` does.
  const secrets = {
    "portfolio-wallet:baseUrl": t.url,
    "portfolio-wallet:apiToken": API_TOKEN,
    ...approverConfig(t, approverKeys, "org-serialized"),
  };
  report = await runMockedProgram("all-kinds", {
    PULUMI_CONFIG: JSON.stringify(secrets),
    PORTFOLIO_WALLET_API_TOKEN: API_TOKEN,
    TURNKEY_API_PRIVATE_KEY: approverKeys.apiPrivateKey,
  });
});

function serializedProviderOf(type: string): string {
  const registration = report.registrations.find((r) => r.type === type);
  expect(registration, `a ${type} was registered`).toBeDefined();
  const text = registration!.inputs["__provider"];
  expect(typeof text).toBe("string");
  return text as string;
}

describe("serialized provider (__provider)", () => {
  test.each(Object.entries(KINDS))(
    "%s: small, and free of the API token and the Turnkey private key",
    (name, type) => {
      const text = serializedProviderOf(type);
      const bytes = Buffer.byteLength(text, "utf8");
      console.log(`serialized __provider of ${name}: ${bytes} bytes`);
      expect(bytes).toBeLessThan(SIZE_LIMIT_BYTES);
      expect(text).not.toContain(API_TOKEN);
      expect(text.toLowerCase()).not.toContain(approverKeys.apiPrivateKey.toLowerCase());
      expect(text).not.toContain(Buffer.from(approverKeys.apiPrivateKey, "hex").toString("base64url"));
      // Nothing else of the configuration is captured either.
      expect(text).not.toContain(t.url);
    },
  );

  test("every resource's inputs, __provider included, are free of the secrets", () => {
    const all = textOf(report.registrations);
    expect(all).not.toContain(API_TOKEN);
    expect(all.toLowerCase()).not.toContain(approverKeys.apiPrivateKey.toLowerCase());
  });

  test("loaded as the dynamic-provider host loads it, the PortfolioWallet provider configures, checks, creates, reads and deletes", async () => {
    const provider = requireFromString(serializedProviderOf(KINDS.PortfolioWallet)).handler();
    const config = configSource(baseConfig(t, API_TOKEN));
    await provider.configure!({ config } as unknown as dynamic.ConfigureRequest);

    const resourceUrn = `urn:pulumi:test::portfolio-wallet::${KINDS.PortfolioWallet}::serialized-${Date.now()}`;
    const checkedResult = await provider.check!({}, { resourceUrn, positions: POSITIONS_A });
    expect(checkedResult.failures ?? []).toEqual([]);
    const created = await provider.create(checkedResult.inputs);
    expect(await walletTargets(t, created.id, API_TOKEN)).toEqual(canonical(POSITIONS_A));
    expect(textOf(created.outs)).not.toContain(API_TOKEN);

    const read = await provider.read!(created.id, created.outs);
    expect(read.id).toBe(created.id);
    const diff = await provider.diff!(created.id, read.props, checkedResult.inputs);
    expect(diff.changes).toBe(false);
    await provider.delete!(created.id, created.outs);
  });

  test("loaded the same way, the WebhookRegistration and WalletStrategy providers run against the sandbox", async () => {
    const config = configSource(baseConfig(t, API_TOKEN));
    const webhooks = requireFromString(serializedProviderOf(KINDS.WebhookRegistration)).handler();
    await webhooks.configure!({ config } as unknown as dynamic.ConfigureRequest);
    const webhookInputs = await webhooks.check!(
      {},
      {
        resourceUrn: `urn:pulumi:test::portfolio-wallet::${KINDS.WebhookRegistration}::serialized-${Date.now()}`,
        url: "https://hooks.example.com/serialized",
        eventTypes: ["portfolio_wallet.balance.updated"],
      },
    );
    const webhook = await webhooks.create(webhookInputs.inputs);
    expect(webhook.outs.secret).toEqual(expect.any(String));
    await webhooks.delete!(webhook.id, webhook.outs);

    const wallets = requireFromString(serializedProviderOf(KINDS.PortfolioWallet)).handler();
    await wallets.configure!({ config } as unknown as dynamic.ConfigureRequest);
    const wallet = await wallets.create(
      (
        await wallets.check!(
          {},
          {
            resourceUrn: `urn:pulumi:test::portfolio-wallet::${KINDS.PortfolioWallet}::for-strategy-${Date.now()}`,
            positions: POSITIONS_A,
          },
        )
      ).inputs,
    );
    const strategies = requireFromString(serializedProviderOf(KINDS.WalletStrategy)).handler();
    await strategies.configure!({ config } as unknown as dynamic.ConfigureRequest);
    const target = [{ positionKey: "syrupUsdc", targetWeightBps: 10000 }];
    const strategyInputs = await strategies.check!(
      {},
      {
        resourceUrn: `urn:pulumi:test::portfolio-wallet::${KINDS.WalletStrategy}::serialized-${Date.now()}`,
        walletId: wallet.id,
        positions: target,
      },
    );
    expect(strategyInputs.failures ?? []).toEqual([]);
    const strategy = await strategies.create(strategyInputs.inputs);
    expect(strategy.outs.strategyChangeStatus).toBe("completed");
    expect(await walletTargets(t, wallet.id, API_TOKEN)).toEqual(target);
  });
});
