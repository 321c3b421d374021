// With PULUMI_SKIP_CHECKPOINTS=true the engine writes the state once, at the end of an update: an
// `up` killed midway leaves no record of what it did. This provider's requestIds derive from each
// resource's URN (provider/requestIds.ts), so running `up` again sends the same creates and
// strategy changes, and the service answers with what it already did instead of doing it twice.
// Shown here through the real engine and the packed package in a project outside the repository:
// the CLI and every process it started are killed with SIGKILL in the middle of an `up` of many
// wallets, and again in the middle of a strategy change of all of them.
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { requestCounts, resetRequestCounts } from "../support/sandboxAccess.ts";
import { Fleet } from "./harness/fleet.ts";

const WALLETS = 60;
const REWEIGHTED = [
  { positionKey: "tbills", targetWeightBps: 2500 },
  { positionKey: "syrupUsdc", targetWeightBps: 7500 },
];
const SKIP = { PULUMI_SKIP_CHECKPOINTS: "true" };

let fleet: Fleet;

beforeAll(async () => {
  fleet = await Fleet.start("skip-checkpoints", WALLETS);
}, 300_000);

afterAll(async () => {
  await fleet?.close();
});

describe("PULUMI_SKIP_CHECKPOINTS=true: an up killed midway, run again", { concurrent: false }, () => {
  test("creates: the service holds exactly one wallet per resource, and the state holds them all", async () => {
    await fleet.upKilledAfter("POST /v2/portfolio-wallets", WALLETS / 3, SKIP);
    const afterCrash = await fleet.walletsAtTheService();
    // Killed midway: some wallets made, not all, and none of them recorded.
    expect(afterCrash.length).toBeGreaterThanOrEqual(WALLETS / 3);
    expect(afterCrash.length).toBeLessThan(WALLETS);
    expect((await fleet.checkpoint()).walletIds).toEqual([]);

    await resetRequestCounts(fleet.access);
    await fleet.project.pulumi(["up", "--yes", "--skip-preview"], SKIP);
    const wallets = await fleet.walletsAtTheService();
    const state = (await fleet.checkpoint()).walletIds;
    expect(wallets).toHaveLength(WALLETS);
    expect(new Set(wallets.map((w) => w.label)).size).toBe(WALLETS);
    expect(state).toEqual(wallets.map((w) => String(w.id)).sort());
    // The wallets made before the crash were adopted, not made again.
    expect(afterCrash.every((w) => state.includes(String(w.id)))).toBe(true);
    expect((await requestCounts(fleet.access))["POST /v2/portfolio-wallets"]).toBe(WALLETS);
    await fleet.project.pulumi(["preview", "--expect-no-changes"], SKIP);
  }, 300_000);

  test("a strategy change of every wallet: each wallet ends on the new targets, and nothing is left to change", async () => {
    await fleet.project.pulumi(["config", "set", "bench:positions", JSON.stringify(REWEIGHTED)]);
    await fleet.upKilledAfter("PATCH /v2/portfolio-wallets/:id/strategy", WALLETS / 3, SKIP);
    const beforeRerun = await fleet.walletsAtTheService();
    const reweighted = (w: { positions: { positionKey: string; targetWeightBps: number }[] }) =>
      w.positions.find((p) => p.positionKey === "syrupUsdc")?.targetWeightBps === 7500;
    expect(beforeRerun.filter(reweighted).length).toBeLessThan(WALLETS);

    await fleet.project.pulumi(["up", "--yes", "--skip-preview"], SKIP);
    const wallets = await fleet.walletsAtTheService();
    expect(wallets).toHaveLength(WALLETS);
    expect(wallets.filter(reweighted)).toHaveLength(WALLETS);
    expect((await fleet.checkpoint()).walletIds).toHaveLength(WALLETS);
    await fleet.project.pulumi(["preview", "--expect-no-changes"], SKIP);
  }, 300_000);
});
