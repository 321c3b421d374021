import { randomUUID } from "node:crypto";
import { describe, expect, test } from "vitest";
import {
  OTHER_TOKEN,
  POSITIONS_A,
  POSITIONS_B,
  POSITIONS_C,
  canonical,
  weightsOf,
  checked,
  clientOf,
  mutatingKeys,
  providerOf,
  requestCounts,
  resetRequestCounts,
  setPolicy,
  urnOf,
  walletTargets,
  useProviderSandbox,
} from "./helpers.ts";

const strategies = providerOf("walletStrategy");

const t = useProviderSandbox({ configure: [strategies], policy: { strategyUpdateApprovals: 0 } });

/** A wallet made elsewhere (another stack, or by hand). */
async function existingWallet(positions = POSITIONS_A, token?: string) {
  return clientOf(t, token).wallets.create({ requestId: randomUUID(), positions });
}

async function createStrategy(walletId: string, positions: typeof POSITIONS_A) {
  const inputs = await checked(strategies, {}, { resourceUrn: urnOf("WalletStrategy"), walletId, positions });
  const { id, outs } = await strategies.create(inputs);
  return { id: id as string, outs, inputs };
}

describe("WalletStrategy", () => {
  test("create moves an existing wallet to the target through the strategy PATCH", async () => {
    const wallet = await existingWallet(POSITIONS_A);
    await resetRequestCounts(t);
    const { id, outs } = await createStrategy(wallet.id, POSITIONS_B);
    expect(id).toBe(`${wallet.id}/strategy`);
    expect(mutatingKeys(await requestCounts(t))).toEqual(["PATCH /v2/portfolio-wallets/:id/strategy"]);
    expect(outs).toMatchObject({
      walletId: wallet.id,
      targetWeightsBps: { tbills: 2500, syrupUsdc: 7500 },
      strategyChangeStatus: "completed",
    });
    expect(await walletTargets(t, wallet.id)).toEqual(canonical(POSITIONS_B));
  });

  test("create on a wallet already at the target makes no request that changes anything", async () => {
    const wallet = await existingWallet(POSITIONS_A);
    await resetRequestCounts(t);
    const { outs } = await createStrategy(wallet.id, POSITIONS_A);
    expect(outs.strategyChange).toBeNull();
    expect(mutatingKeys(await requestCounts(t))).toEqual([]);
  });

  test("create for a wallet this token cannot see fails with what to check", async () => {
    const foreign = await existingWallet(POSITIONS_A, OTHER_TOKEN);
    const inputs = await checked(
      strategies,
      {},
      {
        resourceUrn: urnOf("WalletStrategy"),
        walletId: foreign.id,
        positions: POSITIONS_B,
      },
    );
    await expect(strategies.create(inputs)).rejects.toThrow(`walletId ${foreign.id}: no such wallet`);
    expect(await walletTargets(t, foreign.id, OTHER_TOKEN)).toEqual(canonical(POSITIONS_A));
  });

  test("without an approver a pending change leaves the update successful and visible", async () => {
    await setPolicy(t, { strategyUpdateApprovals: 1 });
    const wallet = await existingWallet(POSITIONS_A);
    const { outs } = await createStrategy(wallet.id, POSITIONS_B);
    expect(outs.strategyChangeStatus).toBe("pending_approval");
    expect(outs.strategyChange.signingActivityId).toEqual(expect.any(String));
    expect(await walletTargets(t, wallet.id)).toEqual(canonical(POSITIONS_A));
  });

  test("diff: a walletId change replaces, a positions change updates, reordering is no change", async () => {
    const wallet = await existingWallet(POSITIONS_A);
    const { id, outs } = await createStrategy(wallet.id, POSITIONS_A);
    const same = await checked(strategies, outs, {
      resourceUrn: outs.resourceUrn,
      walletId: wallet.id,
      positions: [...POSITIONS_A].reverse(),
    });
    expect(await strategies.diff(id, outs, same)).toMatchObject({ changes: false, replaces: [] });

    const moved = await checked(strategies, outs, {
      resourceUrn: outs.resourceUrn,
      walletId: wallet.id,
      positions: POSITIONS_B,
    });
    expect(await strategies.diff(id, outs, moved)).toMatchObject({ changes: true, replaces: [] });

    const other = await existingWallet(POSITIONS_A);
    const elsewhere = await checked(strategies, outs, {
      resourceUrn: outs.resourceUrn,
      walletId: other.id,
      positions: POSITIONS_A,
    });
    expect(await strategies.diff(id, outs, elsewhere)).toMatchObject({
      changes: true,
      replaces: ["walletId"],
    });
  });

  test("update applies a positions change", async () => {
    const wallet = await existingWallet(POSITIONS_A);
    const { id, outs } = await createStrategy(wallet.id, POSITIONS_B);
    const news = await checked(strategies, outs, {
      resourceUrn: outs.resourceUrn,
      walletId: wallet.id,
      positions: POSITIONS_C,
    });
    const { outs: updated } = await strategies.update(id, outs, news);
    expect(updated.strategyChangeStatus).toBe("completed");
    expect(updated.strategyChange.requestId).not.toBe(outs.strategyChange.requestId);
    expect(await walletTargets(t, wallet.id)).toEqual(canonical(POSITIONS_C));
  });

  test("refresh: rate drift is no diff, an out-of-band change is a diff back to the code", async () => {
    const wallet = await existingWallet(POSITIONS_A);
    const { id, outs, inputs } = await createStrategy(wallet.id, POSITIONS_B);
    const rate = await t.api("PUT", "/_sandbox/catalog/syrupUsdc/rate", { body: { currentRateBps: 123 } });
    expect(rate.status).toBe(200);
    const drifted = await strategies.read(id, outs);
    expect(drifted.id).toBe(id);
    expect(drifted.props.blendedRateBps).not.toBe(outs.blendedRateBps);
    expect((await strategies.diff(id, drifted.props, inputs)).changes).toBe(false);

    await clientOf(t).wallets.updateStrategy(wallet.id, { requestId: randomUUID(), positions: POSITIONS_C });
    await t.api("POST", "/_sandbox/clock/advance", { body: { seconds: 60 } });
    const changed = await strategies.read(id, drifted.props);
    expect(changed.props.targetWeightsBps).toEqual(weightsOf(POSITIONS_C));
    expect(changed.inputs.targetWeightsBps).toEqual(weightsOf(POSITIONS_C));
    const news = await checked(strategies, changed.inputs, {
      resourceUrn: outs.resourceUrn,
      walletId: wallet.id,
      positions: POSITIONS_B,
    });
    expect(await strategies.diff(id, changed.props, news)).toMatchObject({ changes: true, replaces: [] });
  });

  test("read of a wallet that is gone leaves state cleanly", async () => {
    const wallet = await existingWallet(POSITIONS_A);
    const { id, outs } = await createStrategy(wallet.id, POSITIONS_A);
    const missing = randomUUID();
    expect(await strategies.read(id, { ...outs, walletId: missing })).toMatchObject({ id: "" });
  });

  test("delete stops managing and leaves the allocation as it is, without any request", async () => {
    const wallet = await existingWallet(POSITIONS_A);
    const { id, outs } = await createStrategy(wallet.id, POSITIONS_B);
    await resetRequestCounts(t);
    await strategies.delete(id, outs);
    expect(await requestCounts(t)).toEqual({});
    expect(await walletTargets(t, wallet.id)).toEqual(canonical(POSITIONS_B));
  });

  test("moving management to another wallet (a replacement, same URN) moves that wallet too", async () => {
    const first = await existingWallet(POSITIONS_A);
    const second = await existingWallet(POSITIONS_A);
    const resourceUrn = urnOf("WalletStrategy");
    const inputs = await checked(strategies, {}, { resourceUrn, walletId: first.id, positions: POSITIONS_B });
    const { id, outs } = await strategies.create(inputs);

    // walletId changed: diff says replace, so the engine creates the new one, then deletes the old.
    const news = await checked(strategies, outs, {
      resourceUrn,
      walletId: second.id,
      positions: POSITIONS_B,
    });
    expect((await strategies.diff(id, outs, news)).replaces).toEqual(["walletId"]);
    const replacement = await strategies.create(news);
    await strategies.delete(id, outs);
    expect(replacement.outs.strategyChangeStatus).toBe("completed");
    expect(await walletTargets(t, second.id)).toEqual(canonical(POSITIONS_B));
    expect(await walletTargets(t, first.id)).toEqual(canonical(POSITIONS_B));
  });

  test("re-created under the same name after the wallet was changed by hand, it moves the wallet again", async () => {
    const wallet = await existingWallet(POSITIONS_A);
    const resourceUrn = urnOf("WalletStrategy");
    const inputs = await checked(
      strategies,
      {},
      { resourceUrn, walletId: wallet.id, positions: POSITIONS_B },
    );
    const { id, outs } = await strategies.create(inputs);
    await strategies.delete(id, outs);
    await clientOf(t).wallets.updateStrategy(wallet.id, { requestId: randomUUID(), positions: POSITIONS_A });
    await t.api("POST", "/_sandbox/clock/advance", { body: { seconds: 60 } });
    expect(await walletTargets(t, wallet.id)).toEqual(canonical(POSITIONS_A));

    // Same URN, same target as the first life: the first requestId would replay a completed update.
    const again = await strategies.create(inputs);
    expect(again.outs.targetWeightsBps).toEqual(weightsOf(POSITIONS_B));
    expect(await walletTargets(t, wallet.id)).toEqual(canonical(POSITIONS_B));
  });
});
