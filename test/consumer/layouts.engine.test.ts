import type { ChildProcess } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { filesUnder, secretFindings, textSecret } from "../e2e/harness/secrets.ts";
import {
  ConsumerProject,
  LAYOUTS,
  listeningUrl,
  stopProcess,
  type Layout,
  type StateResource,
} from "./harness/consumerProject.ts";
import { packedPackage } from "./harness/packedPackage.ts";
import { BaselineProject, changedSteps, recordedBaselines, STATE_FILE } from "./harness/upgradeBaseline.ts";
import { startTestSandbox, type TestSandbox } from "../sandbox/helpers.ts";
import { requestCounts } from "../support/sandboxAccess.ts";
import { configSetAll } from "../support/pulumiConfig.ts";
import { changesInPreviewText } from "../support/previewText.ts";

/**
 * The package the way a user meets it: `npm pack`, installed into a Pulumi project outside this
 * repository, in each program layout a user would have, through the real engine. The service is
 * the sandbox started from the installed package itself (`npx portfolio-wallet sandbox`).
 */

const API_TOKEN = "pw-consumer-token-7d1e9c3a5b";
const ORGANIZATION = "consumer-org";
const POSITIONS_BEFORE = [
  { positionKey: "tbills", targetWeightBps: 6000 },
  { positionKey: "syrupUsdc", targetWeightBps: 4000 },
];
const POSITIONS_AFTER = [
  { positionKey: "tbills", targetWeightBps: 5000 },
  { positionKey: "syrupUsdc", targetWeightBps: 5000 },
];
/** What Pulumi stores as `__provider` for an installed package: a reference, not code. */
const PROVIDER_REFERENCE = 'require("@portfolio-wallet/pulumi/provider")';
const MAX_PROVIDER_BYTES = 1024;
/** The layout that also previews and applies a weight change. */
const REWEIGHTING_LAYOUT: Layout = "esm-typescript";
/**
 * For the steps about something other than the layout (the report), on the ES-module
 * layout's project: its program was type-checked by its layout's step, and checking it again on
 * every run costs seconds of CPU.
 */
const TRANSPILE_ONLY = { PULUMI_NODEJS_TRANSPILE_ONLY: "true" };

let tarball: string;
let sandboxHost: ConsumerProject;
let sandbox: ChildProcess | undefined;
let serviceUrl: string;
const projects = new Map<Layout, ConsumerProject>();

async function projectFor(layout: Layout): Promise<ConsumerProject> {
  let project = projects.get(layout);
  if (project === undefined) {
    project = await ConsumerProject.create(layout, tarball);
    projects.set(layout, project);
  }
  return project;
}

beforeAll(async () => {
  tarball = await packedPackage();
  sandboxHost = await projectFor("esm-typescript");
  sandbox = sandboxHost.spawnCli(["sandbox", "--port", "0", "--data", ":memory:"], {
    SANDBOX_TOKENS: `${API_TOKEN}=${ORGANIZATION}`,
  });
  serviceUrl = await listeningUrl(sandbox);
}, 300_000);

afterAll(async () => {
  await stopProcess(sandbox);
  for (const project of projects.values()) project.cleanUp();
});

function dynamicResources(resources: StateResource[]): StateResource[] {
  return resources.filter((resource) => resource.type.startsWith("pulumi-nodejs:dynamic/"));
}

/** The step operations of a `pulumi preview --json`, other than "same". */
function changesOf(previewJson: string): Record<string, number> {
  const { changeSummary } = JSON.parse(previewJson) as { changeSummary: Record<string, number> };
  return Object.fromEntries(
    Object.entries(changeSummary).filter(([op, count]) => op !== "same" && count > 0),
  );
}

async function configure(project: ConsumerProject, positions: unknown): Promise<void> {
  await project.pulumi(["config", "set", "positions", JSON.stringify(positions)]);
}

/** The weight change: previewed per source as an in-place update, applied, and at the service. */
async function reweight(project: ConsumerProject, walletId: string): Promise<void> {
  await configure(project, POSITIONS_AFTER);
  const diff = (await project.pulumi(["preview", "--diff"])).stdout;
  expect(diff).toMatch(/~ pulumi-nodejs:dynamic\/portfoliowallet:PortfolioWallet: \(update\)/);
  expect(diff).toMatch(
    /~ targetWeightsBps: \{\s*\n\s*~ syrupUsdc: 4000 => 5000\s*\n\s*~ tbills\s*: 6000 => 5000/,
  );
  expect(diff).not.toMatch(/__provider/);
  expect(changesInPreviewText(diff)).toEqual({ update: 1 });
  expect(diff).not.toMatch(/replace/);

  await project.pulumi(["up", "--yes", "--skip-preview"]);
  const updated = JSON.parse((await project.pulumi(["stack", "output", "--json"])).stdout);
  expect(updated.walletId).toBe(walletId);
  expect(updated.targetWeightsBps).toEqual({ syrupUsdc: 5000, tbills: 5000 });
  const atService = await fetch(`${serviceUrl}/v2/portfolio-wallets/${walletId}`, {
    headers: { authorization: `Bearer ${API_TOKEN}` },
  });
  const wallet = (await atService.json()) as { strategyConfig: { positions: unknown[] } };
  expect(wallet.strategyConfig.positions).toEqual(
    expect.arrayContaining(POSITIONS_AFTER.map((position) => expect.objectContaining(position))),
  );
}

describe("the packed package in a user's project", () => {
  test("npx portfolio-wallet: the installed command-line tool", async () => {
    const version = await sandboxHost.runCli(["--version"]);
    expect(version.code).toBe(0);
    const { version: packedVersion } = JSON.parse(
      readFileSync(`${sandboxHost.dir}/node_modules/@portfolio-wallet/pulumi/package.json`, "utf8"),
    ) as { version: string };
    expect(version.stdout.trim()).toBe(packedVersion);

    const badFlag = await sandboxHost.runCli(["sandbox", "--port", "nope"]);
    expect(badFlag.code).toBe(2);
    expect(badFlag.stderr).toMatch(/--port.*nope.*whole number/);

    // The sandbox the layouts below use was started the same way; it answers with its tokens only.
    const strategies = await fetch(`${serviceUrl}/v2/portfolio-wallets/strategies`, {
      headers: { authorization: `Bearer ${API_TOKEN}` },
    });
    expect(strategies.status).toBe(200);
    const unknownToken = await fetch(`${serviceUrl}/v2/portfolio-wallets/strategies`, {
      headers: { authorization: "Bearer sandbox-token" },
    });
    expect(unknownToken.status).toBe(401);
  });

  test("the installed sandbox serves its console: the page and the bundle built into the package, not its sources", async () => {
    const page = await fetch(`${serviceUrl}/_console/`);
    expect(page.status).toBe(200);
    expect(await page.text()).toContain('src="/_console/assets/console.js"');
    const script = await fetch(`${serviceUrl}/_console/assets/console.js`);
    expect(script.status).toBe(200);
    expect(script.headers.get("content-security-policy")).toContain("script-src 'self'");
    // The contract's duration parser inside it, bundled at build time: no esbuild is installed.
    expect(await script.text()).toContain("function parseIsoDurationMs(");
    const installed = `${sandboxHost.dir}/node_modules`;
    expect(existsSync(`${installed}/esbuild`)).toBe(false);
    expect(existsSync(`${installed}/@portfolio-wallet/pulumi/dist/sandbox/console/web/src`)).toBe(false);
  });

  // Every layout loads and serializes the dynamic resources its own way: each runs up, a no-change
  // preview (its __provider is stable) and destroy. What the provider does with a weight change does
  // not depend on the layout (the engine loads the same installed provider module for all of them),
  // so one layout previews and applies it.
  test.each(LAYOUTS)(
    "%s: up, a no-change preview, destroy; in esm-typescript, a weight change previewed and applied between",
    async (layout) => {
      const reweights = layout === REWEIGHTING_LAYOUT;
      const project = await projectFor(layout);
      await project.pulumi(["stack", "init", "dev"]);
      await project.pulumi(
        configSetAll(
          {
            "portfolio-wallet:baseUrl": serviceUrl,
            webhookUrl: `https://hooks.example.com/${layout}`,
            positions: JSON.stringify(POSITIONS_BEFORE),
          },
          { "portfolio-wallet:apiToken": API_TOKEN },
        ),
      );

      await project.pulumi(["up", "--yes", "--skip-preview"]);
      const outputs = JSON.parse((await project.pulumi(["stack", "output", "--json"])).stdout);
      expect(outputs.walletId).toMatch(/^[0-9a-f-]{36}$/);
      expect(outputs.depositAddresses.ethereum).toMatch(/^0x[0-9a-f]{40}$/);
      expect(outputs.depositAddresses.solana).toEqual(expect.any(String));
      expect(outputs.blendedRateBps).toEqual(expect.any(Number));
      expect(outputs.targetWeightsBps).toEqual({ syrupUsdc: 4000, tbills: 6000 });
      expect(outputs.webhookSecret).toBe("[secret]");

      // __provider: a small reference to the installed package, the same for every resource.
      const created = dynamicResources(await project.stateResources());
      expect(created.map((resource) => resource.type).sort()).toEqual([
        "pulumi-nodejs:dynamic/portfoliowallet:PortfolioWallet",
        "pulumi-nodejs:dynamic/webhookregistration:WebhookRegistration",
      ]);
      for (const resource of created) {
        const serialized = resource.inputs?.["__provider"] as string;
        expect(serialized).toContain(PROVIDER_REFERENCE);
        expect(Buffer.byteLength(serialized, "utf8")).toBeLessThanOrEqual(MAX_PROVIDER_BYTES);
        expect(resource.outputs?.["__provider"]).toBe(serialized);
      }

      const noChange = await project.pulumi(["preview", "--json"]);
      expect(changesOf(noChange.stdout)).toEqual({});

      if (reweights) await reweight(project, outputs.walletId);

      await project.pulumi(["destroy", "--yes", "--skip-preview"]);
      expect(dynamicResources(await project.stateResources())).toEqual([]);

      // The token went in as a secret: the backend (state, history, backups) never holds it in clear.
      expect(secretFindings(filesUnder(project.stateDir), [textSecret("API token", API_TOKEN)])).toEqual([]);
    },
    600_000,
  );
  test("portfolio-wallet report turns a real `pulumi preview --json` into the allocation table, without secrets", async () => {
    const project = await projectFor("esm-typescript");
    await project.pulumi(["stack", "init", "report"]);
    // Planted: an approver whose private key was set without --secret, so it lands in the
    // preview's config in clear text. (No approval is needed here: the sandbox requires none.)
    const plantedKey = "c0ffee".repeat(10) + "beef";
    await project.pulumi(
      configSetAll(
        {
          "portfolio-wallet:baseUrl": serviceUrl,
          "portfolio-wallet:turnkeyApiBaseUrl": serviceUrl,
          "portfolio-wallet:turnkeyOrganizationId": ORGANIZATION,
          "portfolio-wallet:turnkeyApiPublicKey": `02${"ab".repeat(32)}`,
          "portfolio-wallet:turnkeyApiPrivateKey": plantedKey,
          webhookUrl: "https://hooks.example.com/report",
          positions: JSON.stringify(POSITIONS_BEFORE),
        },
        { "portfolio-wallet:apiToken": API_TOKEN },
      ),
    );
    await project.pulumi(["up", "--yes", "--skip-preview"], TRANSPILE_ONLY);
    await configure(project, POSITIONS_AFTER);

    const preview = await project.pulumi(["preview", "--json"], TRANSPILE_ONLY);
    expect(preview.stdout).toContain(plantedKey);
    // Settings come from the stack config, read through the Pulumi CLI in the project directory.
    const report = await project.runCli(["report", "--commit", "0123abc"], preview.stdout);
    expect(report.code, report.stderr).toBe(0);
    expect(report.stdout).toContain(
      "<!-- portfolio-wallet-report project=treasury-esm stack=report commit=0123abc -->",
    );
    expect(report.stdout).toContain("### treasury-esm/report: 1 wallet reweighted");
    expect(report.stdout).toContain("| syrupUsdc | 4000 | 5000 | +1000 |");
    expect(report.stdout).toContain("| tbills | 6000 | 5000 | −1000 |");
    expect(report.stdout).toMatch(/Blended rate \d+\.\d → \d+\.\d bps/);
    // The approver's presence is read from the config's keys; its values never are.
    expect(report.stdout).toContain("This stack configures an approver");
    expect(report.stdout).not.toContain(plantedKey);
    expect(report.stdout).not.toContain(API_TOKEN);
    expect(report.stdout).not.toContain("hooks.example.com");

    await project.pulumi(["destroy", "--yes", "--skip-preview"]);
  }, 600_000);
});

/**
 * Upgrades never touch a wallet: every baseline recorded by a released version
 * (test/consumer/upgradeBaseline/<version>/, `npm run upgrade-baseline:record`), its state imported
 * into a fresh backend, previews with this checkout's packed package (the TypeScript program) and
 * plugin (the YAML program) as no change at all. A plain preview, as a pipeline runs one after an
 * upgrade: check and diff of the new code against what the old code stored. It reads the catalog
 * (check), so the sandbox is this test's, given the recorded token; the recorded wallets need not
 * exist there, since nothing reads them without a refresh, and the test checks that nothing did.
 */
describe("upgrades: every recorded baseline previews as no change with this checkout", () => {
  const stacks = recordedBaselines().flatMap(({ dir, manifest }) =>
    manifest.programs.map((kind) => ({ name: `${manifest.packageVersion}/${kind}`, dir, manifest, kind })),
  );

  test("a baseline is recorded, with every program kind", () => {
    expect(stacks.map((stack) => stack.kind)).toEqual(expect.arrayContaining(["typescript", "yaml"]));
  });

  test.each(stacks)(
    "$name: a plain preview changes nothing and reads nothing of a wallet",
    async ({ name, dir, manifest, kind }) => {
      const recorded = path.join(dir, kind);
      const project = await BaselineProject.create(kind, recorded, manifest.testOnlyPassphrase, tarball);
      let service: TestSandbox | undefined;
      try {
        // Pulumi.<stack>.yaml came with the program: the stack takes its encryption salt.
        await project.pulumi(["stack", "init", manifest.stack]);
        await project.pulumi(["stack", "import", "--file", STATE_FILE]);
        // The secrets the stack holds, read back through its passphrase: the repository holds neither in clear.
        const token = (await project.pulumi(["config", "get", "portfolio-wallet:apiToken"])).stdout.trim();
        const outputs = JSON.parse(
          (await project.pulumi(["stack", "output", "--json", "--show-secrets"])).stdout,
        ) as { webhookSecret: string };
        expect(token).toMatch(/^pw-upgrade-baseline-/);
        expect(outputs.webhookSecret).toEqual(expect.any(String));
        expect(
          secretFindings(filesUnder(recorded), [
            textSecret("API token", token),
            textSecret("webhook signing secret", outputs.webhookSecret),
          ]),
        ).toEqual([]);

        service = await startTestSandbox({ tokens: { [token]: "upgrade-baseline" } });
        project.env["PORTFOLIO_WALLET_BASE_URL"] = service.url;
        const preview = await project.pulumi(["preview", "--json"]);
        expect(
          changedSteps(preview.stdout),
          `${name}, recorded by ${manifest.recordedWith.commit}, previewed with this checkout: a change of ` +
            "what the state holds needs its migration in the provider (docs/provider.md, Upgrades)",
        ).toEqual([]);
        expect(await requestCounts({ url: service.url, token })).toEqual({
          "GET /v2/portfolio-wallets/strategies": 1,
        });
      } finally {
        project.cleanUp();
        await service?.close();
      }
    },
    600_000,
  );
});
