import path from "node:path";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { repoRoot } from "../../scripts/pulumiEnv.ts";
import { LanguageProject } from "../native/harness/languageProject.ts";
import { installJavaSdk, installPythonSdk, useGoSdk } from "../native/harness/sdks.ts";
import { ORG, startTestSandbox, TOKEN, type TestSandbox } from "../sandbox/helpers.ts";

/**
 * Every language's example in examples/ (Python, Go, YAML, Java; the TypeScript quickstart has its
 * own test) run as its README says, in a copy outside the repository, through the real engine: the
 * SDK got from the checkout, the stack's settings, `pulumi up`; its outputs (the webhook secret a
 * secret); a reweight through the config values the README names, previewed as an update; destroy.
 */

const EXAMPLES: { language: string; setUp: (project: LanguageProject) => Promise<void> }[] = [
  { language: "python", setUp: installPythonSdk },
  { language: "go", setUp: useGoSdk },
  { language: "yaml", setUp: async () => {} },
  { language: "java", setUp: installJavaSdk },
];

let t: TestSandbox;

beforeAll(async () => {
  t = await startTestSandbox({ rebalanceDelayMs: 5, tokens: { [TOKEN]: ORG } });
});

afterAll(async () => {
  await t?.close();
});

describe.each(EXAMPLES)("examples/$language", ({ language, setUp }) => {
  let project: LanguageProject;

  beforeAll(async () => {
    project = await LanguageProject.create(path.join(repoRoot, "examples", language), `example-${language}`);
    await setUp(project);
    await project.pulumi(["stack", "init", "dev"]);
    await project.pulumi(["config", "set", "portfolio-wallet:baseUrl", t.url]);
    await project.pulumi(["config", "set", "--secret", "portfolio-wallet:apiToken", TOKEN]);
  }, 900_000);

  afterAll(() => project?.cleanUp());

  test("up: the wallet, its deposit addresses and blended rate, the webhook's secret as a secret", async () => {
    await project.pulumi(["up", "--yes", "--skip-preview"]);
    const outputs = await project.outputs();
    expect(outputs["depositAddresses"]["ethereum"]).toMatch(/^0x[0-9a-f]{40}$/);
    expect(outputs["blendedRateBps"]).toBeGreaterThan(0);
    expect((await project.pulumi(["stack", "output", "webhookSecret"])).stdout.trim()).toBe("[secret]");
    const wallet = (await t.api("GET", `/v2/portfolio-wallets/${outputs["walletId"]}`)).body;
    expect(wallet.label).toBe("Example treasury");
    expect(wallet.strategyConfig.positions).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ positionKey: "tbills", targetWeightBps: 6000 }),
        expect.objectContaining({ positionKey: "syrupUsdc", targetWeightBps: 4000 }),
      ]),
    );
  }, 600_000);

  test("a reweight through the stack's config previews as an update; destroy empties the stack", async () => {
    await project.pulumi(["config", "set", "tbillsBps", "5000"]);
    await project.pulumi(["config", "set", "syrupUsdcBps", "5000"]);
    expect(await project.previewChanges()).toEqual({ update: 1 });
    await project.pulumi(["destroy", "--yes", "--skip-preview"]);
    expect(await project.stateResources()).toEqual([]);
  }, 600_000);
});
