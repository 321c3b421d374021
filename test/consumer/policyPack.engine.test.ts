import type { ChildProcess } from "node:child_process";
import { writeFileSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { requestCounts, resetRequestCounts } from "../support/sandboxAccess.ts";
import { ConsumerProject, listeningUrl, stopProcess } from "./harness/consumerProject.ts";
import { packedPackage } from "./harness/packedPackage.ts";
import { configSetAll } from "../support/pulumiConfig.ts";

/**
 * The allocation policy pack through the real engine, as a user runs it from the installed
 * package: `pulumi preview --policy-pack node_modules/@portfolio-wallet/pulumi/policy/offline`
 * (the manifest for this project's offline engine; docs/policy.md).
 */

const API_TOKEN = "pw-policy-token-4e7a0c";
/** The request-count admin calls need it: a CLI-started sandbox keeps its admin API closed otherwise. */
const ADMIN_TOKEN = "policy-admin-token";
const PLANTED_SECRET = "pw-planted-stack-secret-9d3b1f";
const PACK = "node_modules/@portfolio-wallet/pulumi/policy/offline";

let project: ConsumerProject;
let sandbox: ChildProcess | undefined;
let serviceUrl: string;

beforeAll(async () => {
  project = await ConsumerProject.create("esm-typescript", await packedPackage());
  sandbox = project.spawnCli(["sandbox", "--port", "0", "--data", ":memory:"], {
    SANDBOX_TOKENS: `${API_TOKEN}=policy-org`,
    SANDBOX_ADMIN_TOKEN: ADMIN_TOKEN,
  });
  serviceUrl = await listeningUrl(sandbox);
  await project.pulumi(["stack", "init", "policy"]);
  // Planted in stack config, as a secret and in clear: neither may appear in what the pack prints.
  await project.pulumi(
    configSetAll(
      {
        "portfolio-wallet:baseUrl": serviceUrl,
        webhookUrl: "https://hooks.example.com/policy",
        "treasury-infra-esm:plantedClear": `${PLANTED_SECRET}-clear`,
      },
      { "portfolio-wallet:apiToken": API_TOKEN, "treasury-infra-esm:plantedSecret": PLANTED_SECRET },
    ),
  );
}, 300_000);

afterAll(async () => {
  await project?.pulumi(["destroy", "--yes", "--skip-preview"]).catch(() => undefined);
  await stopProcess(sandbox);
  project?.cleanUp();
});

/** The pack reads the strategy catalog from the service named in its environment. */
const packEnv = () => ({ PORTFOLIO_WALLET_BASE_URL: serviceUrl, PORTFOLIO_WALLET_API_TOKEN: API_TOKEN });

async function positions(weights: Record<string, number>) {
  const list = Object.entries(weights).map(([positionKey, targetWeightBps]) => ({
    positionKey,
    targetWeightBps,
  }));
  await project.pulumi(["config", "set", "positions", JSON.stringify(list)]);
}

function packConfig(config: Record<string, unknown>): string {
  const file = path.join(project.dir, `policy-config-${Object.keys(config).join("-") || "default"}.json`);
  writeFileSync(file, JSON.stringify(config));
  return file;
}

const serviceAccess = () => ({ url: serviceUrl, token: API_TOKEN, adminToken: ADMIN_TOKEN });

/** A preview with the pack that must fail: everything the CLI printed. */
async function failingPreview(args: string[]): Promise<string> {
  const error = await project.pulumi(["preview", "--policy-pack", PACK, ...args], packEnv()).then(
    () => undefined,
    (e: Error) => e,
  );
  expect(error, "the preview was expected to fail").toBeDefined();
  return error!.message;
}

describe("the policy pack through the engine", () => {
  test("a compliant program passes with the pack's defaults", async () => {
    await positions({ tbills: 5000, syrupUsdc: 5000 });
    const { stdout } = await project.pulumi(["preview", "--policy-pack", PACK], packEnv());
    expect(stdout).toMatch(/✅ portfolio-wallet-allocation@v\d+\.\d+\.\d+/);
    expect(stdout).not.toMatch(/\[(mandatory|advisory)\]/);
  });

  test("the pack's config changes a limit, and a mandatory violation fails preview before any mutating request", async () => {
    await positions({ tbills: 5000, syrupUsdc: 5000 });
    await resetRequestCounts(serviceAccess());
    const output = await failingPreview([
      "--policy-pack-config",
      packConfig({ "max-weight-per-source": { enforcementLevel: "mandatory", maxBps: 4000 } }),
    ]);
    expect(output).toMatch(/\[mandatory\]\s+max-weight-per-source/);
    expect(output).toContain(
      "treasury: tbills is 5000 bps, above the maximum 4000 bps per yield source (max-weight-per-source.maxBps)",
    );
    const mutating = Object.keys(await requestCounts(serviceAccess())).filter(
      (route) => !route.startsWith("GET "),
    );
    expect(mutating).toEqual([]);
  });

  test("an advisory violation warns and up proceeds", async () => {
    await positions({ tbills: 8000, syrupUsdc: 2000 });
    const { stdout } = await project.pulumi(["up", "--yes", "--policy-pack", PACK], packEnv());
    expect(stdout).toMatch(/\[advisory\]\s+min-withdrawable-share/);
    expect(stdout).toContain(
      "treasury: the share withdrawable at once is 2000 bps, below the minimum 3000 bps (min-withdrawable-share.minInstantBps)",
    );
    // The pack's default weight limit, 5000 bps per source, advisory.
    expect(stdout).toMatch(/\[advisory\]\s+max-weight-per-source/);
    expect(stdout).toContain(
      "treasury: tbills is 8000 bps, above the maximum 5000 bps per yield source (max-weight-per-source.maxBps)",
    );
    expect(stdout).toMatch(/created/);
    const outputs = JSON.parse((await project.pulumi(["stack", "output", "--json"])).stdout) as {
      targetWeightsBps: Record<string, number>;
    };
    expect(outputs.targetWeightsBps).toEqual({ syrupUsdc: 2000, tbills: 8000 });
  });

  test("delta-neutral strategies forbidden in production; the planted stack secrets never appear", async () => {
    await positions({ tbills: 5000, syrupUsdc: 3000, resolvRlp: 2000 });
    const output = await failingPreview([
      "--policy-pack-config",
      packConfig({
        "max-weight-per-strategy-type": {
          enforcementLevel: "mandatory",
          maxBps: { deltaNeutralStrategy: 0 },
        },
      }),
    ]);
    expect(output).toContain(
      "treasury: strategy type deltaNeutralStrategy is 2000 bps, above the maximum 0 bps (max-weight-per-strategy-type.maxBps.deltaNeutralStrategy)",
    );
    expect(output).not.toContain(PLANTED_SECRET);
    expect(output).not.toContain(API_TOKEN);
  });
});
