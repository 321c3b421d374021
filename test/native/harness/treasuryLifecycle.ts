import path from "node:path";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { generateTurnkeyApiKeyPair } from "../../sdk/approval/turnkeyKeys.ts";
import { filesUnder, hexKeySecret, secretFindings, textSecret } from "../../e2e/harness/secrets.ts";
import { ORG, startTestSandbox, TOKEN, type TestSandbox } from "../../sandbox/helpers.ts";
import { requestCounts, resetRequestCounts } from "../../support/sandboxAccess.ts";
import { configSetAll } from "../../support/pulumiConfig.ts";
import { changesInPreviewText } from "../../support/previewText.ts";
import type { LanguageProject } from "./languageProject.ts";

/**
 * The lifecycle a treasury goes through, the same in every language whose program uses the native
 * plugin through a generated SDK (Python, Go, Java): up, a no-change preview, a reweight shown per
 * yield source, `pulumi import` of a wallet made through the API, destroy, and the secrets kept out
 * of the backend. One language (`languageIndependentSteps`) also runs what the language cannot
 * change: an update approved at the signing provider during `up`, refresh, bad input refused at
 * preview, and a funded wallet that destroy will not drop. Each language's test file gives only
 * how its project is made.
 *
 * Every program (test/native/programs/<language>-treasury) is the same treasury, written once per
 * language: stack config `positions` (JSON list of {positionKey, targetWeightBps}), `label` and
 * `onDelete` (optional), `importedWalletId` (optional: then a wallet "legacy" with the code
 * `pulumi import` gives for it); a webhook registration; a quote; outputs walletId,
 * depositAddresses, blendedRateBps, targetWeightsBps, strategyChangeStatus, webhookSecret (a
 * secret) and quotedOptions.
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
/** The allocation of the wallet made outside the stack, as the programs' "legacy" code has it. */
const LEGACY_POSITIONS = [
  { positionKey: "tbills", targetWeightBps: 2500 },
  { positionKey: "resolvRlp", targetWeightBps: 7500 },
];

export interface LifecycleOptions {
  /** How long making the project takes at most (installing an SDK, compiling), in ms. */
  setUpTimeoutMs?: number;
  /** How long one step (a `pulumi up` that compiles the program, say) takes at most, in ms. */
  stepTimeoutMs?: number;
  /**
   * For a language whose host prints code on `pulumi import`: checks that code (what `pulumi import`
   * printed to stdout), for example by compiling it against the SDK. Without it, the import asks for
   * no code.
   */
  checkImportCode?: (printed: string, project: LanguageProject) => Promise<void>;
  /**
   * Whether this language also runs the steps whose outcome the language cannot change: an update
   * approved at the signing provider during `up`, refresh, bad input refused at preview, and a
   * funded wallet that destroy will not drop. They are the plugin's and the engine's behaviour, not
   * the SDK's, so one language runs them for the native plugin (Python: the fastest to start), and
   * the others keep only what is their own (their SDK's types and outputs, a reweight, import with
   * their code, secrets in their state, destroy). docs/testing.md lists where each step runs.
   */
  languageIndependentSteps: boolean;
}

/**
 * Registers the lifecycle's tests. `createProject` makes the language's project (SDK installed,
 * program ready to run, no stack yet); the lifecycle initializes the stack and its config.
 */
export function describeTreasuryLifecycle(
  title: string,
  createProject: () => Promise<LanguageProject>,
  options: LifecycleOptions,
): void {
  const approverKeys = generateTurnkeyApiKeyPair();
  /** The stack's API token: distinctive, so that finding it anywhere in state cannot be an accident. */
  const stackToken = `pw-lifecycle-stack-token-${crypto.randomUUID()}`;
  const stepTimeout = options.stepTimeoutMs ?? 120_000;
  /** Registers a language-independent step only in the language that runs them (not skipped: absent). */
  const testLanguageIndependent = options.languageIndependentSteps ? test : () => undefined;

  let t: TestSandbox;
  let project: LanguageProject;
  const access = () => ({ url: t.url, token: TOKEN });
  const setPositions = async (positions: unknown) => {
    await project.pulumi(["config", "set", "positions", JSON.stringify(positions)]);
  };
  const approverConfig = (): { plain: Record<string, string>; secret: Record<string, string> } => ({
    plain: {
      "portfolio-wallet:turnkeyApiBaseUrl": t.url,
      "portfolio-wallet:turnkeyOrganizationId": ORG,
      "portfolio-wallet:turnkeyApiPublicKey": approverKeys.apiPublicKey,
    },
    secret: { "portfolio-wallet:turnkeyApiPrivateKey": approverKeys.apiPrivateKey },
  });
  const walletAtService = async (walletId: string) =>
    (await t.api("GET", `/v2/portfolio-wallets/${walletId}`)).body;

  describe(title, () => {
    beforeAll(async () => {
      t = await startTestSandbox({
        rebalanceDelayMs: 5,
        tokens: { [TOKEN]: ORG, [stackToken]: ORG },
      });
      project = await createProject();
      await project.pulumi(["stack", "init", "dev"]);
      // Without the approval step, the signing key is still in the stack's config from the first
      // `up` on, so the last test still checks that it never reaches the backend in plaintext.
      const approver = options.languageIndependentSteps ? { plain: {}, secret: {} } : approverConfig();
      await project.pulumi(
        configSetAll(
          { "portfolio-wallet:baseUrl": t.url, positions: JSON.stringify(POSITIONS_A), ...approver.plain },
          { "portfolio-wallet:apiToken": stackToken, ...approver.secret },
        ),
      );
    }, options.setUpTimeoutMs ?? 300_000);

    afterAll(async () => {
      project?.cleanUp();
      await t?.close();
    });

    test(
      "up: deposit addresses and the blended rate are stack outputs, the webhook secret is a secret",
      async () => {
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
      },
      stepTimeout,
    );

    test(
      "a no-change preview changes nothing and sends nothing that changes anything",
      async () => {
        await resetRequestCounts(access());
        expect(await project.previewChanges()).toEqual({});
        const mutating = Object.keys(await requestCounts(access())).filter(
          (route) => !route.startsWith("GET "),
        );
        // The quote is a POST that only reads.
        expect(mutating).toEqual(["POST /v2/portfolio-wallets/quote"]);
      },
      stepTimeout,
    );

    test(
      "a reweight previews as an in-place update naming each changed source; up applies it",
      async () => {
        await setPositions(POSITIONS_B);
        const preview = (await project.pulumi(["preview", "--diff"])).stdout;
        expect(preview).toMatch(/~ portfolio-wallet:index:PortfolioWallet: \(update\)/);
        expect(preview).toMatch(
          /~ targetWeightsBps: \{[\s\S]*~ syrupUsdc: 4000 => 5000[\s\S]*~ tbills\s*: 6000 => 5000/,
        );
        expect(changesInPreviewText(preview)).toEqual({ update: 1 });
        await project.pulumi(["up", "--yes", "--skip-preview"]);
        const { walletId } = await project.outputs();
        expect((await walletAtService(walletId)).strategyConfig.positions).toEqual(
          expect.arrayContaining([
            expect.objectContaining({ positionKey: "tbills", targetWeightBps: 5000 }),
            expect.objectContaining({ positionKey: "syrupUsdc", targetWeightBps: 5000 }),
          ]),
        );
      },
      stepTimeout,
    );

    testLanguageIndependent(
      "a strategy update held for approval is approved during up with the stack's Turnkey key",
      async () => {
        expect(
          (await t.api("PUT", "/_sandbox/policy", { body: { strategyUpdateApprovals: 1 } })).status,
        ).toBe(200);
        const registered = await t.api("POST", "/_sandbox/signing/api-keys", {
          body: { publicKey: approverKeys.apiPublicKey, userName: `${title} pipeline` },
        });
        expect(registered.status).toBe(201);
        const approver = approverConfig();
        await project.pulumi(
          configSetAll({ ...approver.plain, positions: JSON.stringify(POSITIONS_C) }, approver.secret),
        );
        await project.pulumi(["up", "--yes", "--skip-preview"]);
        const outputs = await project.outputs();
        expect(outputs["strategyChangeStatus"]).toBe("completed");
        expect(outputs["targetWeightsBps"]).toEqual({ tbills: 3000, resolvRlp: 7000 });
        const wallet = await walletAtService(outputs["walletId"]);
        expect(
          wallet.strategyConfig.positions.map((p: { positionKey: string }) => p.positionKey).sort(),
        ).toEqual(["resolvRlp", "tbills"]);
        const [resource] = (await project.stateResources()).filter((r) => r.urn.endsWith("::treasury"));
        const activity = await t.api(
          "GET",
          `/_sandbox/signing-activities/${resource!.outputs!["strategyChange"].signingActivityId}`,
        );
        expect(activity.body.status).toBe("ACTIVITY_STATUS_COMPLETED");
      },
      stepTimeout,
    );

    testLanguageIndependent(
      "refresh reads the wallet back; the next preview shows no change",
      async () => {
        await project.pulumi(["refresh", "--yes", "--skip-preview"]);
        expect(await project.previewChanges()).toEqual({});
      },
      stepTimeout,
    );

    testLanguageIndependent(
      "bad input is refused at preview, before any request that changes anything, naming the field",
      async () => {
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
      },
      stepTimeout * 2,
    );

    test(
      "pulumi import adopts a wallet made outside the stack; the program's code for it previews as no change",
      async () => {
        const created = await t.api("POST", "/v2/portfolio-wallets", {
          body: { requestId: crypto.randomUUID(), label: "legacy", positions: LEGACY_POSITIONS },
        });
        expect(created.status).toBe(201);
        // This engine's Python and Go hosts cannot print code (docs/languages.md): the program holds
        // the code already, as a user pastes it from docs/languages.md. Java's prints it: checked.
        const imported = await project.pulumi([
          "import",
          "portfolio-wallet:index:PortfolioWallet",
          "legacy",
          created.body.id,
          "--yes",
          "--protect=false",
          ...(options.checkImportCode === undefined ? ["--generate-code=false"] : []),
        ]);
        await options.checkImportCode?.(imported.stdout, project);
        await project.pulumi(["config", "set", "importedWalletId", created.body.id]);
        expect(await project.previewChanges()).toEqual({});
        const inState = (await project.stateResources()).find((r) => r.urn.endsWith("::legacy"));
        expect(inState?.id).toBe(created.body.id);
      },
      stepTimeout,
    );

    testLanguageIndependent(
      "destroy will not drop a funded wallet; with onDelete retain it leaves the stack and keeps its funds",
      async () => {
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
          /refusing to drop portfolio wallet .* it holds \$2,500\.\d\d/,
        );
        await project.pulumi(["config", "set", "onDelete", "retain"]);
        await project.pulumi(["up", "--yes", "--skip-preview"]);
        await project.pulumi(["destroy", "--yes", "--skip-preview"]);
        expect(await project.stateResources()).toEqual([]);
        expect((await walletAtService(walletId)).totalBalanceUsd).toBeGreaterThanOrEqual(2500);
      },
      stepTimeout * 3,
    );

    if (!options.languageIndependentSteps) {
      test(
        "destroy removes the empty wallets from the stack",
        async () => {
          await project.pulumi(["destroy", "--yes", "--skip-preview"]);
          expect(await project.stateResources()).toEqual([]);
        },
        stepTimeout,
      );
    }

    test("the API token and the signing key never reach the state backend in plaintext", () => {
      const findings = secretFindings(filesUnder(path.join(project.stateDir, ".pulumi")), [
        textSecret("API token", stackToken),
        hexKeySecret("Turnkey private key", approverKeys.apiPrivateKey),
      ]);
      expect(findings).toEqual([]);
    });
  });
}
