import { ApiKeyStamper } from "@turnkey/sdk-server";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import {
  approveSigningActivity,
  MissingFingerprintError,
  rejectSigningActivity,
  SigningActivityNotFoundError,
  SigningCredentialsError,
  type SigningActivityApi,
} from "../../../sdk/nodejs/approval/index.ts";
import type { TestSandbox } from "../../sandbox/helpers.ts";
import {
  expectCompleted,
  expectForgedVoteRefused,
  expectUnmoved,
  forgingStamper,
  ONE_APPROVAL,
  pendingStrategyUpdate,
  registeredKeyPair,
  settingsFor,
  startApprovalSandbox,
  strategyUpdate,
  turnkeyClient,
  TWO_APPROVALS,
  walletTargets,
  INITIAL_POSITIONS,
} from "./harness.ts";
import { generateTurnkeyApiKeyPair } from "./turnkeyKeys.ts";

let t: TestSandbox;
beforeAll(async () => {
  t = await startApprovalSandbox();
});
afterAll(() => t.close());

describe("approveSigningActivity against the sandbox, through @turnkey/sdk-server", () => {
  test("completes a strategy update needing one approval; a forged vote before it moves nothing", async () => {
    const keys = await registeredKeyPair(t, ONE_APPROVAL);
    const pending = await pendingStrategyUpdate(t, ONE_APPROVAL);
    await expectForgedVoteRefused(t, pending, keys);
    await expectUnmoved(t, pending);

    const outcome = await approveSigningActivity(
      settingsFor(t, ONE_APPROVAL, keys),
      pending.signingActivityId,
    );

    expect(outcome).toEqual({
      kind: "completed",
      alreadyCompleted: false,
      signingActivityId: pending.signingActivityId,
      activityStatus: "ACTIVITY_STATUS_COMPLETED",
      voted: true,
      approvals: 1,
    });
    await expectCompleted(t, pending);
  });

  test("an update needing two approvals stays pending after one key (even voting twice) and completes on a second key", async () => {
    const first = await registeredKeyPair(t, TWO_APPROVALS, "first approver");
    const second = await registeredKeyPair(t, TWO_APPROVALS, "second approver");
    const pending = await pendingStrategyUpdate(t, TWO_APPROVALS);

    const afterFirst = await approveSigningActivity(
      settingsFor(t, TWO_APPROVALS, first),
      pending.signingActivityId,
      {
        requiredApprovals: 2,
      },
    );
    expect(afterFirst).toMatchObject({
      kind: "consensus_needed",
      voted: true,
      approvals: 1,
      approvalsStillNeeded: 1,
    });
    await expectUnmoved(t, pending);

    // The same key again: reported, not counted twice.
    const again = await approveSigningActivity(
      settingsFor(t, TWO_APPROVALS, first),
      pending.signingActivityId,
      {
        requiredApprovals: 2,
      },
    );
    expect(again).toMatchObject({
      kind: "consensus_needed",
      voted: false,
      approvals: 1,
      approvalsStillNeeded: 1,
    });
    // A replayed vote sent straight to the provider is not counted twice either.
    const activity = await t.api("GET", `/_sandbox/signing-activities/${pending.signingActivityId}`, {
      token: TWO_APPROVALS.token,
    });
    const replay = await turnkeyClient(t, TWO_APPROVALS, new ApiKeyStamper({ ...first })).approveActivity({
      fingerprint: activity.body.fingerprint,
    });
    expect(replay.activity.status).toBe("ACTIVITY_STATUS_CONSENSUS_NEEDED");
    // Someone claiming to be the second approver without its private key does not complete it.
    await expectForgedVoteRefused(t, pending, second);
    await expectUnmoved(t, pending);

    const afterSecond = await approveSigningActivity(
      settingsFor(t, TWO_APPROVALS, second),
      pending.signingActivityId,
    );
    expect(afterSecond).toMatchObject({
      kind: "completed",
      voted: true,
      approvals: 2,
      alreadyCompleted: false,
    });
    await expectCompleted(t, pending);

    const late = await approveSigningActivity(
      settingsFor(t, TWO_APPROVALS, first),
      pending.signingActivityId,
    );
    expect(late).toMatchObject({ kind: "completed", voted: false, alreadyCompleted: true });
  });

  test("a rejected update ends failed with a failureReason; a forged rejection before it changes nothing", async () => {
    const keys = await registeredKeyPair(t, ONE_APPROVAL, "risk officer");
    const pending = await pendingStrategyUpdate(t, ONE_APPROVAL);
    await expectForgedVoteRefused(t, pending, keys, "reject");
    await expectUnmoved(t, pending);

    const outcome = await rejectSigningActivity(
      settingsFor(t, ONE_APPROVAL, keys),
      pending.signingActivityId,
    );

    expect(outcome).toMatchObject({
      kind: "rejected",
      voted: true,
      alreadyRejected: false,
      activityStatus: "ACTIVITY_STATUS_REJECTED",
    });
    expect(outcome.kind === "rejected" && outcome.reason).toMatch(/rejected by approver risk officer/);
    const update = await strategyUpdate(t, pending);
    expect(update).toMatchObject({ status: "failed", signingActivityStatus: "ACTIVITY_STATUS_REJECTED" });
    expect(update.failureReason).toMatch(/rejected/);
    expect(await walletTargets(t, pending)).toEqual(INITIAL_POSITIONS);
    // Approving afterwards reports the rejection and sends no vote.
    const late = await approveSigningActivity(settingsFor(t, ONE_APPROVAL, keys), pending.signingActivityId);
    expect(late).toMatchObject({ kind: "rejected", voted: false, alreadyRejected: true });
  });
});

describe("approveSigningActivity refuses, and nothing moves", () => {
  test("a stamp signed by a key other than the registered one it names", async () => {
    const registered = await registeredKeyPair(t, ONE_APPROVAL);
    const pending = await pendingStrategyUpdate(t, ONE_APPROVAL);
    const forger = turnkeyClient(t, ONE_APPROVAL, forgingStamper(registered, generateTurnkeyApiKeyPair()));

    const attempt = approveSigningActivity(
      settingsFor(t, ONE_APPROVAL, registered),
      pending.signingActivityId,
      { signingApi: forger },
    );

    await expect(attempt).rejects.toSatisfy((e) => SigningCredentialsError.isInstance(e));
    await expectForgedVoteRefused(t, pending, registered);
    await expectUnmoved(t, pending);
  });

  test("a body altered after it was stamped", async () => {
    const keys = await registeredKeyPair(t, ONE_APPROVAL);
    const signedFor = await pendingStrategyUpdate(t, ONE_APPROVAL);
    const target = await pendingStrategyUpdate(t, ONE_APPROVAL);
    const fingerprintOf = async (p: typeof target) =>
      (
        await t.api("GET", `/_sandbox/signing-activities/${p.signingActivityId}`, {
          token: ONE_APPROVAL.token,
        })
      ).body.fingerprint;
    // A genuine stamped approval of one update, captured and replayed with another update's fingerprint.
    const signed = await turnkeyClient(t, ONE_APPROVAL, new ApiKeyStamper({ ...keys })).stampApproveActivity({
      fingerprint: await fingerprintOf(signedFor),
    });
    const altered = signed!.body.replace(await fingerprintOf(signedFor), await fingerprintOf(target));
    expect(altered).not.toBe(signed!.body);

    const res = await fetch(signed!.url, {
      method: "POST",
      headers: {
        [signed!.stamp.stampHeaderName]: signed!.stamp.stampHeaderValue,
        "content-type": "application/json",
      },
      body: altered,
    });

    expect(res.status).toBe(401);
    expect(await res.json()).toMatchObject({
      code: 16,
      message: expect.stringMatching(/signature of the exact body bytes by an API key registered/),
      details: [],
    });
    await expectUnmoved(t, target);
    await expectUnmoved(t, signedFor);
  });

  test("an unknown activity: not found for a verified caller, unauthenticated for a forged one", async () => {
    const keys = await registeredKeyPair(t, ONE_APPROVAL);
    const pending = await pendingStrategyUpdate(t, ONE_APPROVAL);
    const unknownId = "5e1f0b1c-7d5a-4c59-9a0e-2f2d8f1b7a11";

    const verified = approveSigningActivity(settingsFor(t, ONE_APPROVAL, keys), unknownId);
    await expect(verified).rejects.toSatisfy((e) => SigningActivityNotFoundError.isInstance(e));
    await expect(verified).rejects.toMatchObject({ signingActivityId: unknownId });
    // Activity ids cannot be probed without a valid stamp: the stamp is checked before the lookup.
    const forger = turnkeyClient(t, ONE_APPROVAL, forgingStamper(keys, generateTurnkeyApiKeyPair()));
    const forged = approveSigningActivity(settingsFor(t, ONE_APPROVAL, keys), unknownId, {
      signingApi: forger,
    });
    await expect(forged).rejects.toSatisfy((e) => SigningCredentialsError.isInstance(e));
    await expectUnmoved(t, pending);
  });

  test("a valid key pair the organization never registered (or registered only for another organization)", async () => {
    const pending = await pendingStrategyUpdate(t, ONE_APPROVAL);
    const stranger = generateTurnkeyApiKeyPair();
    const otherOrgsKey = await registeredKeyPair(t, TWO_APPROVALS);

    for (const keys of [stranger, otherOrgsKey]) {
      const attempt = approveSigningActivity(settingsFor(t, ONE_APPROVAL, keys), pending.signingActivityId);
      await expect(attempt).rejects.toSatisfy((e) => SigningCredentialsError.isInstance(e));
      await expect(attempt).rejects.toThrow(/an API key registered for the organization the body names/);
    }
    await expectUnmoved(t, pending);
  });

  test("an activity that comes back without a fingerprint is never voted on", async () => {
    const keys = await registeredKeyPair(t, ONE_APPROVAL);
    const pending = await pendingStrategyUpdate(t, ONE_APPROVAL);
    const votes: unknown[] = [];
    // A fake activity: the real stamped answer with its fingerprint removed.
    const withoutFingerprint = (real: SigningActivityApi): SigningActivityApi => ({
      async getActivity(input) {
        const answer = (await real.getActivity(input)) as { activity: Record<string, unknown> };
        const { fingerprint: _dropped, ...activity } = answer.activity;
        return { activity };
      },
      approveActivity: async (input) => votes.push(input),
      rejectActivity: async (input) => votes.push(input),
    });

    const genuine = withoutFingerprint(turnkeyClient(t, ONE_APPROVAL, new ApiKeyStamper({ ...keys })));
    const attempt = approveSigningActivity(settingsFor(t, ONE_APPROVAL, keys), pending.signingActivityId, {
      signingApi: genuine,
    });
    await expect(attempt).rejects.toSatisfy((e) => MissingFingerprintError.isInstance(e));
    await expect(attempt).rejects.toThrow(/has no fingerprint/);
    expect(votes).toEqual([]);
    // The activity itself is only readable with a valid stamp.
    const forged = withoutFingerprint(
      turnkeyClient(t, ONE_APPROVAL, forgingStamper(keys, generateTurnkeyApiKeyPair())),
    );
    await expect(
      approveSigningActivity(settingsFor(t, ONE_APPROVAL, keys), pending.signingActivityId, {
        signingApi: forged,
      }),
    ).rejects.toSatisfy((e) => SigningCredentialsError.isInstance(e));
    await expectUnmoved(t, pending);
  });
});
