import { cpSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { repoRoot } from "../../scripts/pulumiEnv.ts";
import { generateTurnkeyApiKeyPair } from "../approval/turnkeyKeys.ts";
import { filesUnder, hexKeySecret, secretFindings, textSecret } from "../e2e/harness/secrets.ts";
import { ORG, startTestSandbox, TOKEN, type TestSandbox } from "../sandbox/helpers.ts";
import { requestCounts, resetRequestCounts } from "../support/sandboxAccess.ts";
import { LanguageProject } from "./harness/languageProject.ts";

/**
 * A Python program outside this repository, as a Python user has it: the SDK generated from the
 * package schema (sdk/python) installed with pip beside `pulumi` from PyPI, the plugin installed
 * from its release archive, the real engine with the Python language host. The lifecycle a treasury
 * goes through: up, a no-change preview, a reweight shown per yield source, an update approved at
 * the signing provider during `up`, refresh, `pulumi import`, bad input refused at preview, and a
 * funded wallet that destroy will not drop.
 */

const POSITIONS_A = [
  { positionKey: "tbills", targetWeightBps: 6000 },
  { positionKey: "syrupUsdc", targetWeightBps: 4000 },
];
const POSITIONS_B = [
  { positionKey: "tbills", targetWeightBps: 5000 },
  { positionKey: "syrupUsdc", targetWeightBps: 5000 },
];
const POSITIONS_C = [
  { positionKey: "tbills", targetWeightBps: 3000 },
  { positionKey: "resolvRlp", targetWeightBps: 7000 },
];
const approverKeys = generateTurnkeyApiKeyPair();
/** The stack's API token: distinctive, so that finding it anywhere in state cannot be an accident. */
const STACK_TOKEN = `pw-python-stack-token-${crypto.randomUUID()}`;

let t: TestSandbox;
let project: LanguageProject;
const access = () => ({ url: t.url, token: TOKEN });

async function setPositions(positions: unknown): Promise<void> {
  await project.pulumi(["config", "set", "positions", JSON.stringify(positions)]);
}

async function walletAtService(walletId: string) {
  return (await t.api("GET", `/v2/portfolio-wallets/${walletId}`)).body;
}

beforeAll(async () => {
  t = await startTestSandbox({
    rebalanceDelayMs: 5,
    tokens: { [TOKEN]: ORG, [STACK_TOKEN]: ORG },
  });
  project = await LanguageProject.create(
    path.join(import.meta.dirname, "programs", "python-treasury"),
    "python",
  );
  // The SDK as a user gets it (a copy of the generated directory: pip builds in place).
  cpSync(path.join(repoRoot, "sdk", "python"), path.join(project.dir, "sdks", "python"), { recursive: true });
  project.writeFile("requirements.txt", "pulumi==3.259.0\n./sdks/python\n");
  await project.createVirtualEnvironment();
  await project.pulumi(["stack", "init", "dev"]);
  await project.pulumi(["config", "set", "portfolio-wallet:baseUrl", t.url]);
  await project.pulumi(["config", "set", "--secret", "portfolio-wallet:apiToken", STACK_TOKEN]);
  await setPositions(POSITIONS_A);
}, 300_000);

afterAll(async () => {
  project?.cleanUp();
  await t?.close();
});

describe("a Python program with the generated SDK and the native plugin", () => {
  test("up: deposit addresses and the blended rate are stack outputs, the webhook secret is a secret", async () => {
    await project.pulumi(["up", "--yes", "--skip-preview"]);
    const outputs = await project.outputs();
    expect(outputs["walletId"]).toMatch(/^[0-9a-f-]{36}$/);
    expect(outputs["depositAddresses"]["ethereum"]).toMatch(/^0x[0-9a-f]{40}$/);
    expect(Object.keys(outputs["depositAddresses"])).toContain("solana");
    expect(outputs["blendedRateBps"]).toBeGreaterThan(0);
    expect(outputs["quotedOptions"]).toBeGreaterThan(0);
    expect(outputs["webhookSecret"]).toMatch(/\S{16,}/);
    const shown = (await project.pulumi(["stack", "output", "webhookSecret"])).stdout;
    expect(shown.trim()).toBe("[secret]");
    expect((await walletAtService(outputs["walletId"])).strategyConfig.positions).toHaveLength(2);
  });

  test("a no-change preview changes nothing and sends nothing that changes anything", async () => {
    await resetRequestCounts(access());
    expect(await project.previewChanges()).toEqual({});
    const mutating = Object.keys(await requestCounts(access())).filter((route) => !route.startsWith("GET "));
    // The quote is a POST that only reads.
    expect(mutating).toEqual(["POST /v2/portfolio-wallets/quote"]);
  });

  test("a reweight previews as an in-place update naming each changed source; up applies it", async () => {
    await setPositions(POSITIONS_B);
    const preview = (await project.pulumi(["preview", "--diff"])).stdout;
    expect(preview).toMatch(/~ portfolio-wallet:index:PortfolioWallet: \(update\)/);
    expect(preview).toMatch(
      /~ targetWeightsBps: \{[\s\S]*~ syrupUsdc: 4000 => 5000[\s\S]*~ tbills\s*: 6000 => 5000/,
    );
    expect(await project.previewChanges()).toEqual({ update: 1 });
    await project.pulumi(["up", "--yes", "--skip-preview"]);
    const { walletId } = await project.outputs();
    expect((await walletAtService(walletId)).strategyConfig.positions).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ positionKey: "tbills", targetWeightBps: 5000 }),
        expect.objectContaining({ positionKey: "syrupUsdc", targetWeightBps: 5000 }),
      ]),
    );
  });

  test("a strategy update held for approval is approved during up with the stack's Turnkey key", async () => {
    expect((await t.api("PUT", "/_sandbox/policy", { body: { strategyUpdateApprovals: 1 } })).status).toBe(
      200,
    );
    const registered = await t.api("POST", "/_sandbox/signing/api-keys", {
      body: { publicKey: approverKeys.apiPublicKey, userName: "python pipeline" },
    });
    expect(registered.status).toBe(201);
    await project.pulumi(["config", "set", "portfolio-wallet:turnkeyApiBaseUrl", t.url]);
    await project.pulumi(["config", "set", "portfolio-wallet:turnkeyOrganizationId", ORG]);
    await project.pulumi([
      "config",
      "set",
      "portfolio-wallet:turnkeyApiPublicKey",
      approverKeys.apiPublicKey,
    ]);
    await project.pulumi([
      "config",
      "set",
      "--secret",
      "portfolio-wallet:turnkeyApiPrivateKey",
      approverKeys.apiPrivateKey,
    ]);
    await setPositions(POSITIONS_C);
    await project.pulumi(["up", "--yes", "--skip-preview"]);
    const outputs = await project.outputs();
    expect(outputs["strategyChangeStatus"]).toBe("completed");
    expect(outputs["targetWeightsBps"]).toEqual({ tbills: 3000, resolvRlp: 7000 });
    const wallet = await walletAtService(outputs["walletId"]);
    expect(wallet.strategyConfig.positions.map((p: { positionKey: string }) => p.positionKey).sort()).toEqual(
      ["resolvRlp", "tbills"],
    );
    const [resource] = (await project.stateResources()).filter((r) => r.urn.endsWith("::treasury"));
    const activity = await t.api(
      "GET",
      `/_sandbox/signing-activities/${resource!.outputs!["strategyChange"].signingActivityId}`,
    );
    expect(activity.body.status).toBe("ACTIVITY_STATUS_COMPLETED");
  });

  test("refresh reads the wallet back; the next preview shows no change", async () => {
    await project.pulumi(["refresh", "--yes", "--skip-preview"]);
    expect(await project.previewChanges()).toEqual({});
  });

  test("bad input is refused at preview, before any request that changes anything, naming the field", async () => {
    const cases = [
      {
        positions: [
          { positionKey: "bitcoin", targetWeightBps: 3000 },
          { positionKey: "resolvRlp", targetWeightBps: 7000 },
        ],
        message: /property positions\[0\]\.positionKey .* has a problem: unknown positionKey "bitcoin"/,
      },
      {
        positions: [
          { positionKey: "tbills", targetWeightBps: 3000 },
          { positionKey: "resolvRlp", targetWeightBps: 6000 },
        ],
        message:
          /property positions .* has a problem: target weights sum to 9000 bps; they must sum to exactly 10000/,
      },
    ];
    for (const { positions, message } of cases) {
      await setPositions(positions);
      await resetRequestCounts(access());
      await expect(project.pulumi(["preview"])).rejects.toThrow(message);
      const mutating = Object.keys(await requestCounts(access())).filter(
        (route) => !route.startsWith("GET ") && route !== "POST /v2/portfolio-wallets/quote",
      );
      expect(mutating).toEqual([]);
    }
    await setPositions(POSITIONS_C);
    await project.pulumi(["config", "set", "label", "renamed"]);
    await expect(project.pulumi(["preview"])).rejects.toThrow(
      /property label .* has a problem: cannot be changed from null/,
    );
    await project.pulumi(["config", "rm", "label"]);
  });

  test("pulumi import adopts a wallet made outside the stack; the program's code for it previews as no change", async () => {
    const created = await t.api("POST", "/v2/portfolio-wallets", {
      body: {
        requestId: crypto.randomUUID(),
        label: "legacy",
        positions: [
          { positionKey: "tbills", targetWeightBps: 2500 },
          { positionKey: "resolvRlp", targetWeightBps: 7500 },
        ],
      },
    });
    expect(created.status).toBe(201);
    // This engine's Python host cannot print code (docs/languages.md); the program holds it already.
    await project.pulumi([
      "import",
      "portfolio-wallet:index:PortfolioWallet",
      "legacy",
      created.body.id,
      "--yes",
      "--protect=false",
      "--generate-code=false",
    ]);
    await project.pulumi(["config", "set", "importedWalletId", created.body.id]);
    expect(await project.previewChanges()).toEqual({});
    const imported = (await project.stateResources()).find((r) => r.urn.endsWith("::legacy"));
    expect(imported?.id).toBe(created.body.id);
  });

  test("destroy will not drop a funded wallet; with onDelete retain it leaves the stack and keeps its funds", async () => {
    const { walletId } = await project.outputs();
    const wallet = await walletAtService(walletId);
    const deposit = await t.api("POST", "/_sandbox/deposits", {
      body: {
        chain: "ethereum",
        address: wallet.depositAddresses.ethereum.address,
        amount: 2500,
        txHash: `0x${crypto.randomUUID().replaceAll("-", "")}`,
      },
    });
    expect(deposit.status).toBe(201);
    await t.api("POST", "/_sandbox/clock/advance", { body: { seconds: 3600 } });
    await expect(project.pulumi(["destroy", "--yes", "--skip-preview"])).rejects.toThrow(
      /refusing to drop portfolio wallet .* it holds 2,500\.\d\d USD/,
    );
    await project.pulumi(["config", "set", "onDelete", "retain"]);
    await project.pulumi(["up", "--yes", "--skip-preview"]);
    await project.pulumi(["destroy", "--yes", "--skip-preview"]);
    expect(await project.stateResources()).toEqual([]);
    expect((await walletAtService(walletId)).totalBalanceUsd).toBeGreaterThanOrEqual(2500);
  });

  test("the API token and the signing key never reach the state backend in plaintext", () => {
    const findings = secretFindings(filesUnder(path.join(project.stateDir, ".pulumi")), [
      textSecret("API token", STACK_TOKEN),
      hexKeySecret("Turnkey private key", approverKeys.apiPrivateKey),
    ]);
    expect(findings).toEqual([]);
  });
});
