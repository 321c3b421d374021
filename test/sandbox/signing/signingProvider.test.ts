import { ApiKeyStamper, type TStamper } from "@turnkey/sdk-server";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import {
  expectUnmoved,
  forgingStamper,
  ONE_APPROVAL,
  pendingStrategyUpdate,
  registeredKeyPair,
  startApprovalSandbox,
  TWO_APPROVALS,
  type PendingUpdate,
} from "../../sdk/approval/harness.ts";
import { generateTurnkeyApiKeyPair, type TurnkeyApiKeyPair } from "../../sdk/approval/turnkeyKeys.ts";
import type { TestSandbox } from "../helpers.ts";

let t: TestSandbox;
beforeAll(async () => {
  t = await startApprovalSandbox();
});
afterAll(() => t.close());

/** The parts of the signing provider's answers these tests read. */
interface SigningAnswer {
  activity: {
    [field: string]: unknown;
    intent: { signRawPayloadIntentV2: { payload: string } };
    votes: unknown[];
  };
  code?: number;
  message?: string;
  details?: unknown[];
}

/** POSTs `body` to the signing provider, stamped by `stamper` (or with `stampHeader` as given). */
async function signingPost(path: string, body: unknown, stamper: TStamper | { stampHeader: string | null }) {
  const text = JSON.stringify(body);
  const headers: Record<string, string> = { "content-type": "application/json" };
  if ("stamp" in stamper) headers["X-Stamp"] = (await stamper.stamp(text)).stampHeaderValue;
  else if (stamper.stampHeader !== null) headers["X-Stamp"] = stamper.stampHeader;
  const res = await fetch(`${t.url}/public/v1${path}`, { method: "POST", headers, body: text });
  return { status: res.status, body: (await res.json()) as SigningAnswer };
}

const stamperOf = (keys: TurnkeyApiKeyPair) => new ApiKeyStamper({ ...keys });

async function fingerprintOf(pending: PendingUpdate): Promise<string> {
  return (
    await t.api("GET", `/_sandbox/signing-activities/${pending.signingActivityId}`, {
      token: pending.org.token,
    })
  ).body.fingerprint;
}

function approveBody(pending: PendingUpdate, fingerprint: string, overrides: Record<string, unknown> = {}) {
  return {
    type: "ACTIVITY_TYPE_APPROVE_ACTIVITY",
    timestampMs: String(Date.now()),
    organizationId: pending.org.organizationId,
    parameters: { fingerprint },
    ...overrides,
  };
}

const UNAUTHENTICATED = {
  code: 16,
  message: expect.stringMatching(/could not verify the request's stamp/),
  details: [],
};

describe("signing provider endpoints", () => {
  test("get_activity answers Turnkey's activity shape to a registered key, and a Turnkey 401 without a valid stamp", async () => {
    const keys = await registeredKeyPair(t, ONE_APPROVAL);
    const pending = await pendingStrategyUpdate(t, ONE_APPROVAL);
    const body = { organizationId: ONE_APPROVAL.organizationId, activityId: pending.signingActivityId };

    const res = await signingPost("/query/get_activity", body, stamperOf(keys));
    expect(res.status).toBe(200);
    expect(res.body.activity).toMatchObject({
      id: pending.signingActivityId,
      organizationId: ONE_APPROVAL.organizationId,
      status: "ACTIVITY_STATUS_CONSENSUS_NEEDED",
      type: "ACTIVITY_TYPE_SIGN_RAW_PAYLOAD_V2",
      fingerprint: await fingerprintOf(pending),
      votes: [],
      canApprove: true,
      canReject: true,
      createdAt: { seconds: expect.stringMatching(/^\d+$/), nanos: expect.stringMatching(/^\d+$/) },
    });
    expect(JSON.parse(res.body.activity.intent.signRawPayloadIntentV2.payload)).toEqual({
      kind: "strategy_update",
      id: pending.updateId,
    });

    const refusals = [
      { stampHeader: null },
      { stampHeader: "garbage" },
      stamperOf(generateTurnkeyApiKeyPair()),
      forgingStamper(keys, generateTurnkeyApiKeyPair()),
    ];
    for (const stamper of refusals) {
      const refused = await signingPost("/query/get_activity", body, stamper);
      expect(refused).toEqual({ status: 401, body: UNAUTHENTICATED });
    }
  });

  test("approve_activity records the vote with its stamp; a wrong type or timestamp is a 400 only once the stamp is valid", async () => {
    const first = await registeredKeyPair(t, TWO_APPROVALS, "first");
    const pending = await pendingStrategyUpdate(t, TWO_APPROVALS);
    const fingerprint = await fingerprintOf(pending);

    for (const overrides of [
      { type: "ACTIVITY_TYPE_REJECT_ACTIVITY" },
      { timestampMs: 1700000000000 },
      { parameters: {} },
    ]) {
      const bad = approveBody(pending, fingerprint, overrides);
      expect(
        await signingPost(
          "/submit/approve_activity",
          bad,
          forgingStamper(first, generateTurnkeyApiKeyPair()),
        ),
      ).toEqual({
        status: 401,
        body: UNAUTHENTICATED,
      });
      const invalid = await signingPost("/submit/approve_activity", bad, stamperOf(first));
      expect(invalid).toMatchObject({
        status: 400,
        body: { code: 3, message: expect.stringMatching(/^invalid request: /), details: [] },
      });
    }
    await expectUnmoved(t, pending);

    const body = approveBody(pending, fingerprint);
    const stamp = await stamperOf(first).stamp(JSON.stringify(body));
    const res = await signingPost("/submit/approve_activity", body, { stampHeader: stamp.stampHeaderValue });
    expect(res.status).toBe(200);
    expect(res.body.activity).toMatchObject({
      status: "ACTIVITY_STATUS_CONSENSUS_NEEDED",
      canApprove: false,
    });
    const signature = JSON.parse(Buffer.from(stamp.stampHeaderValue, "base64url").toString()).signature;
    expect(res.body.activity.votes).toEqual([
      expect.objectContaining({
        selection: "VOTE_SELECTION_APPROVED",
        publicKey: first.apiPublicKey,
        signature,
        message: JSON.stringify(body),
        scheme: "SIGNATURE_SCHEME_TK_API_P256",
        user: expect.objectContaining({ userName: "first" }),
      }),
    ]);
    await expectUnmoved(t, pending);
  });

  test("a decided activity takes no more votes, and a key cannot change its vote", async () => {
    const keys = await registeredKeyPair(t, ONE_APPROVAL);
    const latecomer = await registeredKeyPair(t, ONE_APPROVAL);
    const pending = await pendingStrategyUpdate(t, ONE_APPROVAL);
    const fingerprint = await fingerprintOf(pending);
    expect(
      (await signingPost("/submit/approve_activity", approveBody(pending, fingerprint), stamperOf(keys)))
        .status,
    ).toBe(200);

    const reject = { ...approveBody(pending, fingerprint), type: "ACTIVITY_TYPE_REJECT_ACTIVITY" };
    const changed = await signingPost("/submit/reject_activity", reject, stamperOf(keys));
    expect(changed).toMatchObject({
      status: 400,
      body: { code: 9, message: expect.stringMatching(/already voted VOTE_SELECTION_APPROVED/) },
    });
    const late = await signingPost("/submit/reject_activity", reject, stamperOf(latecomer));
    expect(late).toMatchObject({
      status: 400,
      body: { code: 9, message: expect.stringMatching(/ACTIVITY_STATUS_COMPLETED and takes no more votes/) },
    });
    const forged = await signingPost(
      "/submit/reject_activity",
      reject,
      forgingStamper(latecomer, generateTurnkeyApiKeyPair()),
    );
    expect(forged).toEqual({ status: 401, body: UNAUTHENTICATED });
  });
  test("an unknown fingerprint or activity id is Turnkey's NOT_FOUND (code 5), and nothing moves", async () => {
    const keys = await registeredKeyPair(t, ONE_APPROVAL);
    const pending = await pendingStrategyUpdate(t, ONE_APPROVAL);
    const unknownFingerprint = await signingPost(
      "/submit/approve_activity",
      approveBody(pending, "f".repeat(64)),
      stamperOf(keys),
    );
    expect(unknownFingerprint).toMatchObject({
      status: 404,
      body: { code: 5, message: expect.stringMatching(/fingerprint .* was not found/) },
    });
    const unknownActivity = await signingPost(
      "/query/get_activity",
      { organizationId: pending.org.organizationId, activityId: "00000000-0000-4000-8000-000000000000" },
      stamperOf(keys),
    );
    expect(unknownActivity).toMatchObject({ status: 404, body: { code: 5 } });
    await expectUnmoved(t, pending);
  });
});

describe("/_sandbox/signing/api-keys", () => {
  test("registers (201, replay 200), lists and removes approver keys; a removed key can no longer vote", async () => {
    const keys = generateTurnkeyApiKeyPair();
    const path = "/_sandbox/signing/api-keys";
    expect((await t.api("POST", path, { token: null, body: { publicKey: keys.apiPublicKey } })).status).toBe(
      401,
    );
    const invalid = await t.api("POST", path, { body: { publicKey: "04" + "ab".repeat(64) } });
    expect(invalid.status).toBe(400);
    expect(invalid.body.error.details).toEqual([expect.objectContaining({ field: "publicKey" })]);
    const offCurve = await t.api("POST", path, { body: { publicKey: "02" + "ff".repeat(32) } });
    expect(offCurve.body.error.details).toEqual([
      { field: "publicKey", reason: "is not a point on the P-256 curve" },
    ]);

    const created = await t.api("POST", path, {
      body: { publicKey: keys.apiPublicKey.toUpperCase(), userName: "ops" },
    });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({
      organizationId: ONE_APPROVAL.organizationId,
      publicKey: keys.apiPublicKey,
      userName: "ops",
    });
    const replay = await t.api("POST", path, { body: { publicKey: keys.apiPublicKey } });
    expect(replay).toMatchObject({ status: 200, body: created.body });
    const listed = await t.api("GET", path);
    expect(listed.body.data).toContainEqual(created.body);
    // Keys are per organization.
    expect((await t.api("GET", path, { token: TWO_APPROVALS.token })).body.data).not.toContainEqual(
      created.body,
    );

    const pending = await pendingStrategyUpdate(t, ONE_APPROVAL);
    const query = { organizationId: ONE_APPROVAL.organizationId, activityId: pending.signingActivityId };
    expect((await signingPost("/query/get_activity", query, stamperOf(keys))).status).toBe(200);
    expect((await t.api("DELETE", `${path}/${keys.apiPublicKey}`)).status).toBe(204);
    expect((await t.api("DELETE", `${path}/${keys.apiPublicKey}`)).status).toBe(404);

    const vote = await signingPost(
      "/submit/approve_activity",
      approveBody(pending, await fingerprintOf(pending)),
      stamperOf(keys),
    );
    expect(vote).toEqual({ status: 401, body: UNAUTHENTICATED });
    await expectUnmoved(t, pending);
  });

  test("a stamp that does not verify gets one answer, whichever organization the body names", async () => {
    const keys = await registeredKeyPair(t, ONE_APPROVAL);
    const pending = await pendingStrategyUpdate(t, ONE_APPROVAL);
    const query = (organizationId: string) => ({ organizationId, activityId: pending.signingActivityId });
    const answers: Awaited<ReturnType<typeof signingPost>>[] = [];
    for (const organizationId of [ONE_APPROVAL.organizationId, TWO_APPROVALS.organizationId, "no-such-org"]) {
      // A junk signature under the registered key, and a genuine stamp by it naming another organization.
      answers.push(
        await signingPost(
          "/query/get_activity",
          query(organizationId),
          forgingStamper(keys, generateTurnkeyApiKeyPair()),
        ),
      );
      if (organizationId !== ONE_APPROVAL.organizationId)
        answers.push(await signingPost("/query/get_activity", query(organizationId), stamperOf(keys)));
    }
    answers.push(
      await signingPost(
        "/query/get_activity",
        query(ONE_APPROVAL.organizationId),
        stamperOf(generateTurnkeyApiKeyPair()),
      ),
    );
    expect(answers.map((answer) => JSON.stringify(answer))).toEqual(
      answers.map(() => JSON.stringify(answers[0])),
    );
    expect(answers[0]).toEqual({ status: 401, body: UNAUTHENTICATED });
  });

  test("an activity stamped more than 5 minutes from now is refused; the current time passes", async () => {
    const keys = await registeredKeyPair(t, ONE_APPROVAL);
    const pending = await pendingStrategyUpdate(t, ONE_APPROVAL);
    const fingerprint = await fingerprintOf(pending);
    const minutes = (n: number) => String(Date.now() + n * 60_000);
    for (const timestampMs of ["1", minutes(-6), minutes(6), "9999999999999999"]) {
      const stale = await signingPost(
        "/submit/approve_activity",
        approveBody(pending, fingerprint, { timestampMs }),
        stamperOf(keys),
      );
      expect(stale, timestampMs).toEqual({
        status: 401,
        body: { code: 16, message: expect.stringMatching(/timestampMs .* (old|ahead)/), details: [] },
      });
    }
    await expectUnmoved(t, pending);
    const fresh = await signingPost(
      "/submit/approve_activity",
      approveBody(pending, fingerprint, { timestampMs: minutes(-4) }),
      stamperOf(keys),
    );
    expect(fresh.status).toBe(200);
  });

  test("a body over 4 KB is refused with 413 before it is read, with a length or chunked", async () => {
    const keys = await registeredKeyPair(t, ONE_APPROVAL);
    const big = JSON.stringify({
      organizationId: ONE_APPROVAL.organizationId,
      activityId: "a",
      pad: "x".repeat(5000),
    });
    const stamp = (await stamperOf(keys).stamp(big)).stampHeaderValue;
    const chunked = () =>
      new ReadableStream<Uint8Array>({
        start(controller) {
          controller.enqueue(new TextEncoder().encode(big));
          controller.close();
        },
      });
    for (const body of [big, chunked()]) {
      const res = await fetch(`${t.url}/public/v1/query/get_activity`, {
        method: "POST",
        headers: { "content-type": "application/json", "X-Stamp": stamp },
        body,
        ...(typeof body === "string" ? {} : { duplex: "half" }),
      } as RequestInit);
      expect(res.status).toBe(413);
      expect(await res.json()).toMatchObject({ error: { code: "payload_too_large" } });
    }
    // Without a registered key, the body is never looked at: the stamp is refused first.
    const stranger = (await stamperOf(generateTurnkeyApiKeyPair()).stamp(big)).stampHeaderValue;
    expect(
      (await signingPost("/query/get_activity", JSON.parse(big), { stampHeader: stranger })).status,
    ).toBe(401);
  });
});
