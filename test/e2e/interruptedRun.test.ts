// What a cancelled CI job or a lost runner leaves behind with the engine's default per-step
// checkpoints, and the recovery docs/provider.md ("A cancelled or killed run") gives, followed word
// for word. Shown through the real engine and the packed package, in a project outside the
// repository: the CLI and every process it started are killed with SIGKILL a third of the way
// through an `up` of 40 wallets, and again a third of the way through a reweight of all of them.
// (test/e2e/skipCheckpoints.test.ts does the same with PULUMI_SKIP_CHECKPOINTS=true.)
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { Fleet } from "./harness/fleet.ts";

const WALLETS = 40;
const REWEIGHTED = [
  { positionKey: "tbills", targetWeightBps: 1500 },
  { positionKey: "syrupUsdc", targetWeightBps: 8500 },
];

let fleet: Fleet;

beforeAll(async () => {
  fleet = await Fleet.start("interrupted-run", WALLETS);
}, 300_000);

afterAll(async () => {
  await fleet?.close();
});

/** The recovery docs/provider.md gives ("A cancelled or killed run"); `pulumi cancel` was run by upKilledAfter. */
async function recover(): Promise<void> {
  await fleet.project.pulumi(["refresh", "--clear-pending-creates", "--yes"]);
  await fleet.project.pulumi(["up", "--yes"]);
}

describe(
  "an up killed midway with per-step checkpoints, then the documented recovery",
  { concurrent: false },
  () => {
    test("creates: one wallet per resource at the service and in the state, no pending operation, no change left", async () => {
      await fleet.upKilledAfter("POST /v2/portfolio-wallets", WALLETS / 3);
      const afterCrash = await fleet.walletsAtTheService();
      expect(afterCrash.length).toBeGreaterThanOrEqual(WALLETS / 3);
      expect(afterCrash.length).toBeLessThan(WALLETS);
      // What the docs describe: the dead run's creates in flight are left pending in the checkpoint.
      const left = await fleet.checkpoint();
      expect(left.pendingOperations.length).toBeGreaterThan(0);
      expect(left.pendingOperations.every((operation) => operation.type === "creating")).toBe(true);

      await recover();

      const wallets = await fleet.walletsAtTheService();
      expect(wallets).toHaveLength(WALLETS);
      expect(new Set(wallets.map((w) => w.label)).size).toBe(WALLETS);
      // The wallets the dead run made were adopted through their URN-derived requestIds, not made again.
      const recovered = await fleet.checkpoint();
      expect(recovered.walletIds).toEqual(wallets.map((w) => String(w.id)).sort());
      expect(afterCrash.every((w) => recovered.walletIds.includes(String(w.id)))).toBe(true);
      expect(recovered.pendingOperations).toEqual([]);
      const { stdout } = await fleet.project.pulumi(["preview", "--expect-no-changes"]);
      expect(stdout).not.toMatch(/pending operation/i);
    }, 600_000);

    test("a reweight: every wallet on the new targets with one strategy update each, no pending operation, no change left", async () => {
      await fleet.project.pulumi(["config", "set", "bench:positions", JSON.stringify(REWEIGHTED)]);
      await fleet.upKilledAfter("PATCH /v2/portfolio-wallets/:id/strategy", WALLETS / 3);
      const reweighted = (w: {
        strategyConfig: { positions: { positionKey: string; targetWeightBps: number }[] };
      }) => w.strategyConfig.positions.find((p) => p.positionKey === "syrupUsdc")?.targetWeightBps === 8500;
      expect((await fleet.walletsAtTheService()).filter(reweighted).length).toBeLessThan(WALLETS);
      // The dead run's updates in flight are left pending in the checkpoint too.
      const left = await fleet.checkpoint();
      expect(left.pendingOperations.length).toBeGreaterThan(0);
      expect(left.pendingOperations.every((operation) => operation.type === "updating")).toBe(true);

      await recover();

      const wallets = await fleet.walletsAtTheService();
      expect(wallets).toHaveLength(WALLETS);
      expect(wallets.filter(reweighted)).toHaveLength(WALLETS);
      for (const wallet of wallets) expect(await fleet.strategyUpdatesOf(wallet.id)).toHaveLength(1);
      const recovered = await fleet.checkpoint();
      expect(recovered.walletIds).toHaveLength(WALLETS);
      expect(recovered.pendingOperations).toEqual([]);
      await fleet.project.pulumi(["preview", "--expect-no-changes"]);
    }, 600_000);
  },
);
