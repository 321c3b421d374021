// What a cancelled CI job or a lost runner leaves behind, in each of the engine's checkpoint modes,
// and the way back docs/provider.md gives for it ("A cancelled or killed run"), followed word for
// word. Shown through the real engine and the packed package, in a project outside the repository:
// the CLI and every process it started are killed with SIGKILL a third of the way through an `up`
// of 40 wallets, and again a third of the way through a reweight of all of them.
//
// - Per-step checkpoints (the engine's default): the dead run's operations in flight are left
//   pending in the checkpoint; the recovery clears them and runs `up` again.
// - PULUMI_SKIP_CHECKPOINTS=true: the engine writes the state once, at the end of an update, so the
//   dead run leaves no record of what it did; the next `up` sends the same creates and strategy
//   changes again, and the service answers with what it already did, because each requestId derives
//   from the resource's URN (sdk/nodejs/client/requestIds.ts).
//
// Either way the service ends with exactly one wallet per resource and one strategy update per
// reweighted wallet, the state holds every wallet, and nothing is left to change.
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { requestCounts, resetRequestCounts } from "../support/sandboxAccess.ts";
import { Fleet } from "./harness/fleet.ts";

const WALLETS = 40;
const REWEIGHTED = [
  { positionKey: "tbills", targetWeightBps: 1500 },
  { positionKey: "syrupUsdc", targetWeightBps: 8500 },
];

/** The checkpoint as `pulumi stack export` shows it (Fleet.checkpoint). */
type Checkpoint = Awaited<ReturnType<Fleet["checkpoint"]>>;

interface CheckpointMode {
  title: string;
  /** The fleet's stack and organization name. */
  name: string;
  /** The environment every `pulumi` command of the mode runs with. */
  env: Record<string, string>;
  /** What the killed run left in the checkpoint, in the middle of `operation`s. */
  checkLeftBehind(checkpoint: Checkpoint, operation: "creating" | "updating"): void;
  /** What docs/provider.md says to run next (`pulumi cancel` was run by upKilledAfter). */
  recover(fleet: Fleet): Promise<void>;
  /** The wallet creates the recovery sent: the service makes a wallet once whatever it is sent. */
  checkCreatesSentAgain(count: number): void;
}

const MODES: CheckpointMode[] = [
  {
    title: "per-step checkpoints (the engine's default)",
    name: "killed-per-step",
    env: {},
    checkLeftBehind(checkpoint, operation) {
      // What the docs describe: the dead run's operations in flight are left pending.
      expect(checkpoint.pendingOperations.length).toBeGreaterThan(0);
      expect(checkpoint.pendingOperations.every(({ type }) => type === operation)).toBe(true);
    },
    async recover(fleet) {
      await fleet.project.pulumi(["refresh", "--clear-pending-creates", "--yes"]);
      await fleet.project.pulumi(["up", "--yes"]);
    },
    checkCreatesSentAgain(count) {
      // The recorded wallets are not sent again; the cleared pending ones and the rest are.
      expect(count).toBeGreaterThan(0);
      expect(count).toBeLessThanOrEqual(WALLETS);
    },
  },
  {
    title: "PULUMI_SKIP_CHECKPOINTS=true",
    name: "killed-skip-checkpoints",
    env: { PULUMI_SKIP_CHECKPOINTS: "true" },
    checkLeftBehind(checkpoint, operation) {
      // Nothing of the dead run is recorded: no pending operation, and no wallet it created.
      expect(checkpoint.pendingOperations).toEqual([]);
      if (operation === "creating") expect(checkpoint.walletIds).toEqual([]);
    },
    async recover(fleet) {
      await fleet.project.pulumi(["up", "--yes", "--skip-preview"], { PULUMI_SKIP_CHECKPOINTS: "true" });
    },
    checkCreatesSentAgain(count) {
      // Nothing was recorded, so every create is sent again, the dead run's ones included.
      expect(count).toBe(WALLETS);
    },
  },
];

const onNewTargets = (wallet: {
  strategyConfig: { positions: { positionKey: string; targetWeightBps: number }[] };
}) => wallet.strategyConfig.positions.find((p) => p.positionKey === "syrupUsdc")?.targetWeightBps === 8500;

describe.each(MODES)("an up killed midway with $title, then the documented way back", (mode) => {
  let fleet: Fleet;

  beforeAll(async () => {
    fleet = await Fleet.start(mode.name, WALLETS);
  }, 300_000);

  afterAll(async () => {
    await fleet?.close();
  });

  test("creates: one wallet per resource at the service and in the state, each made once, no change left", async () => {
    await fleet.upKilledAfter("POST /v2/portfolio-wallets", WALLETS / 3, mode.env);
    const afterCrash = await fleet.walletsAtTheService();
    expect(afterCrash.length).toBeGreaterThanOrEqual(WALLETS / 3);
    expect(afterCrash.length).toBeLessThan(WALLETS);
    mode.checkLeftBehind(await fleet.checkpoint(), "creating");

    await resetRequestCounts(fleet.access);
    await mode.recover(fleet);

    const wallets = await fleet.walletsAtTheService();
    expect(wallets).toHaveLength(WALLETS);
    expect(new Set(wallets.map((w) => w.label)).size).toBe(WALLETS);
    // The wallets the dead run made were adopted through their URN-derived requestIds, not made again.
    const recovered = await fleet.checkpoint();
    expect(recovered.walletIds).toEqual(wallets.map((w) => String(w.id)).sort());
    expect(afterCrash.every((w) => recovered.walletIds.includes(String(w.id)))).toBe(true);
    expect(recovered.pendingOperations).toEqual([]);
    mode.checkCreatesSentAgain((await requestCounts(fleet.access))["POST /v2/portfolio-wallets"] ?? 0);
    const { stdout } = await fleet.project.pulumi(["preview", "--expect-no-changes"], mode.env);
    expect(stdout).not.toMatch(/pending operation/i);
  }, 600_000);

  test("a reweight: every wallet on the new targets with one strategy update each, no change left", async () => {
    await fleet.project.pulumi(["config", "set", "bench:positions", JSON.stringify(REWEIGHTED)]);
    await fleet.upKilledAfter("PATCH /v2/portfolio-wallets/:id/strategy", WALLETS / 3, mode.env);
    expect((await fleet.walletsAtTheService()).filter(onNewTargets).length).toBeLessThan(WALLETS);
    mode.checkLeftBehind(await fleet.checkpoint(), "updating");

    await mode.recover(fleet);

    const wallets = await fleet.walletsAtTheService();
    expect(wallets).toHaveLength(WALLETS);
    expect(wallets.filter(onNewTargets)).toHaveLength(WALLETS);
    for (const wallet of wallets) expect(await fleet.strategyUpdatesOf(wallet.id)).toHaveLength(1);
    const recovered = await fleet.checkpoint();
    expect(recovered.walletIds).toHaveLength(WALLETS);
    expect(recovered.pendingOperations).toEqual([]);
    await fleet.project.pulumi(["preview", "--expect-no-changes"], mode.env);
  }, 600_000);
});
