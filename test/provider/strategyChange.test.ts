import { randomUUID } from "node:crypto";
import { beforeAll, describe, expect, test } from "vitest";
import {
  POSITIONS_A,
  POSITIONS_B,
  POSITIONS_C,
  addFault,
  approverConfig,
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
  registeredApproverKeys,
  setPolicy,
  startProviderSandbox,
  urnOf,
  walletTargets,
  useProviderSandbox,
} from "./helpers.ts";
import type { TurnkeyApiKeyPair } from "../sdk/approval/turnkeyKeys.ts";
import { warnOfOutsideChange } from "../../provider/allocationResource.ts";
import { TargetAllocation } from "../../sdk/nodejs/contract/allocation.ts";
import { ServiceConnectionPool } from "../../provider/serviceConnection.ts";
import { createManualClock } from "../../sandbox/clock.ts";
import type { TestSandbox } from "../sandbox/helpers.ts";

const wallets = providerOf("portfolioWallet");

const t = useProviderSandbox({ configure: [wallets], policy: { strategyUpdateApprovals: 0 } });
let keys: TurnkeyApiKeyPair;
beforeAll(async () => {
  keys = await registeredApproverKeys(t);
});

async function createWallet(positions = POSITIONS_A) {
  const inputs = await checked(wallets, {}, { resourceUrn: urnOf("PortfolioWallet"), positions });
  const { id, outs } = await wallets.create(inputs);
  return { id: id as string, outs };
}

/** One `pulumi up` that changes the wallet's positions: check against the old state, then update. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
async function upTo(id: string, olds: any, positions: typeof POSITIONS_A) {
  const news = await checked(wallets, olds, { resourceUrn: olds.resourceUrn, positions });
  return (await wallets.update(id, olds, news)).outs;
}

async function signingActivity(activityId: string) {
  const res = await t.api("GET", `/_sandbox/signing-activities/${activityId}`);
  expect(res.status).toBe(200);
  return res.body;
}

describe("strategy change requestIds", () => {
  test("A → B → A sends a new key for each change, and the wallet really moves back", async () => {
    const { id, outs } = await createWallet(POSITIONS_A);
    const toB = await upTo(id, outs, POSITIONS_B);
    const backToA = await upTo(id, toB, POSITIONS_A);
    expect(toB.strategyChange.revision).toBe(1);
    expect(backToA.strategyChange.revision).toBe(2);
    expect(backToA.strategyChange.requestId).not.toBe(toB.strategyChange.requestId);
    expect(await walletTargets(t, id)).toEqual(canonical(POSITIONS_A));
  });

  test("B → A → B: the second B is a new update, not a replay of the first", async () => {
    const { id, outs } = await createWallet(POSITIONS_A);
    const firstB = await upTo(id, outs, POSITIONS_B);
    const a = await upTo(id, firstB, POSITIONS_A);
    const secondB = await upTo(id, a, POSITIONS_B);
    expect(secondB.strategyChange.requestId).not.toBe(firstB.strategyChange.requestId);
    expect(new Set([firstB, a, secondB].map((o) => o.strategyChange.requestId)).size).toBe(3);
    expect(secondB.strategyChangeStatus).toBe("completed");
    expect(await walletTargets(t, id)).toEqual(canonical(POSITIONS_B));
  });

  test("the same change in two resources gets two keys", async () => {
    const first = await createWallet(POSITIONS_A);
    const second = await createWallet(POSITIONS_A);
    const firstB = await upTo(first.id, first.outs, POSITIONS_B);
    const secondB = await upTo(second.id, second.outs, POSITIONS_B);
    expect(firstB.strategyChange.requestId).not.toBe(secondB.strategyChange.requestId);
  });

  test("an update whose answers were lost is resumed with the same key: one strategy update", async () => {
    await setPolicy(t, { strategyUpdateApprovals: 1 });
    const { id, outs } = await createWallet(POSITIONS_A);
    // With no retry budget the request is sent once, and its answer is lost after it was applied.
    await wallets.configure({ ...baseConfig(t), "portfolio-wallet:retryTimeoutSeconds": "0" });
    await addFault(t, {
      method: "PATCH",
      path: "/v2/portfolio-wallets/:id/strategy",
      times: 1,
      kind: "drop",
    });
    await expect(upTo(id, outs, POSITIONS_B)).rejects.toThrow(/was sent once/);
    await wallets.configure(baseConfig(t));

    const clock = await t.api("GET", "/_sandbox/clock");
    const afterFailure = Date.parse(clock.body.now);

    // The engine kept the old state; the next `up` tries again.
    const resumed = await upTo(id, outs, POSITIONS_B);
    expect(resumed.strategyChangeStatus).toBe("pending_approval");
    // The update it reports is the one the dropped request made, not a second one (which would
    // also have superseded the first).
    const activity = await signingActivity(resumed.strategyChange.signingActivityId);
    expect(activity.status).toBe("ACTIVITY_STATUS_CONSENSUS_NEEDED");
    const update = await t.api("GET", `/_sandbox/strategy-updates/${activity.subjectId}`);
    expect(update.status).toBe(200);
    expect(update.body.requestId).toBe(resumed.strategyChange.requestId);
    expect(Date.parse(update.body.createdAt)).toBeLessThanOrEqual(afterFailure);
  });
});

describe("strategy change without an approver", () => {
  test("pending_approval: the update succeeds, outputs show the status and the signing activity", async () => {
    await setPolicy(t, { strategyUpdateApprovals: 1 });
    const { id, outs } = await createWallet(POSITIONS_A);
    const pending = await upTo(id, outs, POSITIONS_B);
    expect(pending).toMatchObject({
      targetWeightsBps: weightsOf(POSITIONS_B),
      strategyChangeStatus: "pending_approval",
      strategyChange: {
        status: "pending_approval",
        signingActivityId: expect.any(String),
        signingActivityStatus: "ACTIVITY_STATUS_CONSENSUS_NEEDED",
        targetPositions: canonical(POSITIONS_B),
      },
    });
    // The wallet keeps its allocation until someone approves.
    expect(await walletTargets(t, id)).toEqual(canonical(POSITIONS_A));
  });

  test("re-applying the same pending change after a refresh reuses its requestId (no second update)", async () => {
    await setPolicy(t, { strategyUpdateApprovals: 1 });
    const { id, outs } = await createWallet(POSITIONS_A);
    const pending = await upTo(id, outs, POSITIONS_B);

    // A refresh shows the live allocation (still A) and keeps the pending change.
    const refreshed = await wallets.read(id, pending);
    expect(refreshed.props.targetWeightsBps).toEqual(weightsOf(POSITIONS_A));
    expect(refreshed.inputs.targetWeightsBps).toEqual(weightsOf(POSITIONS_A));
    expect(refreshed.props.strategyChange.status).toBe("pending_approval");
    const news = await checked(wallets, refreshed.inputs, {
      resourceUrn: outs.resourceUrn,
      positions: POSITIONS_B,
    });
    expect((await wallets.diff(id, refreshed.props, news)).changes).toBe(true);

    const again = (await wallets.update(id, refreshed.props, news)).outs;
    expect(again.strategyChange.requestId).toBe(pending.strategyChange.requestId);
    expect(again.strategyChange.signingActivityId).toBe(pending.strategyChange.signingActivityId);
    expect((await signingActivity(pending.strategyChange.signingActivityId)).status).toBe(
      "ACTIVITY_STATUS_CONSENSUS_NEEDED",
    );
  });

  test("a different target while one is pending gets a new requestId and supersedes the pending one", async () => {
    await setPolicy(t, { strategyUpdateApprovals: 1 });
    const { id, outs } = await createWallet(POSITIONS_A);
    const pendingB = await upTo(id, outs, POSITIONS_B);
    const pendingC = await upTo(id, pendingB, POSITIONS_C);
    expect(pendingC.strategyChange.requestId).not.toBe(pendingB.strategyChange.requestId);
    expect(pendingC.strategyChange.revision).toBe(pendingB.strategyChange.revision + 1);
    expect(pendingC.strategyChange.signingActivityId).not.toBe(pendingB.strategyChange.signingActivityId);
    expect((await signingActivity(pendingB.strategyChange.signingActivityId)).status).toBe(
      "ACTIVITY_STATUS_FAILED",
    );
  });

  test("a pending change rejected while nobody watched is reported when the same target is requested again", async () => {
    await setPolicy(t, { strategyUpdateApprovals: 1 });
    const { id, outs } = await createWallet(POSITIONS_A);
    const pending = await upTo(id, outs, POSITIONS_B);
    const reject = await t.api(
      "POST",
      `/_sandbox/signing-activities/${pending.strategyChange.signingActivityId}/reject`,
      { body: { reason: "treasury committee said no" } },
    );
    expect(reject.status).toBe(200);

    const refreshed = await wallets.read(id, pending);
    const news = await checked(wallets, refreshed.inputs, {
      resourceUrn: outs.resourceUrn,
      positions: POSITIONS_B,
    });
    const again = (await wallets.update(id, refreshed.props, news)).outs;
    // The rejected key is spent: a new update is requested, and the rejection stays visible.
    expect(again.strategyChange.requestId).not.toBe(pending.strategyChange.requestId);
    expect(again.strategyChange.status).toBe("pending_approval");
    expect(again.strategyChange.supersededFailure).toEqual({
      requestId: pending.strategyChange.requestId,
      failureReason: expect.stringContaining("treasury committee said no"),
    });
  });

  test("once approved elsewhere, a refresh shows the change completed and no diff", async () => {
    await setPolicy(t, { strategyUpdateApprovals: 1 });
    const { id, outs } = await createWallet(POSITIONS_A);
    const pending = await upTo(id, outs, POSITIONS_B);
    const approve = await t.api(
      "POST",
      `/_sandbox/signing-activities/${pending.strategyChange.signingActivityId}/approve`,
    );
    expect(approve.status).toBe(200);
    await t.api("POST", "/_sandbox/clock/advance", { body: { seconds: 60 } });

    const refreshed = await wallets.read(id, pending);
    expect(refreshed.props.strategyChangeStatus).toBe("completed");
    const news = await checked(wallets, refreshed.inputs, {
      resourceUrn: outs.resourceUrn,
      positions: POSITIONS_B,
    });
    expect((await wallets.diff(id, refreshed.props, news)).changes).toBe(false);
  });
});

describe("strategy change with a Turnkey approver", () => {
  test("pending_approval is approved with the configured key, then awaited until the wallet shows the target", async () => {
    await setPolicy(t, { strategyUpdateApprovals: 1 });
    await wallets.configure({ ...baseConfig(t), ...approverConfig(t, keys) });
    const { id, outs } = await createWallet(POSITIONS_A);
    const applied = await upTo(id, outs, POSITIONS_B);
    expect(applied).toMatchObject({
      targetWeightsBps: weightsOf(POSITIONS_B),
      strategyChangeStatus: "completed",
      strategyChange: { status: "completed", signingActivityId: expect.any(String) },
    });
    expect(await walletTargets(t, id)).toEqual(canonical(POSITIONS_B));
    const activity = await signingActivity(applied.strategyChange.signingActivityId);
    expect(activity.status).toBe("ACTIVITY_STATUS_COMPLETED");
  });

  test("when more approvers must vote, the update succeeds with the change still pending", async () => {
    await setPolicy(t, { strategyUpdateApprovals: 2 });
    await wallets.configure({ ...baseConfig(t), ...approverConfig(t, keys) });
    const { id, outs } = await createWallet(POSITIONS_A);
    const pending = await upTo(id, outs, POSITIONS_B);
    expect(pending.strategyChangeStatus).toBe("pending_approval");
    expect(pending.strategyChange.signingActivityStatus).toBe("ACTIVITY_STATUS_CONSENSUS_NEEDED");
    expect(await walletTargets(t, id)).toEqual(canonical(POSITIONS_A));
  });

  test("a create that must reconcile an adopted wallet is approved too", async () => {
    await setPolicy(t, { strategyUpdateApprovals: 1 });
    const existing = await createWallet(POSITIONS_A);
    await wallets.configure({ ...baseConfig(t), ...approverConfig(t, keys) });
    const inputs = await checked(
      wallets,
      {},
      {
        resourceUrn: urnOf("PortfolioWallet"),
        positions: POSITIONS_C,
        adoptWalletId: existing.id,
      },
    );
    const { outs } = await wallets.create(inputs);
    expect(outs.strategyChangeStatus).toBe("completed");
    expect(await walletTargets(t, existing.id)).toEqual(canonical(POSITIONS_C));
  });

  test("an approval timeout fails clearly; the next up resumes the same update", async () => {
    // A sandbox whose rebalance takes an hour of sandbox time: the approved update stays processing.
    const slow = await startProviderSandbox({ rebalanceDelayMs: 3_600_000 });
    try {
      const slowKeys = await registeredApproverKeys(slow);
      await setPolicy(slow, { strategyUpdateApprovals: 1 });
      await wallets.configure({
        ...baseConfig(slow),
        ...approverConfig(slow, slowKeys),
        "portfolio-wallet:approvalTimeoutSeconds": "0.3",
      });
      const inputs = await checked(
        wallets,
        {},
        { resourceUrn: urnOf("PortfolioWallet"), positions: POSITIONS_A },
      );
      const { id, outs } = await wallets.create(inputs);
      const news = await checked(wallets, outs, { resourceUrn: outs.resourceUrn, positions: POSITIONS_B });
      const failure = await wallets.update(id, outs, news).then(
        () => undefined,
        (error: Error) => error,
      );
      expect(failure?.message).toMatch(/is still "processing" after 0.3 s/);
      expect(failure?.message).toContain("portfolio-wallet:approvalTimeoutSeconds");
      expect(failure?.message).toContain("same requestId");

      const advance = await slow.api("POST", "/_sandbox/clock/advance", { body: { seconds: 7200 } });
      expect(advance.status).toBe(200);
      const resumed = (await wallets.update(id, outs, news)).outs;
      expect(resumed.strategyChangeStatus).toBe("completed");
      expect(resumed.strategyChange.revision).toBe(1);
      expect(await walletTargets(slow, id)).toEqual(canonical(POSITIONS_B));
    } finally {
      await slow.close();
    }
  });
});

/** An update sent to the service directly (a console, another tool or stack), applied before it returns. */
const POSITIONS_D = [
  { positionKey: "tbills", targetWeightBps: 1000 },
  { positionKey: "resolvRlp", targetWeightBps: 9000 },
];

describe("an allocation changed outside the stack", () => {
  test("is never overwritten: nothing is sent, and the error names the wallet, both allocations and the ways on", async () => {
    const { id, outs } = await createWallet(POSITIONS_A);
    await changeOutside(t, id, POSITIONS_C);
    await resetRequestCounts(t);

    const refused = await upTo(id, outs, POSITIONS_B).then(
      () => "applied",
      (error: Error) => error.message,
    );
    expect(refused).toContain(`wallet ${id}: the service holds resolvRlp 2000, syrupUsdc 8000`);
    expect(refused).toContain("this stack's state recorded syrupUsdc 4000, tbills 6000");
    expect(refused).toContain("The code asks for syrupUsdc 7500, tbills 2500");
    expect(refused).toContain("`pulumi refresh`");
    expect(refused).toContain("portfolio-wallet drift");
    expect(refused).toContain("pulumi config set portfolio-wallet:outsideChanges overwrite");
    expect(mutatingKeys(await requestCounts(t))).toEqual([]);
    expect(await walletTargets(t, id)).toEqual(canonical(POSITIONS_C));
  });

  test("after a refresh the state holds the service's allocation, and the update applies from it", async () => {
    const { id, outs } = await createWallet(POSITIONS_A);
    await changeOutside(t, id, POSITIONS_C);
    const refreshed = await wallets.read(id, outs);
    expect(refreshed.props.targetWeightsBps).toEqual(weightsOf(POSITIONS_C));
    const updated = (await upTo(id, refreshed.props, POSITIONS_B)) as { strategyChangeStatus: string };
    expect(updated.strategyChangeStatus).toBe("completed");
    expect(await walletTargets(t, id)).toEqual(canonical(POSITIONS_B));
  });

  test("with outsideChanges: overwrite, the code's allocation is applied anyway", async () => {
    await wallets.configure({ ...baseConfig(t), "portfolio-wallet:outsideChanges": "overwrite" });
    const { id, outs } = await createWallet(POSITIONS_A);
    await changeOutside(t, id, POSITIONS_C);
    await upTo(id, outs, POSITIONS_B);
    expect(await walletTargets(t, id)).toEqual(canonical(POSITIONS_B));
  });

  test("an outsideChanges value that is neither refuse nor overwrite is refused, naming the setting", async () => {
    await wallets.configure({ ...baseConfig(t), "portfolio-wallet:outsideChanges": "ignore" });
    const result = await wallets
      .check({}, { resourceUrn: urnOf("PortfolioWallet"), positions: POSITIONS_A })
      .then(
        (answer) => JSON.stringify(answer),
        (error: Error) => error.message,
      );
    expect(result).toContain('portfolio-wallet:outsideChanges must be "refuse" or "overwrite", got "ignore"');
  });

  test("a diff that changes the allocation warns what up will do; nothing when the service holds what the state recorded", async () => {
    const { id, outs } = await createWallet(POSITIONS_A);
    const said: string[] = [];
    const pool = new ServiceConnectionPool();
    const diffWarnings = async (config: Record<string, string>, olds: typeof outs) => {
      said.length = 0;
      const connection = pool.for({ get: (key) => config[key] });
      const news = await checked(wallets, olds, { resourceUrn: olds.resourceUrn, positions: POSITIONS_B });
      const changes = (await wallets.diff(id, olds, news)).detailedDiff;
      await warnOfOutsideChange({
        connect: () => ({ ...connection, say: (_severity, message) => said.push(message) }),
        walletId: id,
        olds,
        target: TargetAllocation.ofWeights(news["targetWeightsBps"] as Record<string, number>),
        changes,
      });
      return [...said];
    };
    try {
      expect(await diffWarnings(baseConfig(t), outs)).toEqual([]);
      await changeOutside(t, id, POSITIONS_C);
      const [refusal] = await diffWarnings(baseConfig(t), outs);
      expect(refusal).toContain(
        `wallet ${id}: its allocation was changed outside this stack: the service holds resolvRlp 2000, syrupUsdc 8000, ` +
          "this stack's state recorded syrupUsdc 4000, tbills 6000",
      );
      expect(refusal).toContain("`up` will refuse this update");
      const [overwrite] = await diffWarnings(
        { ...baseConfig(t), "portfolio-wallet:outsideChanges": "overwrite" },
        outs,
      );
      expect(overwrite).toContain("`up` will overwrite it");
      // After a refresh the state holds what the service holds: nothing to warn of.
      expect(await diffWarnings(baseConfig(t), (await wallets.read(id, outs)).props)).toEqual([]);
    } finally {
      await pool.closeAll();
    }
  });

  test("the code's target already at the service (a resumed update) is not an outside change", async () => {
    const { id, outs } = await createWallet(POSITIONS_A);
    await changeOutside(t, id, POSITIONS_B);
    const updated = (await upTo(id, outs, POSITIONS_B)) as { strategyChangeStatus: string };
    expect(updated.strategyChangeStatus).toBe("completed");
  });

  test("the stack's pending change superseded by an update outside the stack: refused, naming the superseded change", async () => {
    await setPolicy(t, { strategyUpdateApprovals: 1 });
    const { id, outs } = await createWallet(POSITIONS_A);
    const pending = await upTo(id, outs, POSITIONS_B);
    // Another tool asks for C, which supersedes the stack's pending B, and C is approved there.
    const outside = await clientOf(t).wallets.updateStrategy(id, {
      requestId: randomUUID(),
      positions: POSITIONS_C,
    });
    await t.api("POST", `/_sandbox/signing-activities/${outside.signingActivityId}/approve`);
    await t.api("POST", "/_sandbox/clock/advance", { body: { seconds: 60 } });
    expect(await walletTargets(t, id)).toEqual(canonical(POSITIONS_C));
    await resetRequestCounts(t);

    const refused = await upTo(id, pending, POSITIONS_D).then(
      () => "applied",
      (error: Error) => error.message,
    );
    expect(refused).toContain(`wallet ${id}: the service holds resolvRlp 2000, syrupUsdc 8000`);
    expect(refused).toContain(`this stack's strategy update ${pending.strategyChange.requestId}`);
    expect(refused).toContain("is failed at the service (superseded by strategy update");
    // Only the replay of the stack's own change (same requestId and body) was sent.
    expect((await requestCounts(t))["PATCH /v2/portfolio-wallets/:id/strategy"]).toBe(1);
    expect(await walletTargets(t, id)).toEqual(canonical(POSITIONS_C));
  });
});

describe("strategy change while another update is processing", () => {
  /**
   * A wallet whose out-of-band update to C is processing on a sandbox clock that moves only when
   * told: the provider's update to B meets the service's 409 for as long as the test holds time,
   * then C completes when the test moves the clock. No outcome depends on how fast the machine is.
   */
  async function updateWhileOutsideUpdateRuns(
    config: (sandbox: TestSandbox) => Record<string, string>,
    /** After how many of the provider's PATCHes the test moves the clock (to complete C, then B). */
    advanceAfterPatches: number[],
  ) {
    const slow = await startProviderSandbox({ rebalanceDelayMs: 400, clock: createManualClock() });
    try {
      await wallets.configure(config(slow));
      const inputs = await checked(
        wallets,
        {},
        { resourceUrn: urnOf("PortfolioWallet"), positions: POSITIONS_A },
      );
      const { id, outs } = await wallets.create(inputs);
      const outOfBand = await clientOf(slow).wallets.updateStrategy(id as string, {
        requestId: randomUUID(),
        positions: POSITIONS_C,
      });
      expect(outOfBand.status).toBe("processing");
      await resetRequestCounts(slow);
      const news = await checked(wallets, outs, { resourceUrn: outs.resourceUrn, positions: POSITIONS_B });
      const update = wallets.update(id as string, outs, news).then(
        (answer) => ({ outs: answer.outs, error: undefined }),
        (error: Error) => ({ outs: undefined, error }),
      );
      const patches = async () =>
        (await requestCounts(slow))["PATCH /v2/portfolio-wallets/:id/strategy"] ?? 0;
      // The provider's first PATCH is refused (409) while C runs; then the clock lets C complete,
      // and (when the provider sends B again) B.
      for (const count of advanceAfterPatches) {
        while ((await patches()) < count) await new Promise((resolve) => setTimeout(resolve, 20));
        await slow.api("POST", "/_sandbox/clock/advance", { body: { ms: 1_000 } });
      }
      const result = await update;
      return { ...result, patches: await patches(), applied: await walletTargets(slow, id as string) };
    } finally {
      await slow.close();
    }
  }

  test("an update outside the stack still running: waited for, then refused, since it changed the allocation", async () => {
    const { error, applied } = await updateWhileOutsideUpdateRuns((sandbox) => baseConfig(sandbox), [1]);
    expect(error?.message).toContain("the service holds resolvRlp 2000, syrupUsdc 8000");
    expect(applied).toEqual(canonical(POSITIONS_C));
  });

  test("with outsideChanges: overwrite, waits for the running update to finish instead of failing on the service's 409", async () => {
    const { outs, error, patches, applied } = await updateWhileOutsideUpdateRuns(
      (sandbox) => ({ ...baseConfig(sandbox), "portfolio-wallet:outsideChanges": "overwrite" }),
      [1, 2],
    );
    expect(error).toBeUndefined();
    expect(outs?.strategyChangeStatus).toBe("completed");
    expect(applied).toEqual(canonical(POSITIONS_B));
    // The first PATCH was refused with 409 and sent again once C had completed.
    expect(patches).toBeGreaterThanOrEqual(2);
  });
});
