import { readFileSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { repoRoot } from "../../../scripts/pulumiEnv.ts";
import {
  POSITIONS_A,
  POSITIONS_B,
  TOKEN,
  baseConfig,
  providerOf,
  requestCounts,
  resetRequestCounts,
  urnOf,
  useProviderSandbox,
} from "../helpers.ts";
import { fundedWallet } from "../../support/sandboxAccess.ts";
import { NATIVE_TYPES, PluginClient, nativeUrnOf, secretValue } from "./pluginClient.ts";

/**
 * The native plugin over its real wire (a process, gRPC, protobuf), as the engine speaks to it:
 * the schema it serves, configuration with secrets, the resource lifecycle, detailed diffs,
 * secrets in and out, import reads, and invokes. It runs the one implementation: bad inputs get
 * the dynamic resources' errors word for word.
 */

const t = useProviderSandbox();
let plugin: PluginClient;
beforeAll(async () => {
  // An empty environment for the settings: everything comes through Configure.
  plugin = await PluginClient.start({ PORTFOLIO_WALLET_BASE_URL: "", PORTFOLIO_WALLET_API_TOKEN: "" });
});
afterAll(() => plugin.close());

const configure = () => plugin.configure({ baseUrl: t.url, apiToken: secretValue(TOKEN) });
const wallets = providerOf("portfolioWallet");
let resourceCounter = 0;
const walletUrn = () =>
  nativeUrnOf(NATIVE_TYPES.portfolioWallet, `wallet-${++resourceCounter}-${Date.now()}`);

describe("the native plugin (pulumi-resource-portfolio-wallet)", () => {
  test("serves the committed package schema and its version", async () => {
    const committed = readFileSync(path.join(repoRoot, "provider/native/schema.json"), "utf8");
    expect(JSON.parse(await plugin.getSchema())).toEqual(JSON.parse(committed));
    const { version } = JSON.parse(readFileSync(path.join(repoRoot, "package.json"), "utf8")) as {
      version: string;
    };
    expect(await plugin.pluginVersion()).toBe(version);
  });

  test("CheckConfig names each setting that is missing or wrong, with how to set it", async () => {
    const missing = await plugin.checkConfig({});
    expect(missing.failures.map((f) => f.property)).toEqual(["baseUrl", "apiToken"]);
    expect(missing.failures[1]!.reason).toMatch(/pulumi config set --secret portfolio-wallet:apiToken/);
    const wrong = await plugin.checkConfig({
      baseUrl: "ftp://x",
      apiToken: secretValue("t"),
      approvalTimeoutSeconds: "soon",
      retryTimeoutSeconds: 7200,
      outsideChanges: "ignore",
    });
    expect(wrong.failures.map((f) => f.property)).toEqual([
      "baseUrl",
      "approvalTimeoutSeconds",
      "retryTimeoutSeconds",
      "outsideChanges",
    ]);
    expect(wrong.failures[3]!.reason).toContain(
      'portfolio-wallet:outsideChanges must be "refuse" or "overwrite", got "ignore"',
    );
    expect(wrong.failures[2]!.reason).toMatch(
      /portfolio-wallet:retryTimeoutSeconds must be a number of seconds from 0 to 3600, got "7200"; set it with `pulumi config set portfolio-wallet:retryTimeoutSeconds <value>`/,
    );
    // A number, as the engine sends a setting the schema types as one.
    expect(
      (await plugin.checkConfig({ baseUrl: t.url, apiToken: secretValue("t"), retryTimeoutSeconds: 45 }))
        .failures,
    ).toEqual([]);
    expect((await plugin.checkConfig({ baseUrl: t.url, apiToken: secretValue("t") })).failures).toEqual([]);
  });

  test("bad inputs fail at check, before any request, with the dynamic resources' own errors", async () => {
    await configure();
    await wallets.configure(baseConfig(t));
    // The catalog read is the one request check may make, once per deployment: take it first.
    await plugin.check(NATIVE_TYPES.portfolioWallet, walletUrn(), {}, { positions: POSITIONS_A });
    const badInputs = {
      "an unknown positionKey": [
        { positionKey: "bitcoin", targetWeightBps: 6000 },
        { positionKey: "tbills", targetWeightBps: 4000 },
      ],
      "weights that do not sum to 10000": [
        { positionKey: "syrupUsdc", targetWeightBps: 6000 },
        { positionKey: "tbills", targetWeightBps: 3000 },
      ],
    };
    for (const [what, positions] of Object.entries(badInputs)) {
      await resetRequestCounts(t);
      const native = await plugin.check(NATIVE_TYPES.portfolioWallet, walletUrn(), {}, { positions });
      expect(await requestCounts(t), what).toEqual({});
      const dynamic = await wallets.check({}, { resourceUrn: urnOf("PortfolioWallet"), positions });
      expect(native.failures, what).toEqual(dynamic.failures);
      expect(native.failures, what).not.toEqual([]);
    }

    const created = await plugin.check(
      NATIVE_TYPES.portfolioWallet,
      walletUrn(),
      {},
      {
        positions: POSITIONS_A,
        label: "treasury",
      },
    );
    const relabel = await plugin.check(NATIVE_TYPES.portfolioWallet, walletUrn(), created.inputs, {
      positions: POSITIONS_A,
      label: "renamed",
    });
    expect(relabel.failures).toEqual([
      expect.objectContaining({
        property: "label",
        reason: expect.stringMatching(/cannot be changed from "treasury"/),
      }),
    ]);
  });

  test("a wallet's lifecycle: create, a reweight as a detailed diff, update, refresh, delete; no URN in state", async () => {
    await configure();
    const urn = walletUrn();
    const checked = await plugin.check(NATIVE_TYPES.portfolioWallet, urn, {}, { positions: POSITIONS_A });
    expect(checked.inputs).toEqual({
      targetWeightsBps: { tbills: 6000, syrupUsdc: 4000 },
      onDelete: "fail-if-funded",
    });
    const { id, outputs } = await plugin.create(NATIVE_TYPES.portfolioWallet, urn, checked.inputs);
    expect(outputs).toMatchObject({ walletId: id, targetWeightsBps: { tbills: 6000, syrupUsdc: 4000 } });
    expect(outputs).not.toHaveProperty("resourceUrn");
    expect(Object.keys(outputs["depositAddressByChain"] as object)).toContain("ethereum");

    // The same create again (a retried `up`) answers the same wallet: its requestId comes from the URN.
    expect((await plugin.create(NATIVE_TYPES.portfolioWallet, urn, checked.inputs)).id).toBe(id);

    const reweighted = await plugin.check(NATIVE_TYPES.portfolioWallet, urn, checked.inputs, {
      positions: POSITIONS_B,
    });
    const diff = await plugin.diff(NATIVE_TYPES.portfolioWallet, urn, id, outputs, reweighted.inputs);
    expect(diff).toEqual({
      changes: true,
      replaces: [],
      hasDetailedDiff: true,
      detailedDiff: { "targetWeightsBps.tbills": "UPDATE", "targetWeightsBps.syrupUsdc": "UPDATE" },
    });
    const updated = await plugin.update(NATIVE_TYPES.portfolioWallet, urn, id, outputs, reweighted.inputs);
    expect(updated.outputs).toMatchObject({ targetWeightsBps: { tbills: 2500, syrupUsdc: 7500 } });
    expect((await t.api("GET", `/v2/portfolio-wallets/${id}`)).body.strategyConfig.positions).toEqual(
      expect.arrayContaining([expect.objectContaining({ positionKey: "tbills", targetWeightBps: 2500 })]),
    );
    const unchanged = await plugin.diff(
      NATIVE_TYPES.portfolioWallet,
      urn,
      id,
      updated.outputs,
      reweighted.inputs,
    );
    expect(unchanged).toMatchObject({ changes: false, detailedDiff: {} });

    const refreshed = await plugin.read(
      NATIVE_TYPES.portfolioWallet,
      urn,
      id,
      updated.outputs,
      reweighted.inputs,
    );
    expect(refreshed.outputs).toEqual(updated.outputs);
    await plugin.delete(NATIVE_TYPES.portfolioWallet, urn, id, refreshed.outputs);
  });

  test("a funded wallet is not dropped unless onDelete says retain", async () => {
    await configure();
    const urn = walletUrn();
    const { wallet } = await fundedWallet({ url: t.url, token: TOKEN }, 250, { settleMs: 60_000 });
    const checked = await plugin.check(
      NATIVE_TYPES.portfolioWallet,
      urn,
      {},
      {
        positions: POSITIONS_A,
        adoptWalletId: wallet.id,
      },
    );
    const { id, outputs } = await plugin.create(NATIVE_TYPES.portfolioWallet, urn, checked.inputs);
    await expect(plugin.delete(NATIVE_TYPES.portfolioWallet, urn, id, outputs)).rejects.toThrow(
      /refusing to drop portfolio wallet .* it holds \$250\.00/,
    );
    await plugin.delete(NATIVE_TYPES.portfolioWallet, urn, id, { ...outputs, onDelete: "retain" });
  });

  test("`pulumi import`: a read with no state answers the wallet's inputs in the program's form", async () => {
    await configure();
    const created = await t.api("POST", "/v2/portfolio-wallets", {
      body: { requestId: crypto.randomUUID(), positions: POSITIONS_B, label: "imported" },
    });
    const imported = await plugin.read(NATIVE_TYPES.portfolioWallet, walletUrn(), created.body.id);
    expect(imported.id).toBe(created.body.id);
    expect(imported.inputs).toMatchObject({
      positions: [
        { positionKey: "syrupUsdc", targetWeightBps: 7500 },
        { positionKey: "tbills", targetWeightBps: 2500 },
      ],
      label: "imported",
    });
    const unknown = await plugin.read(NATIVE_TYPES.portfolioWallet, walletUrn(), crypto.randomUUID());
    expect(unknown.id).toBe("");
  });

  test("secrets come back secret: the webhook's signing secret, and an output whose input was secret", async () => {
    await configure();
    const urn = nativeUrnOf(NATIVE_TYPES.webhookRegistration, `hook-${Date.now()}`);
    const checked = await plugin.check(
      NATIVE_TYPES.webhookRegistration,
      urn,
      {},
      {
        url: "https://hooks.example.com/portfolio",
        eventTypes: ["portfolio_wallet.balance.updated"],
        description: secretValue("ops channel"),
      },
    );
    expect(checked.inputs["description"]).toEqual(secretValue("ops channel"));
    const { id, outputs } = await plugin.create(NATIVE_TYPES.webhookRegistration, urn, checked.inputs);
    expect(outputs["secret"]).toEqual(secretValue(expect.any(String)));
    expect(outputs["description"]).toEqual(secretValue("ops channel"));
    expect(outputs["url"]).toBe("https://hooks.example.com/portfolio");
    await plugin.delete(NATIVE_TYPES.webhookRegistration, urn, id, outputs);
  });

  test("invokes: the read functions, with their arguments checked first", async () => {
    await configure();
    const quote = await plugin.invoke("portfolio-wallet:index:getQuote", { minApyTargetBps: 400 });
    expect(quote.failures).toEqual([]);
    expect((quote.result["options"] as unknown[]).length).toBeGreaterThan(0);
    const strategies = await plugin.invoke("portfolio-wallet:index:getStrategies", {});
    expect(strategies.result["strategies"]).toEqual(
      expect.arrayContaining([expect.objectContaining({ positionKey: "tbills" })]),
    );
    const bad = await plugin.invoke("portfolio-wallet:index:getWallet", { walletId: "wallet-1" });
    expect(bad.failures).toEqual([{ property: "walletId", reason: expect.stringMatching(/UUID/) }]);
    await expect(plugin.invoke("portfolio-wallet:index:getEverything", {})).rejects.toThrow(
      /no function .*getQuote/,
    );
  });

  test("the API token never reaches the plugin's output", () => {
    expect(plugin.stderr).not.toContain(TOKEN);
  });
});
