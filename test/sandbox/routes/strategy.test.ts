import { afterEach, beforeEach, describe, expect, test } from "vitest";
import { StrategyUpdateSchema } from "../../../sdk/nodejs/contract/index.ts";
import { eventually, OTHER_TOKEN, startTestSandbox, uuid, walletBody, type TestSandbox } from "../helpers.ts";

let t: TestSandbox;
let walletId: string;
beforeEach(async () => {
  // Rebalances take a minute of sandbox time and tests advance the clock past it: no race between a
  // test's reads and the rebalance timer, however loaded the machine is.
  t = await startTestSandbox({ rebalanceDelayMs: 60_000 });
  walletId = (await t.api("POST", "/v2/portfolio-wallets", { body: walletBody() })).body.id;
});
afterEach(() => t.close());

const ALL_RLP = [{ positionKey: "resolvRlp", targetWeightBps: 10000 }];
const patch = (positions: unknown, requestId = uuid(), token?: string) =>
  t.api("PATCH", `/v2/portfolio-wallets/${walletId}/strategy`, {
    body: { requestId, positions },
    ...(token === undefined ? {} : { token }),
  });
const wallet = async () => (await t.api("GET", `/v2/portfolio-wallets/${walletId}`)).body;
const finishRebalance = () => t.api("POST", "/_sandbox/clock/advance", { body: { seconds: 61 } });
const updateStatus = async (id: string) => (await t.api("GET", `/_sandbox/strategy-updates/${id}`)).body;

describe("PATCH /v2/portfolio-wallets/:id/strategy", () => {
  test("answers 200 processing, then completes and only then changes strategyConfig", async () => {
    // A long delay moved by the clock: no race between the test's reads and the rebalance timer.
    const slow = await startTestSandbox({ rebalanceDelayMs: 60_000 });
    try {
      const id = (await slow.api("POST", "/v2/portfolio-wallets", { body: walletBody() })).body.id;
      const read = async () => (await slow.api("GET", `/v2/portfolio-wallets/${id}`)).body;
      const res = await slow.api("PATCH", `/v2/portfolio-wallets/${id}/strategy`, {
        body: { requestId: uuid(), positions: ALL_RLP },
      });
      expect(res.status).toBe(200);
      const update = StrategyUpdateSchema.parse(res.body);
      expect(update).toMatchObject({
        status: "processing",
        portfolioWalletId: id,
        positions: ALL_RLP,
        signingActivityId: null,
        failureReason: null,
      });
      expect(
        (await read()).strategyConfig.positions.map((p: { positionKey: string }) => p.positionKey),
      ).toEqual(["tbills", "syrupUsdc"]);
      await slow.api("POST", "/_sandbox/clock/advance", { body: { seconds: 60 } });
      const after = await read();
      expect(after.strategyConfig.positions).toEqual([
        { positionKey: "resolvRlp", targetWeightBps: 10000, maxProcessingTime: "PT168H", asset: "rlp" },
      ]);
      expect(after.blendedRateBps).toBe(1050);
      expect(Date.parse(after.updatedAt)).toBeGreaterThan(Date.parse(after.createdAt));
    } finally {
      await slow.close();
    }
  });

  test("completes on its timer without any read in between", async () => {
    const fast = await startTestSandbox({ rebalanceDelayMs: 100 });
    try {
      const id = (await fast.api("POST", "/v2/portfolio-wallets", { body: walletBody() })).body.id;
      const res = await fast.api("PATCH", `/v2/portfolio-wallets/${id}/strategy`, {
        body: { requestId: uuid(), positions: ALL_RLP },
      });
      // Only the admin read is used, and it does not settle due work: only the timer can complete it.
      await eventually(
        async () =>
          (await fast.api("GET", `/_sandbox/strategy-updates/${res.body.id}`)).body.status === "completed",
      );
    } finally {
      await fast.close();
    }
  });

  test("completes when the sandbox clock is advanced past the rebalance delay", async () => {
    const slow = await startTestSandbox({ rebalanceDelayMs: 60_000 });
    try {
      const id = (await slow.api("POST", "/v2/portfolio-wallets", { body: walletBody() })).body.id;
      const res = await slow.api("PATCH", `/v2/portfolio-wallets/${id}/strategy`, {
        body: { requestId: uuid(), positions: ALL_RLP },
      });
      expect((await slow.api("GET", `/_sandbox/strategy-updates/${res.body.id}`)).body.status).toBe(
        "processing",
      );
      await slow.api("POST", "/_sandbox/clock/advance", { body: { seconds: 61 } });
      expect((await slow.api("GET", `/_sandbox/strategy-updates/${res.body.id}`)).body.status).toBe(
        "completed",
      );
    } finally {
      await slow.close();
    }
  });

  test("a replay answers the same update in its current state; a different body is 409", async () => {
    const requestId = uuid();
    const first = await patch(ALL_RLP, requestId);
    await finishRebalance();
    expect((await updateStatus(first.body.id)).status).toBe("completed");
    const replay = await patch(ALL_RLP, requestId);
    expect(replay.status).toBe(200);
    expect(replay.body).toMatchObject({ id: first.body.id, status: "completed" });
    const conflict = await patch([{ positionKey: "tbills", targetWeightBps: 10000 }], requestId);
    expect(conflict.status).toBe(409);
    expect(conflict.body.error.code).toBe("idempotency_conflict");
  });

  test("a second update while one is rebalancing is 409 conflict", async () => {
    await patch(ALL_RLP);
    const res = await patch([{ positionKey: "tbills", targetWeightBps: 10000 }]);
    expect(res.status).toBe(409);
    expect(res.body.error.code).toBe("conflict");
  });

  test("an injected fault fails the next update with its reason and leaves strategyConfig alone", async () => {
    const fault = await t.api("POST", "/_sandbox/faults/strategy-update", {
      body: { walletId, reason: "venue paused" },
    });
    expect(fault.status).toBe(201);
    const res = await patch(ALL_RLP);
    await finishRebalance();
    expect((await updateStatus(res.body.id)).status).toBe("failed");
    expect(await updateStatus(res.body.id)).toMatchObject({
      status: "failed",
      failureReason: "venue paused",
    });
    expect((await wallet()).strategyConfig.positions).toHaveLength(2);
    // Only the next update fails.
    const next = await patch(ALL_RLP);
    await finishRebalance();
    expect((await updateStatus(next.body.id)).status).toBe("completed");
  });
});

describe("approval policy", () => {
  test("pending_approval with a signing activity awaiting consensus", async () => {
    await t.api("PUT", "/_sandbox/policy", { body: { strategyUpdateApprovals: 2 } });
    const res = await patch(ALL_RLP);
    expect(res.status).toBe(200);
    expect(res.body.status).toBe("pending_approval");
    expect(res.body.signingActivityStatus).toBe("ACTIVITY_STATUS_CONSENSUS_NEEDED");
    const activity = await t.api("GET", `/_sandbox/signing-activities/${res.body.signingActivityId}`);
    expect(activity.status).toBe(200);
    expect(activity.body).toMatchObject({
      id: res.body.signingActivityId,
      organizationId: "org-a",
      kind: "strategy_update",
      subjectId: res.body.id,
      requiredApprovals: 2,
      status: "ACTIVITY_STATUS_CONSENSUS_NEEDED",
    });
    expect(activity.body.fingerprint).toMatch(/^[0-9a-f]{64}$/);
    // Still pending after the rebalance delay: nothing moves without approval.
    await finishRebalance();
    expect((await updateStatus(res.body.id)).status).toBe("pending_approval");
    expect((await wallet()).strategyConfig.positions).toHaveLength(2);
  });

  test("another organization cannot see the activity", async () => {
    await t.api("PUT", "/_sandbox/policy", { body: { strategyUpdateApprovals: 1 } });
    const res = await patch(ALL_RLP);
    const other = await t.api("GET", `/_sandbox/signing-activities/${res.body.signingActivityId}`, {
      token: OTHER_TOKEN,
    });
    expect(other.status).toBe(404);
  });

  test("approval continues the update automatically to completed", async () => {
    await t.api("PUT", "/_sandbox/policy", { body: { strategyUpdateApprovals: 1 } });
    const res = await patch(ALL_RLP);
    const approved = await t.api(
      "POST",
      `/_sandbox/signing-activities/${res.body.signingActivityId}/approve`,
    );
    expect(approved.body.status).toBe("ACTIVITY_STATUS_COMPLETED");
    expect((await updateStatus(res.body.id)).status).toBe("processing");
    await finishRebalance();
    expect((await updateStatus(res.body.id)).status).toBe("completed");
    expect((await wallet()).strategyConfig.positions[0].positionKey).toBe("resolvRlp");
    expect((await updateStatus(res.body.id)).signingActivityStatus).toBe("ACTIVITY_STATUS_COMPLETED");
  });

  test("rejection fails the update with a failureReason", async () => {
    await t.api("PUT", "/_sandbox/policy", { body: { strategyUpdateApprovals: 1 } });
    const res = await patch(ALL_RLP);
    const rejected = await t.api(
      "POST",
      `/_sandbox/signing-activities/${res.body.signingActivityId}/reject`,
      {
        body: { reason: "not this quarter" },
      },
    );
    expect(rejected.body.status).toBe("ACTIVITY_STATUS_REJECTED");
    expect(await updateStatus(res.body.id)).toMatchObject({
      status: "failed",
      failureReason: "approval rejected: not this quarter",
    });
    const again = await t.api("POST", `/_sandbox/signing-activities/${res.body.signingActivityId}/approve`);
    expect(again.status).toBe(409);
  });

  test("a newer update supersedes one still awaiting approval", async () => {
    await t.api("PUT", "/_sandbox/policy", { body: { strategyUpdateApprovals: 1 } });
    const old = await patch(ALL_RLP);
    const newer = await patch([{ positionKey: "tbills", targetWeightBps: 10000 }]);
    expect(newer.body.status).toBe("pending_approval");
    expect(await updateStatus(old.body.id)).toMatchObject({
      status: "failed",
      signingActivityStatus: "ACTIVITY_STATUS_FAILED",
    });
    expect((await updateStatus(old.body.id)).failureReason).toContain(newer.body.id);
  });
});
