import { readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { ORG, startTestSandbox, TOKEN, type TestSandbox } from "../sandbox/helpers.ts";
import { portfolioWallet } from "../cli/harness.ts";
import {
  callSandbox,
  requestCounts,
  resetRequestCounts,
  type SandboxAccess,
} from "../support/sandboxAccess.ts";
import { LanguageProject } from "./harness/languageProject.ts";
import { yamlWithPositions } from "./harness/yamlPositions.ts";

/**
 * `portfolio-wallet drift` through the real engine: a YAML program on the native plugin, changed
 * at the sandbox behind its back, checked with the command as a pipeline runs it. Each check counts
 * the sandbox's requests: a drift check only reads.
 */

const DRIFT_PROGRAM = path.join(import.meta.dirname, "programs", "yaml-drift");

const A = { tbills: 6000, syrupUsdc: 4000 };
const B = { tbills: 5000, syrupUsdc: 5000 };
const C = { tbills: 2000, resolvRlp: 8000 };

const driftProgram = (weights: Record<string, number>) =>
  yamlWithPositions(readFileSync(path.join(DRIFT_PROGRAM, "Pulumi.yaml"), "utf8"), weights);

let t: TestSandbox;
let project: LanguageProject;
let walletId: string;
let registrationId: string;
const access: SandboxAccess = { url: "", token: TOKEN };

beforeAll(async () => {
  t = await startTestSandbox({
    rebalanceDelayMs: 5,
    // The programs' webhooks point at 127.0.0.1: deliveries stay on the machine.
    allowPrivateWebhookUrls: true,
    tokens: { [TOKEN]: ORG },
  });
  access.url = t.url;
  project = await LanguageProject.create(DRIFT_PROGRAM, "drift");
  await project.pulumi(["stack", "init", "dev"]);
  await project.pulumi(["config", "set", "portfolio-wallet:baseUrl", t.url]);
  await project.pulumi(["config", "set", "--secret", "portfolio-wallet:apiToken", TOKEN]);
  await project.pulumi(["up", "--yes", "--skip-preview"]);
  ({ walletId, registrationId } = await project.outputs());
}, 300_000);

afterAll(async () => {
  project?.cleanUp();
  await t?.close();
});

/** Runs the drift command in the project, and what the sandbox was sent meanwhile. */
async function drift(args: string[] = [], cwd = project.dir) {
  access.url = t.url;
  await resetRequestCounts(access);
  const run = await portfolioWallet(["drift", ...args], {
    cwd,
    env: project.env() as Record<string, string>,
  });
  const counts = await requestCounts(access);
  const writes = Object.keys(counts).filter((route) => !route.startsWith("GET "));
  return { ...run, counts, writes };
}

/** Waits for the sandbox to apply a strategy update (its rebalance runs on the sandbox clock). */
async function waitForWeights(weights: Record<string, number>): Promise<void> {
  for (let attempt = 0; attempt < 100; attempt++) {
    const wallet = await callSandbox(access, "GET", `/v2/portfolio-wallets/${walletId}`);
    const applied = Object.fromEntries(
      wallet.strategyConfig.positions.map((p: { positionKey: string; targetWeightBps: number }) => [
        p.positionKey,
        p.targetWeightBps,
      ]),
    );
    if (JSON.stringify(Object.entries(applied).sort()) === JSON.stringify(Object.entries(weights).sort()))
      return;
    await callSandbox(access, "POST", "/_sandbox/clock/advance", { ms: 1_000 });
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`wallet ${walletId} never applied ${JSON.stringify(weights)}`);
}

describe("portfolio-wallet drift through the engine", () => {
  test("market movement only (a deposit, a month of accrued yield, a new rate): exit 0, and only reads", async () => {
    const wallet = await callSandbox(access, "GET", `/v2/portfolio-wallets/${walletId}`);
    await callSandbox(access, "POST", "/_sandbox/deposits", {
      chain: "ethereum",
      address: wallet.depositAddresses.ethereum.address,
      amount: 25_000,
      txHash: `0x${"d".repeat(64)}`,
    });
    await callSandbox(access, "POST", "/_sandbox/clock/advance", { ms: 30 * 24 * 3600 * 1000 });
    await callSandbox(access, "PUT", "/_sandbox/catalog/tbills/rate", { currentRateBps: 612 });
    const moved = await callSandbox(access, "GET", `/v2/portfolio-wallets/${walletId}`);
    // The market did move: the check below must be ignoring it, not missing it.
    expect(moved.totalBalanceUsd).toBeGreaterThan(25_000);
    expect(moved.blendedRateBps).not.toBe(wallet.blendedRateBps);

    const stateBefore = (await project.pulumi(["stack", "export"])).stdout;
    // Run from elsewhere, as a pipeline with several projects does.
    const result = await drift(["--stack", "dev", "--cwd", project.dir], project.root);
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toContain("treasury-drift/dev: no drift");
    expect(result.writes).toEqual([]);
    expect(result.counts["GET /v2/portfolio-wallets/:id"]).toBeGreaterThanOrEqual(1);
    // Nor is the state written: a refresh preview only reads.
    expect((await project.pulumi(["stack", "export"])).stdout).toBe(stateBefore);
  });

  test("an allocation changed and a webhook disabled at the service: exit 2, per yield source; up puts them back", async () => {
    await callSandbox(access, "PATCH", `/v2/portfolio-wallets/${walletId}/strategy`, {
      requestId: crypto.randomUUID(),
      positions: Object.entries(C).map(([positionKey, targetWeightBps]) => ({
        positionKey,
        targetWeightBps,
      })),
    });
    await waitForWeights(C);
    await callSandbox(access, "PATCH", `/webhooks/registrations/${registrationId}/status`, {
      status: "disabled",
      disabledReason: "paused in the portal",
    });

    const markdown = await drift(["--markdown"]);
    expect(markdown.code, markdown.stderr).toBe(2);
    expect(markdown.writes).toEqual([]);
    expect(markdown.stdout).toContain(
      "### treasury-drift/dev: drift, 1 allocation changed at the service, 1 webhook disabled",
    );
    expect(markdown.stdout).toContain("| resolvRlp | 0 | 8000 | +8000 |");
    expect(markdown.stdout).toContain("| syrupUsdc | 4000 | 0 | −4000 |");
    expect(markdown.stdout).toContain("| tbills | 6000 | 2000 | −4000 |");
    expect(markdown.stdout).toContain('disabled at the service ("paused in the portal")');

    // The pipeline's way: it ran the refresh preview itself.
    const refresh = await project.pulumi(["refresh", "--preview-only", "--json"]);
    const file = path.join(project.root, "refresh.json");
    writeFileSync(file, refresh.stdout);
    const json = await drift(["--json", "--refresh-preview", file]);
    expect(json.code).toBe(2);
    expect(json.counts).toEqual({});
    const report = JSON.parse(json.stdout);
    expect(report.resources.map((r: { findings: { kind: string }[] }) => r.findings[0]!.kind).sort()).toEqual(
      ["allocation", "webhook-disabled"],
    );

    await project.pulumi(["up", "--yes", "--skip-preview", "--refresh"]);
    await waitForWeights(A);
    const back = await drift();
    expect(back.code, back.stdout).toBe(0);
  });

  test("the code's update waiting for approval is not drift; once the code stops asking for it, it is", async () => {
    await callSandbox(access, "PUT", "/_sandbox/policy", { strategyUpdateApprovals: 1 });
    try {
      project.writeFile("Pulumi.yaml", driftProgram(B));
      await project.pulumi(["up", "--yes", "--skip-preview"]);
      expect((await project.outputs())["strategyChangeStatus"]).toBe("pending_approval");

      const waiting = await drift();
      expect(waiting.code, waiting.stdout).toBe(0);
      expect(waiting.stdout).toContain("the code's strategy update is pending_approval");
      expect(waiting.writes).toEqual([]);

      // The pull request is reverted while the update still waits: the service would still apply it if approved.
      await project.pulumi(["refresh", "--yes", "--skip-preview"]);
      project.writeFile("Pulumi.yaml", driftProgram(A));
      await project.pulumi(["up", "--yes", "--skip-preview"]);
      const stray = await drift(["--json"]);
      expect(stray.code, stray.stdout).toBe(2);
      expect(stray.writes).toEqual([]);
      const [finding] = JSON.parse(stray.stdout).resources[0].findings;
      expect(finding.kind).toBe("pending-strategy-update");
      expect(finding.message).toContain("syrupUsdc 5000, tbills 5000 is pending_approval");
    } finally {
      await callSandbox(access, "PUT", "/_sandbox/policy", { strategyUpdateApprovals: 0 });
    }
  });

  test("a wallet and a webhook the service no longer has are missing: exit 2; a stack that does not exist: exit 1", async () => {
    // The service loses everything: a new, empty sandbox where the stack's baseUrl points.
    const port = Number(new URL(t.url).port);
    await t.close();
    t = await startTestSandbox({
      port,
      rebalanceDelayMs: 5,
      // The programs' webhooks point at 127.0.0.1: deliveries stay on the machine.
      allowPrivateWebhookUrls: true,
      tokens: { [TOKEN]: ORG },
    });
    // This process's fetch may still hold a kept-alive socket to the old one: the first call drops it.
    await resetRequestCounts({ url: t.url, token: TOKEN }).catch(() => undefined);
    const missing = await drift(["--json"]);
    expect(missing.code, missing.stderr).toBe(2);
    expect(missing.writes).toEqual([]);
    const report = JSON.parse(missing.stdout);
    expect(
      report.resources
        .map((r: { kind: string; findings: { kind: string }[] }) => [r.kind, r.findings[0]!.kind])
        .sort(),
    ).toEqual([
      ["PortfolioWallet", "missing"],
      ["WebhookRegistration", "missing"],
    ]);
    const noStack = await drift(["--stack", "no-such-stack"]);
    expect(noStack.code).toBe(1);
    expect(noStack.stderr).toMatch(/no-such-stack/);
  });
});
