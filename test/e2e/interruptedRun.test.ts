// What a cancelled CI job or a lost runner leaves behind with the engine's default per-step
// checkpoints, and the recovery docs/provider.md ("A cancelled or killed run") gives, followed word
// for word. Shown through the real engine and the packed package, in a project outside the
// repository: the CLI and every process it started are killed with SIGKILL a third of the way
// through an `up` of 40 wallets, and again a third of the way through a reweight of all of them.
// (test/e2e/skipCheckpoints.test.ts does the same with PULUMI_SKIP_CHECKPOINTS=true.)
import path from "node:path";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { startSandbox, type Sandbox } from "../../sandbox/index.ts";
import { repoRoot } from "../../scripts/pulumiEnv.ts";
import { ConsumerProject } from "../consumer/harness/consumerProject.ts";
import { packedPackage } from "../consumer/harness/packedPackage.ts";
import { callSandbox, requestCounts, resetRequestCounts } from "../support/sandboxAccess.ts";
import { upKilledAfter } from "./harness/crash.ts";

const WALLETS = 40;
const TOKEN = "interrupted-run-token";
const REWEIGHTED = [
  { positionKey: "tbills", targetWeightBps: 1500 },
  { positionKey: "syrupUsdc", targetWeightBps: 8500 },
];

let sandbox: Sandbox;
let project: ConsumerProject;
const access = () => ({ url: sandbox.url, token: TOKEN });
let output = "";

// Answers are loose JSON.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
async function walletsAtTheService(): Promise<any[]> {
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  const wallets: any[] = [];
  let cursor: string | null = null;
  do {
    const query: string = cursor === null ? "" : `&cursor=${encodeURIComponent(cursor)}`;
    const page = (await callSandbox(access(), "GET", `/v2/portfolio-wallets?pageSize=100${query}`)) as {
      data: unknown[];
      nextCursor: string | null;
    };
    wallets.push(...page.data);
    cursor = page.nextCursor;
  } while (cursor !== null);
  return wallets;
}

/** The checkpoint: its wallets and the operations a dead run left pending in it. */
async function checkpoint(): Promise<{ walletIds: string[]; pendingOperations: { type: string }[] }> {
  const { stdout } = await project.pulumi(["stack", "export"]);
  const deployment = (
    JSON.parse(stdout) as {
      deployment: { resources?: { type: string; id?: string }[]; pending_operations?: { type: string }[] };
    }
  ).deployment;
  return {
    walletIds: (deployment.resources ?? [])
      .filter((resource) => resource.type.includes("PortfolioWallet"))
      .map((resource) => String(resource.id))
      .sort(),
    pendingOperations: deployment.pending_operations ?? [],
  };
}

async function killUpAfter(route: string, after: number): Promise<void> {
  await resetRequestCounts(access());
  await upKilledAfter(
    {
      project,
      countOf: async (key) => (await requestCounts(access()))[key] ?? 0,
      write: (text) => (output += text),
    },
    route,
    after,
  );
}

beforeAll(async () => {
  sandbox = await startSandbox({ port: 0, dataDir: ":memory:", tokens: { [TOKEN]: "interrupted-run-org" } });
  project = await ConsumerProject.fromTemplate(
    path.join(repoRoot, "test", "bench", "programs", "fleet"),
    "interrupted-run",
    await packedPackage(),
  );
  await project.pulumi(["stack", "init", "dev"]);
  await project.pulumi(["config", "set", "bench:count", String(WALLETS)]);
  await project.pulumi(["config", "set", "bench:kind", "wallet"]);
  await project.pulumi(["config", "set", "portfolio-wallet:baseUrl", sandbox.url]);
  await project.pulumi(["config", "set", "--secret", "portfolio-wallet:apiToken", TOKEN]);
}, 300_000);

afterAll(async () => {
  await sandbox?.close();
  project?.cleanUp();
});

describe(
  "an up killed midway with per-step checkpoints, then the documented recovery",
  { concurrent: false },
  () => {
    test("creates: one wallet per resource at the service and in the state, no pending operation, no change left", async () => {
      await killUpAfter("POST /v2/portfolio-wallets", WALLETS / 3);
      const afterCrash = await walletsAtTheService();
      expect(afterCrash.length).toBeGreaterThanOrEqual(WALLETS / 3);
      expect(afterCrash.length).toBeLessThan(WALLETS);
      // What the docs describe: the dead run's creates in flight are left pending in the checkpoint.
      const left = await checkpoint();
      expect(left.pendingOperations.length).toBeGreaterThan(0);
      expect(left.pendingOperations.every((operation) => operation.type === "creating")).toBe(true);

      // The recovery, as docs/provider.md gives it (`pulumi cancel` was run by upKilledAfter).
      await project.pulumi(["refresh", "--clear-pending-creates", "--yes"]);
      await project.pulumi(["up", "--yes"]);

      const wallets = await walletsAtTheService();
      expect(wallets).toHaveLength(WALLETS);
      expect(new Set(wallets.map((w) => w.label)).size).toBe(WALLETS);
      // The wallets the dead run made were adopted through their URN-derived requestIds, not made again.
      const recovered = await checkpoint();
      expect(recovered.walletIds).toEqual(wallets.map((w) => String(w.id)).sort());
      expect(afterCrash.every((w) => recovered.walletIds.includes(String(w.id)))).toBe(true);
      expect(recovered.pendingOperations).toEqual([]);
      const { stdout } = await project.pulumi(["preview", "--expect-no-changes"]);
      expect(stdout).not.toMatch(/pending operation/i);
    }, 600_000);

    test("a reweight: every wallet on the new targets with one strategy update each, no pending operation, no change left", async () => {
      await project.pulumi(["config", "set", "bench:positions", JSON.stringify(REWEIGHTED)]);
      await killUpAfter("PATCH /v2/portfolio-wallets/:id/strategy", WALLETS / 3);
      const reweighted = (w: {
        strategyConfig: { positions: { positionKey: string; targetWeightBps: number }[] };
      }) => w.strategyConfig.positions.find((p) => p.positionKey === "syrupUsdc")?.targetWeightBps === 8500;
      expect((await walletsAtTheService()).filter(reweighted).length).toBeLessThan(WALLETS);
      // The dead run's updates in flight are left pending in the checkpoint too.
      const left = await checkpoint();
      console.log(
        `[interrupted] pending after a killed reweight: ${JSON.stringify(left.pendingOperations.map((o) => o.type))}`,
      );
      expect(left.pendingOperations.length).toBeGreaterThan(0);
      expect(left.pendingOperations.every((operation) => operation.type === "updating")).toBe(true);

      // The same recovery; here it finds no pending create to clear.
      await project.pulumi(["refresh", "--clear-pending-creates", "--yes"]);
      await project.pulumi(["up", "--yes"]);

      const wallets = await walletsAtTheService();
      expect(wallets).toHaveLength(WALLETS);
      expect(wallets.filter(reweighted)).toHaveLength(WALLETS);
      for (const wallet of wallets) {
        const updates = (await callSandbox(
          access(),
          "GET",
          `/_console/api/wallets/${wallet.id}/strategy-updates`,
        )) as {
          data: unknown[];
        };
        expect(updates.data).toHaveLength(1);
      }
      const recovered = await checkpoint();
      expect(recovered.walletIds).toHaveLength(WALLETS);
      expect(recovered.pendingOperations).toEqual([]);
      await project.pulumi(["preview", "--expect-no-changes"]);
    }, 600_000);
  },
);
