import { randomUUID } from "node:crypto";
import { describe, expect, test } from "vitest";
import {
  OTHER_TOKEN,
  POSITIONS_A,
  POSITIONS_B,
  POSITIONS_C,
  addFault,
  baseConfig,
  canonical,
  changeOutside,
  weightsOf,
  checked,
  clientOf,
  mutatingKeys,
  providerOf,
  requestCounts,
  resetRequestCounts,
  urnOf,
  walletIds,
  walletTargets,
  useProviderSandbox,
} from "./helpers.ts";

const wallets = providerOf("portfolioWallet");

// Deposits stay pending (pendingAllocationsUsd) until the sandbox clock is advanced an hour.
const t = useProviderSandbox({ sandbox: { depositProcessingDelayMs: 3_600_000 }, configure: [wallets] });

/** What the engine does for a new resource: check, then create with the checked inputs. */
async function createWallet(news: Record<string, unknown>) {
  const inputs = await checked(wallets, {}, news);
  const { id, outs } = await wallets.create(inputs);
  return { id: id as string, outs, inputs };
}

const walletNews = (overrides: Record<string, unknown> = {}) => ({
  resourceUrn: urnOf("PortfolioWallet"),
  positions: POSITIONS_A,
  ...overrides,
});

/** A simulated on-chain transfer to the wallet's ethereum deposit address. */
async function deposit(outs: { depositAddressByChain: Record<string, string> }, amount: number) {
  const res = await t.api("POST", "/_sandbox/deposits", {
    body: {
      chain: "ethereum",
      address: outs.depositAddressByChain["ethereum"],
      amount,
      txHash: `0x${randomUUID()}`,
    },
  });
  expect(res.status).toBe(201);
}

async function advanceClock(seconds: number) {
  const res = await t.api("POST", "/_sandbox/clock/advance", { body: { seconds } });
  expect(res.status).toBe(200);
}

describe("PortfolioWallet create", () => {
  test("creates one wallet with one POST and exposes its addresses and rate as lean outputs", async () => {
    await resetRequestCounts(t);
    const before = await walletIds(t);
    const { id, outs } = await createWallet(walletNews({ label: "treasury" }));
    const counts = await requestCounts(t);
    expect(counts["POST /v2/portfolio-wallets"]).toBe(1);
    expect(mutatingKeys(counts)).toEqual(["POST /v2/portfolio-wallets"]);
    expect(await walletIds(t)).toEqual([id, ...before]);
    expect(outs).toMatchObject({
      walletId: id,
      label: "treasury",
      status: "active",
      targetWeightsBps: { tbills: 6000, syrupUsdc: 4000 },
      onDelete: "fail-if-funded",
      strategyChange: null,
      strategyChangeStatus: null,
    });
    const wallet = await clientOf(t).wallets.retrieve(id);
    expect(outs.blendedRateBps).toBe(wallet.blendedRateBps);
    expect(outs.depositAddressByChain).toEqual(
      Object.fromEntries(
        Object.entries(wallet.depositAddresses).map(([chain, entry]) => [chain, entry.address]),
      ),
    );
    // One shape per fact, and nothing that moves on its own (balances, drift) kept in state.
    for (const absent of [
      "positions",
      "depositAddresses",
      "strategyConfig",
      "currentPositions",
      "totalBalanceUsd",
      "liquidityProfile",
    ]) {
      expect(outs).not.toHaveProperty(absent);
    }
    expect(outs.creationRequestId).toMatch(
      /^[0-9a-f]{8}-[0-9a-f]{4}-5[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/,
    );
    // The rates the allocation was set at: the catalog's, for the target's sources only.
    const catalog = (await clientOf(t).catalog.listStrategies()).strategies;
    const rateOf = (key: string) => catalog.find((entry) => entry.positionKey === key)!.currentRateBps;
    expect(outs.appliedRatesBps).toEqual({ tbills: rateOf("tbills"), syrupUsdc: rateOf("syrupUsdc") });
  });

  test("the creation requestId is derived from the URN: same URN same key, other URN other key", async () => {
    const resourceUrn = urnOf("PortfolioWallet");
    const first = await createWallet(walletNews({ resourceUrn }));
    const again = await createWallet(walletNews({ resourceUrn }));
    const other = await createWallet(walletNews());
    expect(again.outs.creationRequestId).toBe(first.outs.creationRequestId);
    expect(other.outs.creationRequestId).not.toBe(first.outs.creationRequestId);
    // Same key, same body: the service answered with the wallet it already made.
    expect(again.id).toBe(first.id);
    expect(other.id).not.toBe(first.id);
  });

  test("a create whose answer was lost (dropped after apply, retries exhausted) makes no second wallet when run again", async () => {
    const news = walletNews();
    const inputs = await checked(wallets, {}, news);
    const before = await walletIds(t);
    // With no retry budget the request is sent once, and its answer is lost after the wallet was made.
    await wallets.configure({ ...baseConfig(t), "portfolio-wallet:retryTimeoutSeconds": "0" });
    await addFault(t, { method: "POST", path: "/v2/portfolio-wallets", times: 1, kind: "drop" });
    await expect(wallets.create(inputs)).rejects.toThrow(/was sent once; the last answer was no connection/);
    const afterFailure = await walletIds(t);
    expect(afterFailure).toHaveLength(before.length + 1);

    // The resumed `pulumi up` runs create again with the same inputs (same URN).
    const { id } = await wallets.create(inputs);
    const afterRetry = await walletIds(t);
    expect(afterRetry).toEqual(afterFailure);
    expect(afterRetry[0]).toBe(id);
  });

  test("a create whose first answer is dropped is retried with the same key: one wallet", async () => {
    const before = await walletIds(t);
    await addFault(t, { method: "POST", path: "/v2/portfolio-wallets", times: 1, kind: "drop" });
    const { id } = await createWallet(walletNews());
    expect(await walletIds(t)).toEqual([id, ...before]);
  });

  test("re-created under the same name with another allocation, it takes over its earlier wallet when that is empty", async () => {
    const resourceUrn = urnOf("PortfolioWallet");
    const { id, outs: first } = await createWallet(walletNews({ resourceUrn, label: "recreated" }));
    // Another stack's wallet of the same label and allocation: never the one taken over.
    await clientOf(t).wallets.create({ requestId: randomUUID(), positions: POSITIONS_A, label: "recreated" });
    // `pulumi destroy` drops the empty wallet from the stack; it stays at the service.
    await wallets.delete(id, first);
    const before = await walletIds(t);

    const again = await createWallet(walletNews({ resourceUrn, label: "recreated", positions: POSITIONS_B }));
    expect(again.id).toBe(id);
    expect(await walletIds(t)).toEqual(before);
    expect(await walletTargets(t, id)).toEqual(canonical(POSITIONS_B));
    expect(again.outs.creationRequestId).toBe(first.creationRequestId);
    expect(again.outs.strategyChangeStatus).toBe("completed");
  });

  test("re-created under the same name with another allocation, a funded earlier wallet is refused, named, with what to do", async () => {
    const resourceUrn = urnOf("PortfolioWallet");
    const { id, outs } = await createWallet(walletNews({ resourceUrn }));
    await deposit(outs, 1_500);
    const before = await walletIds(t);
    const inputs = await checked(wallets, {}, walletNews({ resourceUrn, positions: POSITIONS_B }));
    const failure = await wallets.create(inputs).then(
      () => undefined,
      (error: Error) => error,
    );
    expect(failure?.message).toMatch(new RegExp(`already created for this resource: ${id} `));
    expect(failure?.message).toContain("it holds $1,500.00");
    expect(failure?.message).toContain(`set adoptWalletId to ${id}`);
    expect(failure?.message).toContain("withdraw its funds first");
    // Finding it created nothing, and changed nothing of the funded wallet.
    expect(await walletIds(t)).toEqual(before);
    expect(await walletTargets(t, id)).toEqual(canonical(POSITIONS_A));
  });

  test("when the earlier wallet was reweighted since, nothing is taken over and the same-label wallets are listed as such", async () => {
    const resourceUrn = urnOf("PortfolioWallet");
    const label = `reweighted-${randomUUID()}`;
    const { id } = await createWallet(walletNews({ resourceUrn, label }));
    await changeOutside(t, id, POSITIONS_B);
    const inputs = await checked(wallets, {}, walletNews({ resourceUrn, label, positions: POSITIONS_C }));
    await expect(wallets.create(inputs)).rejects.toThrow(
      new RegExp(
        `cannot say which wallet a requestId created .* wallets labelled "${label}" are ${id}: listed because one of them may be it`,
        "s",
      ),
    );
    expect(await walletTargets(t, id)).toEqual(canonical(POSITIONS_B));
  });
});

describe("PortfolioWallet adoption", () => {
  test("adopts an existing wallet of the organization and reconciles its allocation", async () => {
    const existing = await clientOf(t).wallets.create({ requestId: randomUUID(), positions: POSITIONS_A });
    const before = await walletIds(t);
    const { id, outs } = await createWallet(
      walletNews({ adoptWalletId: existing.id, positions: POSITIONS_B }),
    );
    expect(id).toBe(existing.id);
    expect(await walletIds(t)).toEqual(before);
    expect(outs.creationRequestId).toBeNull();
    expect(outs.adoptWalletId).toBe(existing.id);
    expect(outs.strategyChangeStatus).toBe("completed");
    expect(await walletTargets(t, id)).toEqual(canonical(POSITIONS_B));
  });

  test("adopting a wallet of the same allocation makes no strategy change", async () => {
    const existing = await clientOf(t).wallets.create({ requestId: randomUUID(), positions: POSITIONS_A });
    await resetRequestCounts(t);
    const { outs } = await createWallet(walletNews({ adoptWalletId: existing.id }));
    expect(outs.strategyChange).toBeNull();
    expect(mutatingKeys(await requestCounts(t))).toEqual([]);
  });

  test("adopting a labelled wallet without a label in code: refresh and the next up stay clean", async () => {
    const existing = await clientOf(t).wallets.create({
      requestId: randomUUID(),
      positions: POSITIONS_A,
      label: "legacy",
    });
    const news = walletNews({ adoptWalletId: existing.id });
    const { id, outs } = await createWallet(news);
    const refreshed = await wallets.read(id, outs);
    const next = await wallets.check(refreshed.inputs, news);
    expect(next.failures ?? []).toEqual([]);
    expect((await wallets.diff(id, refreshed.props, next.inputs)).changes).toBe(false);
  });

  test("adopting a wallet with the label it already has is clean too", async () => {
    const existing = await clientOf(t).wallets.create({
      requestId: randomUUID(),
      positions: POSITIONS_A,
      label: "legacy",
    });
    const news = walletNews({ adoptWalletId: existing.id, label: "legacy" });
    const { id, outs } = await createWallet(news);
    expect(outs.label).toBe("legacy");
    const refreshed = await wallets.read(id, outs);
    const next = await checked(wallets, refreshed.inputs, news);
    expect((await wallets.diff(id, refreshed.props, next)).changes).toBe(false);
  });

  test("adopting with another label than the wallet's fails before any change: the service cannot rename", async () => {
    const existing = await clientOf(t).wallets.create({
      requestId: randomUUID(),
      positions: POSITIONS_A,
      label: "legacy",
    });
    const inputs = await checked(
      wallets,
      {},
      walletNews({ adoptWalletId: existing.id, label: "treasury", positions: POSITIONS_B }),
    );
    await expect(wallets.create(inputs)).rejects.toThrow(/label "treasury".*"legacy"/s);
    expect(await walletTargets(t, existing.id)).toEqual(canonical(POSITIONS_A));
  });

  test("adopting a wallet of another organization fails: it does not exist for this token", async () => {
    const foreign = await clientOf(t, OTHER_TOKEN).wallets.create({
      requestId: randomUUID(),
      positions: POSITIONS_A,
    });
    const inputs = await checked(wallets, {}, walletNews({ adoptWalletId: foreign.id }));
    await expect(wallets.create(inputs)).rejects.toThrow(
      `adoptWalletId ${foreign.id}: no such wallet for this API token's organization`,
    );
    expect(await walletTargets(t, foreign.id, OTHER_TOKEN)).toEqual(canonical(POSITIONS_A));
  });
});

describe("PortfolioWallet read and diff", () => {
  test("a refresh where only rates, time and drift moved produces no diff", async () => {
    const news = walletNews();
    const { id, outs, inputs } = await createWallet(news);
    const rate = await t.api("PUT", "/_sandbox/catalog/tbills/rate", { body: { currentRateBps: 999 } });
    expect(rate.status).toBe(200);
    await advanceClock(3600);

    const refreshed = await wallets.read(id, outs);
    expect(refreshed.id).toBe(id);
    // The live figures did move...
    expect(refreshed.props.blendedRateBps).not.toBe(outs.blendedRateBps);
    // ...while the rates the allocation was set at stay what they were.
    expect(refreshed.props.appliedRatesBps).toEqual(outs.appliedRatesBps);
    expect(refreshed.props.appliedRatesBps!["tbills"]).not.toBe(999);
    // ...and none of it is a change to apply.
    const diff = await wallets.diff(id, refreshed.props, await checked(wallets, refreshed.inputs, news));
    expect(diff).toMatchObject({ changes: false, replaces: [] });
    // Nor when diffing against the inputs as they were.
    expect((await wallets.diff(id, refreshed.props, inputs)).changes).toBe(false);
  });

  test("an out-of-band strategy change shows as a diff back to the code, and update restores the code's allocation", async () => {
    const news = walletNews();
    const { id, outs } = await createWallet(news);
    await clientOf(t).wallets.updateStrategy(id, { requestId: randomUUID(), positions: POSITIONS_B });
    await advanceClock(60);
    expect(await walletTargets(t, id)).toEqual(canonical(POSITIONS_B));

    const refreshed = await wallets.read(id, outs);
    expect(refreshed.props.targetWeightsBps).toEqual(weightsOf(POSITIONS_B));
    // Set outside the stack, at rates nobody recorded.
    expect(refreshed.props.appliedRatesBps).toBeNull();
    expect(refreshed.inputs.targetWeightsBps).toEqual(weightsOf(POSITIONS_B));
    expect(refreshed.inputs.targetWeightsBps).toEqual({ tbills: 2500, syrupUsdc: 7500 });
    const newInputs = await checked(wallets, refreshed.inputs, news);
    const diff = await wallets.diff(id, refreshed.props, newInputs);
    expect(diff).toMatchObject({ changes: true, replaces: [] });

    const { outs: updated } = await wallets.update(id, refreshed.props, newInputs);
    expect(updated.strategyChangeStatus).toBe("completed");
    expect(await walletTargets(t, id)).toEqual(canonical(POSITIONS_A));
    // Set again by the stack: recorded again.
    expect(Object.keys(updated.appliedRatesBps!).sort()).toEqual(["syrupUsdc", "tbills"]);
  });

  test("a wallet that is gone (404) leaves state cleanly", async () => {
    const { outs } = await createWallet(walletNews());
    const missing = randomUUID();
    expect(await wallets.read(missing, { ...outs, walletId: missing })).toMatchObject({ id: "" });
  });

  test("another organization's wallet reads as gone", async () => {
    const foreign = await clientOf(t, OTHER_TOKEN).wallets.create({
      requestId: randomUUID(),
      positions: POSITIONS_A,
    });
    const { outs } = await createWallet(walletNews());
    expect((await wallets.read(foreign.id, outs)).id).toBe("");
  });

  test("diff: positions in another order or with extra quote fields are no change", async () => {
    const { id, outs } = await createWallet(walletNews());
    const reordered = await checked(wallets, outs, {
      resourceUrn: outs.resourceUrn,
      positions: [
        { positionKey: "syrupUsdc", targetWeightBps: 4000, currentApy: 650 },
        { positionKey: "tbills", targetWeightBps: 6000 },
      ],
    });
    expect((await wallets.diff(id, outs, reordered)).changes).toBe(false);
  });

  test("diff: a positions or onDelete change is an update, never a replacement", async () => {
    const { id, outs } = await createWallet(walletNews());
    const moved = await checked(wallets, outs, { resourceUrn: outs.resourceUrn, positions: POSITIONS_B });
    expect(await wallets.diff(id, outs, moved)).toMatchObject({ changes: true, replaces: [] });
    const retained = await checked(wallets, outs, {
      resourceUrn: outs.resourceUrn,
      positions: POSITIONS_A,
      onDelete: "retain",
    });
    expect(await wallets.diff(id, outs, retained)).toMatchObject({ changes: true, replaces: [] });
  });
});

describe("PortfolioWallet update", () => {
  test("a positions change goes through the strategy PATCH and waits until the wallet shows it", async () => {
    const { id, outs } = await createWallet(walletNews());
    await resetRequestCounts(t);
    const news = await checked(wallets, outs, { resourceUrn: outs.resourceUrn, positions: POSITIONS_B });
    const { outs: updated } = await wallets.update(id, outs, news);
    expect(mutatingKeys(await requestCounts(t))).toEqual(["PATCH /v2/portfolio-wallets/:id/strategy"]);
    expect(updated).toMatchObject({
      walletId: id,
      targetWeightsBps: weightsOf(POSITIONS_B),
      strategyChangeStatus: "completed",
      strategyChange: { revision: 1, status: "completed", targetPositions: canonical(POSITIONS_B) },
    });
    expect(await walletTargets(t, id)).toEqual(canonical(POSITIONS_B));
  });

  test("an onDelete-only change makes no mutating request", async () => {
    const { id, outs } = await createWallet(walletNews());
    await resetRequestCounts(t);
    const news = await checked(wallets, outs, {
      resourceUrn: outs.resourceUrn,
      positions: POSITIONS_A,
      onDelete: "retain",
    });
    const { outs: updated } = await wallets.update(id, outs, news);
    expect(updated.onDelete).toBe("retain");
    expect(updated.appliedRatesBps).toEqual(outs.appliedRatesBps);
    expect(mutatingKeys(await requestCounts(t))).toEqual([]);
  });

  test("a failed strategy update throws with the service's failureReason, and a later up requests a new update", async () => {
    const { id, outs } = await createWallet(walletNews());
    const fault = await t.api("POST", "/_sandbox/faults/strategy-update", {
      body: { walletId: id, reason: "venue paused redemptions" },
    });
    expect(fault.status).toBe(201);
    const news = await checked(wallets, outs, { resourceUrn: outs.resourceUrn, positions: POSITIONS_B });
    await expect(wallets.update(id, outs, news)).rejects.toThrow(/failed: venue paused redemptions/);
    expect(await walletTargets(t, id)).toEqual(canonical(POSITIONS_A));

    // The engine keeps the old state after a failed update; the next `up` tries again.
    const { outs: retried } = await wallets.update(id, outs, news);
    expect(retried.strategyChangeStatus).toBe("completed");
    expect(await walletTargets(t, id)).toEqual(canonical(POSITIONS_B));
  });
});

describe("PortfolioWallet delete", () => {
  test("an empty wallet leaves the stack (the wallet stays at the service, empty)", async () => {
    const { id, outs } = await createWallet(walletNews());
    await resetRequestCounts(t);
    await expect(wallets.delete(id, outs)).resolves.toBeUndefined();
    expect(mutatingKeys(await requestCounts(t))).toEqual([]);
    expect(await walletIds(t)).toContain(id);
  });

  test('onDelete: "retain" leaves the stack without any request', async () => {
    const { id, outs } = await createWallet(walletNews({ onDelete: "retain" }));
    await resetRequestCounts(t);
    await wallets.delete(id, outs);
    expect(await requestCounts(t)).toEqual({});
    expect(await walletIds(t)).toContain(id);
  });

  test("a wallet that is already gone is deleted without error", async () => {
    const { outs } = await createWallet(walletNews());
    await expect(wallets.delete(randomUUID(), outs)).resolves.toBeUndefined();
  });

  test("a funded wallet is not dropped: delete fails with the balance and how to proceed", async () => {
    const news = walletNews();
    const { id, outs, inputs } = await createWallet(news);
    await deposit(outs, 250);
    await advanceClock(7200);

    // Balances moving is no diff...
    const refreshed = await wallets.read(id, outs);
    // 250 deposited, plus a little yield accrued over the advanced time.
    expect((await clientOf(t).wallets.retrieve(id)).totalBalanceUsd).toBeGreaterThanOrEqual(250);
    expect((await wallets.diff(id, refreshed.props, inputs)).changes).toBe(false);

    // ...but they do stop a delete.
    const failure = await wallets.delete(id, refreshed.props).then(
      () => undefined,
      (error: Error) => error,
    );
    expect(failure?.message).toContain(`refusing to drop portfolio wallet ${id}`);
    expect(failure?.message).toMatch(/holds \$250\.\d\d/);
    expect(failure?.message).toContain('onDelete: "retain"');
    expect(failure?.message).toContain("withdraw");
  });

  test("a wallet holding only pending allocations is not dropped either", async () => {
    const { id, outs } = await createWallet(walletNews());
    await deposit(outs, 40);
    const refreshed = await wallets.read(id, outs);
    expect((await clientOf(t).wallets.retrieve(id)).pendingAllocationsUsd).toBe(40);
    await expect(wallets.delete(id, refreshed.props)).rejects.toThrow(/\$40\.00 of it pending allocation/);
  });

  test('a funded wallet with onDelete: "retain" (applied by an up) leaves the stack and keeps its funds', async () => {
    const news = walletNews();
    const { id, outs } = await createWallet(news);
    await deposit(outs, 75);
    await advanceClock(7200);
    const retainNews = await checked(wallets, outs, { ...news, onDelete: "retain" });
    const { outs: retained } = await wallets.update(id, outs, retainNews);
    await expect(wallets.delete(id, retained)).resolves.toBeUndefined();
    const live = await clientOf(t).wallets.retrieve(id);
    expect(live.totalBalanceUsd).toBeGreaterThanOrEqual(75);
  });
});
