// What a cancelled CI job or a lost runner leaves behind, and the recovery docs/provider.md ("A
// cancelled or killed run") gives, followed word for word, in each of the engine's checkpoint modes:
// - per-step checkpoints (the default): the dead run's operations in flight are left pending in the
//   state; `pulumi cancel`, `pulumi refresh --clear-pending-creates`, `pulumi up`;
// - PULUMI_SKIP_CHECKPOINTS=true: the state is written once, at the end of an update, so a killed
//   `up` leaves no record of what it did; `pulumi cancel`, `pulumi up`. This provider's requestIds
//   derive from each resource's URN (provider/requestIds.ts), so the second `up` sends the same
//   creates and strategy changes, and the service answers with what it already did instead of doing
//   it twice.
// Shown through the real engine and the packed package in a project outside the repository, one
// stack per mode: the CLI and every process it started are killed with SIGKILL a third of the way
// through an `up` of many wallets, and again a third of the way through a reweight of all of them.
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { requestCounts, resetRequestCounts } from "../support/sandboxAccess.ts";
import { Fleet } from "./harness/fleet.ts";

interface Position {
  positionKey: string;
  targetWeightBps: number;
}

interface CheckpointMode {
  /** The stack that shows it, in the shared fleet project. */
  stack: string;
  title: string;
  /** The engine's environment in every command of this mode. */
  env: Record<string, string>;
  wallets: number;
  /** Reweighted to, with syrupUsdc's target distinct per mode. */
  reweighted: Position[];
}

const MODES: CheckpointMode[] = [
  {
    stack: "per-step",
    title: "an up killed midway with per-step checkpoints, then the documented recovery",
    env: {},
    wallets: 40,
    reweighted: [
      { positionKey: "tbills", targetWeightBps: 1500 },
      { positionKey: "syrupUsdc", targetWeightBps: 8500 },
    ],
  },
  {
    stack: "skip-checkpoints",
    title: "PULUMI_SKIP_CHECKPOINTS=true: an up killed midway, then the documented recovery (up again)",
    env: { PULUMI_SKIP_CHECKPOINTS: "true" },
    // More wallets: without checkpoint writes an up runs faster, and must still be midway when killed.
    wallets: 60,
    reweighted: [
      { positionKey: "tbills", targetWeightBps: 2500 },
      { positionKey: "syrupUsdc", targetWeightBps: 7500 },
    ],
  },
];
const perStep = (mode: CheckpointMode) => mode.env["PULUMI_SKIP_CHECKPOINTS"] === undefined;

let fleets: Map<string, Fleet>;

beforeAll(async () => {
  const started = await Fleet.startStacks(
    "killed-run",
    Object.fromEntries(MODES.map((mode) => [mode.stack, mode.wallets])),
  );
  fleets = new Map(started.map((fleet) => [fleet.stack, fleet]));
}, 300_000);

afterAll(async () => {
  for (const fleet of fleets?.values() ?? []) await fleet.close();
});

describe.each(MODES)("$title", { concurrent: false }, (mode) => {
  const WALLETS = mode.wallets;
  let fleet: Fleet;
  const pulumi = (args: string[]) => fleet.project.pulumi(args, mode.env);

  /** The recovery docs/provider.md gives; `pulumi cancel` was run by upKilledAfter. */
  async function recover(): Promise<void> {
    if (perStep(mode)) await pulumi(["refresh", "--clear-pending-creates", "--yes"]);
    await pulumi(["up", "--yes", ...(perStep(mode) ? [] : ["--skip-preview"])]);
  }

  beforeAll(async () => {
    fleet = fleets.get(mode.stack)!;
    await fleet.select();
  });

  test("creates: one wallet per resource at the service and in the state, no pending operation, no change left", async () => {
    await fleet.upKilledAfter("POST /v2/portfolio-wallets", WALLETS / 3, mode.env);
    const afterCrash = await fleet.walletsAtTheService();
    // Killed midway: some wallets made, not all.
    expect(afterCrash.length).toBeGreaterThanOrEqual(WALLETS / 3);
    expect(afterCrash.length).toBeLessThan(WALLETS);
    const left = await fleet.checkpoint();
    if (perStep(mode)) {
      // What the docs describe: the dead run's creates in flight are left pending in the checkpoint.
      expect(left.pendingOperations.length).toBeGreaterThan(0);
      expect(left.pendingOperations.every((operation) => operation.type === "creating")).toBe(true);
    } else {
      // None of them recorded.
      expect(left.walletIds).toEqual([]);
    }

    await resetRequestCounts(fleet.access);
    await recover();

    const wallets = await fleet.walletsAtTheService();
    expect(wallets).toHaveLength(WALLETS);
    expect(new Set(wallets.map((w) => w.label)).size).toBe(WALLETS);
    // The wallets the dead run made were adopted through their URN-derived requestIds, not made again.
    const recovered = await fleet.checkpoint();
    expect(recovered.walletIds).toEqual(wallets.map((w) => String(w.id)).sort());
    expect(afterCrash.every((w) => recovered.walletIds.includes(String(w.id)))).toBe(true);
    expect(recovered.pendingOperations).toEqual([]);
    if (!perStep(mode)) {
      // With nothing recorded, the second up sends every create again, and the service makes none twice.
      expect((await requestCounts(fleet.access))["POST /v2/portfolio-wallets"]).toBe(WALLETS);
    }
    const { stdout } = await pulumi(["preview", "--expect-no-changes"]);
    expect(stdout).not.toMatch(/pending operation/i);
  }, 600_000);

  test("a reweight: every wallet on the new targets, no pending operation, no change left", async () => {
    const newTarget = mode.reweighted.find((p) => p.positionKey === "syrupUsdc")!.targetWeightBps;
    const reweighted = (w: { strategyConfig: { positions: Position[] }; positions: Position[] }) =>
      w.strategyConfig.positions.find((p) => p.positionKey === "syrupUsdc")?.targetWeightBps === newTarget &&
      w.positions.find((p) => p.positionKey === "syrupUsdc")?.targetWeightBps === newTarget;
    await fleet.project.pulumi(["config", "set", "bench:positions", JSON.stringify(mode.reweighted)]);
    await fleet.upKilledAfter("PATCH /v2/portfolio-wallets/:id/strategy", WALLETS / 3, mode.env);
    expect((await fleet.walletsAtTheService()).filter(reweighted).length).toBeLessThan(WALLETS);
    if (perStep(mode)) {
      // The dead run's updates in flight are left pending in the checkpoint too.
      const left = await fleet.checkpoint();
      expect(left.pendingOperations.length).toBeGreaterThan(0);
      expect(left.pendingOperations.every((operation) => operation.type === "updating")).toBe(true);
    }

    await recover();

    const wallets = await fleet.walletsAtTheService();
    expect(wallets).toHaveLength(WALLETS);
    expect(wallets.filter(reweighted)).toHaveLength(WALLETS);
    // One strategy update each: the killed run's changes were answered again, not made twice.
    for (const wallet of wallets) expect(await fleet.strategyUpdatesOf(wallet.id)).toHaveLength(1);
    const recovered = await fleet.checkpoint();
    expect(recovered.walletIds).toHaveLength(WALLETS);
    expect(recovered.pendingOperations).toEqual([]);
    await pulumi(["preview", "--expect-no-changes"]);
  }, 600_000);
});
