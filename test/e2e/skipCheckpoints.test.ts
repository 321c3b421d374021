// With PULUMI_SKIP_CHECKPOINTS=true the engine writes the state once, at the end of an update: an
// `up` killed midway leaves no record of what it did. This provider's requestIds derive from each
// resource's URN (provider/requestIds.ts), so running `up` again sends the same creates and
// strategy changes, and the service answers with what it already did instead of doing it twice.
// Shown here through the real engine and the packed package in a project outside the repository:
// the CLI and every process it started are killed with SIGKILL in the middle of an `up` of many
// wallets, and again in the middle of a strategy change of all of them.
import path from "node:path";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { startSandbox, type Sandbox } from "../../sandbox/index.ts";
import { repoRoot } from "../../scripts/pulumiEnv.ts";
import { ConsumerProject } from "../consumer/harness/consumerProject.ts";
import { packedPackage } from "../consumer/harness/packedPackage.ts";
import { requestCounts, resetRequestCounts } from "../support/sandboxAccess.ts";
import { upKilledAfter as killUpAfter } from "./harness/crash.ts";

const WALLETS = 60;
const TOKEN = "skip-checkpoints-token";
const REWEIGHTED = [
  { positionKey: "tbills", targetWeightBps: 2500 },
  { positionKey: "syrupUsdc", targetWeightBps: 7500 },
];
const SKIP = { PULUMI_SKIP_CHECKPOINTS: "true" };

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
    const response = await fetch(`${sandbox.url}/v2/portfolio-wallets?pageSize=100${query}`, {
      headers: { authorization: `Bearer ${TOKEN}` },
    });
    const page = (await response.json()) as { data: unknown[]; nextCursor: string | null };
    wallets.push(...page.data);
    cursor = page.nextCursor;
  } while (cursor !== null);
  return wallets;
}

async function walletsInState(): Promise<{ urn: string; id: string }[]> {
  return (await project.stateResources())
    .filter((resource) => resource.type.includes("PortfolioWallet"))
    .map((resource) => ({ urn: resource.urn, id: String(resource.id) }));
}

/** Starts `pulumi up` with checkpoints skipped and kills it once the service has answered `after` requests of `route`. */
async function upKilledAfter(route: string, after: number): Promise<void> {
  await resetRequestCounts(access());
  await killUpAfter(
    {
      project,
      env: SKIP,
      countOf: async (key) => (await requestCounts(access()))[key] ?? 0,
      write: (text) => (output += text),
    },
    route,
    after,
  );
}

beforeAll(async () => {
  sandbox = await startSandbox({ port: 0, dataDir: ":memory:", tokens: { [TOKEN]: "skip-checkpoints-org" } });
  project = await ConsumerProject.fromTemplate(
    path.join(repoRoot, "test", "bench", "programs", "fleet"),
    "skip-checkpoints",
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

describe("PULUMI_SKIP_CHECKPOINTS=true: an up killed midway, run again", { concurrent: false }, () => {
  test("creates: the service holds exactly one wallet per resource, and the state holds them all", async () => {
    await upKilledAfter("POST /v2/portfolio-wallets", WALLETS / 3);
    const afterCrash = await walletsAtTheService();
    // Killed midway: some wallets made, not all, and none of them recorded.
    expect(afterCrash.length).toBeGreaterThanOrEqual(WALLETS / 3);
    expect(afterCrash.length).toBeLessThan(WALLETS);
    expect(await walletsInState()).toEqual([]);

    await resetRequestCounts(access());
    await project.pulumi(["up", "--yes", "--skip-preview"], SKIP);
    const wallets = await walletsAtTheService();
    const state = await walletsInState();
    expect(wallets).toHaveLength(WALLETS);
    expect(new Set(wallets.map((w) => w.label)).size).toBe(WALLETS);
    expect(state).toHaveLength(WALLETS);
    expect(state.map((r) => r.id).sort()).toEqual(wallets.map((w) => w.id).sort());
    // The wallets made before the crash were adopted, not made again.
    expect(afterCrash.every((w) => state.some((r) => r.id === w.id))).toBe(true);
    expect((await requestCounts(access()))["POST /v2/portfolio-wallets"]).toBe(WALLETS);
    await project.pulumi(["preview", "--expect-no-changes"], SKIP);
  }, 300_000);

  test("a strategy change of every wallet: each wallet ends on the new targets, and nothing is left to change", async () => {
    await project.pulumi(["config", "set", "bench:positions", JSON.stringify(REWEIGHTED)]);
    await upKilledAfter("PATCH /v2/portfolio-wallets/:id/strategy", WALLETS / 3);
    const beforeRerun = await walletsAtTheService();
    const reweighted = (w: { positions: { positionKey: string; targetWeightBps: number }[] }) =>
      w.positions.find((p) => p.positionKey === "syrupUsdc")?.targetWeightBps === 7500;
    expect(beforeRerun.filter(reweighted).length).toBeLessThan(WALLETS);

    await project.pulumi(["up", "--yes", "--skip-preview"], SKIP);
    const wallets = await walletsAtTheService();
    expect(wallets).toHaveLength(WALLETS);
    expect(wallets.filter(reweighted)).toHaveLength(WALLETS);
    expect(await walletsInState()).toHaveLength(WALLETS);
    await project.pulumi(["preview", "--expect-no-changes"], SKIP);
  }, 300_000);
});
