import { describe, expect, test } from "vitest";
import { PortfolioWalletError } from "../../../sdk/nodejs/client/index.ts";
import {
  approveSigningActivity,
  ApprovalError,
  InvalidApproverSettingsError,
  SigningActivityNotFoundError,
  SigningCredentialsError,
  SigningProviderConnectionError,
  SigningProviderError,
  type ApproverSettings,
  type SigningActivityApi,
} from "../../../sdk/nodejs/approval/index.ts";
import { generateTurnkeyApiKeyPair } from "./turnkeyKeys.ts";

const ACTIVITY_ID = "0b6f7c1e-2f55-4d2e-9f1a-3c8a9d3e6b10";

function settings(overrides: Partial<ApproverSettings> = {}): ApproverSettings {
  return {
    apiBaseUrl: "http://127.0.0.1:9",
    organizationId: "org-a",
    ...generateTurnkeyApiKeyPair(),
    ...overrides,
  };
}

function activity(status: string, extra: Record<string, unknown> = {}) {
  return { activity: { id: ACTIVITY_ID, status, fingerprint: "fp-1", votes: [], ...extra } };
}

/** A signing API whose answers are scripted; records the votes it receives. */
function fakeApi(script: { get: unknown[]; vote?: unknown; voteError?: unknown; getError?: unknown }) {
  const votes: unknown[] = [];
  const api: SigningActivityApi = {
    async getActivity() {
      if (script.getError !== undefined) throw script.getError;
      return script.get.shift();
    },
    async approveActivity(input) {
      votes.push({ approve: input });
      if (script.voteError !== undefined) throw script.voteError;
      return script.vote;
    },
    async rejectActivity(input) {
      votes.push({ reject: input });
      return script.vote;
    },
  };
  return { api, votes };
}

/** What `@turnkey/sdk-server` throws for an error answer: `TurnkeyRequestError` with a numeric code. */
function turnkeyRequestError(code: number, message: string): Error {
  const error = new Error(`Turnkey error ${code}: ${message} (Details: [])`);
  error.name = "TurnkeyRequestError";
  Object.assign(error, { code, details: [] });
  return error;
}

describe("approveSigningActivity (unit, scripted signing API)", () => {
  test("submits ACTIVITY_TYPE_APPROVE_ACTIVITY inputs: the fingerprint, the organization and a millisecond timestamp string", async () => {
    const { api, votes } = fakeApi({
      get: [activity("ACTIVITY_STATUS_CONSENSUS_NEEDED")],
      vote: activity("ACTIVITY_STATUS_COMPLETED"),
    });
    const before = Date.now();
    await approveSigningActivity(settings(), ACTIVITY_ID, { signingApi: api });
    expect(votes).toEqual([
      {
        approve: {
          fingerprint: "fp-1",
          organizationId: "org-a",
          timestampMs: expect.stringMatching(/^\d{13}$/),
        },
      },
    ]);
    const sent = Number((votes[0] as { approve: { timestampMs: string } }).approve.timestampMs);
    expect(sent).toBeGreaterThanOrEqual(before);
  });

  test("consensus needed is an outcome, with the approvals still needed only when the policy size is known", async () => {
    const voted = activity("ACTIVITY_STATUS_CONSENSUS_NEEDED", {
      votes: [
        { publicKey: "02aa", selection: "VOTE_SELECTION_APPROVED" },
        { publicKey: "02AA", selection: "VOTE_SELECTION_APPROVED" },
      ],
    });
    const known = fakeApi({ get: [activity("ACTIVITY_STATUS_CONSENSUS_NEEDED")], vote: voted });
    expect(
      await approveSigningActivity(settings(), ACTIVITY_ID, { signingApi: known.api, requiredApprovals: 3 }),
    ).toMatchObject({
      kind: "consensus_needed",
      approvals: 1,
      approvalsStillNeeded: 2,
    });
    const unknown = fakeApi({ get: [activity("ACTIVITY_STATUS_CONSENSUS_NEEDED")], vote: voted });
    expect(await approveSigningActivity(settings(), ACTIVITY_ID, { signingApi: unknown.api })).toMatchObject({
      kind: "consensus_needed",
      approvalsStillNeeded: undefined,
    });
  });

  test("reports failed and in-progress activities, and re-reads the activity when the vote answers about another one", async () => {
    const failed = fakeApi({
      get: [activity("ACTIVITY_STATUS_FAILED", { failure: { code: 9, message: "superseded" } })],
    });
    expect(await approveSigningActivity(settings(), ACTIVITY_ID, { signingApi: failed.api })).toMatchObject({
      kind: "failed",
      reason: "superseded",
      voted: false,
    });
    expect(failed.votes).toEqual([]);

    const other = { activity: { id: "the-approval-itself", status: "ACTIVITY_STATUS_COMPLETED" } };
    const reread = fakeApi({
      get: [activity("ACTIVITY_STATUS_CONSENSUS_NEEDED"), activity("ACTIVITY_STATUS_PENDING")],
      vote: other,
    });
    expect(await approveSigningActivity(settings(), ACTIVITY_ID, { signingApi: reread.api })).toMatchObject({
      kind: "in_progress",
      activityStatus: "ACTIVITY_STATUS_PENDING",
      signingActivityId: ACTIVITY_ID,
      voted: true,
    });
  });

  test("maps the provider's error codes to distinct errors, all ApprovalErrors and PortfolioWalletErrors", async () => {
    const cases: [unknown, { isInstance(e: unknown): boolean }][] = [
      [turnkeyRequestError(16, "could not verify the request's stamp"), SigningCredentialsError],
      [turnkeyRequestError(7, "not allowed"), SigningCredentialsError],
      [new Error("401 Unauthorized"), SigningCredentialsError],
      [turnkeyRequestError(5, "no activity"), SigningActivityNotFoundError],
      [turnkeyRequestError(13, "boom"), SigningProviderError],
      [
        Object.assign(new Error("connect ECONNREFUSED"), { name: "FetchError", type: "system" }),
        SigningProviderConnectionError,
      ],
    ];
    for (const [thrown, errorClass] of cases) {
      const { api } = fakeApi({ get: [], getError: thrown });
      const error = await approveSigningActivity(settings(), ACTIVITY_ID, { signingApi: api }).catch(
        (e: unknown) => e,
      );
      expect(errorClass.isInstance(error), String(thrown)).toBe(true);
      expect(ApprovalError.isInstance(error)).toBe(true);
      expect(PortfolioWalletError.isInstance(error)).toBe(true);
      expect(error).toMatchObject({ signingActivityId: ACTIVITY_ID });
    }
  });

  test("an unreachable signing provider is a connection error through the real SDK", async () => {
    const error = await approveSigningActivity(
      settings({ apiBaseUrl: "http://127.0.0.1:1" }),
      ACTIVITY_ID,
    ).catch((e: unknown) => e);
    expect(SigningProviderConnectionError.isInstance(error)).toBe(true);
    expect((error as Error).message).toMatch(/turnkeyApiBaseUrl/);
  });

  test("never puts the private key in an error message, whatever the SDK's message holds", async () => {
    const s = settings();
    const jwkD = Buffer.from(s.apiPrivateKey, "hex").toString("base64url");
    const leaks = [
      new Error(`cannot load key ${s.apiPrivateKey}`),
      turnkeyRequestError(16, `bad key ${s.apiPrivateKey.toUpperCase()}`),
      turnkeyRequestError(13, `jwk d=${jwkD}`),
      new Error(
        `mixed ${[...s.apiPrivateKey].map((ch, i) => (i % 2 === 0 ? ch.toUpperCase() : ch)).join("")}`,
      ),
    ];
    for (const leak of leaks) {
      const onGet = fakeApi({ get: [], getError: leak });
      const onVote = fakeApi({ get: [activity("ACTIVITY_STATUS_CONSENSUS_NEEDED")], voteError: leak });
      for (const { api } of [onGet, onVote]) {
        const error = (await approveSigningActivity(s, ACTIVITY_ID, { signingApi: api }).catch(
          (e: unknown) => e,
        )) as Error;
        expect(ApprovalError.isInstance(error)).toBe(true);
        const everything = `${error.message} ${error.stack} ${JSON.stringify(error)} ${String(error.cause)}`;
        expect(everything.toLowerCase()).not.toContain(s.apiPrivateKey.toLowerCase());
        expect(everything).not.toContain(jwkD);
        expect(error.message).toContain("[redacted]");
      }
    }
  });

  test("reports every settings problem at once, before any request, without quoting either key", async () => {
    const a = generateTurnkeyApiKeyPair();
    const b = generateTurnkeyApiKeyPair();
    const { api, votes } = fakeApi({ get: [activity("ACTIVITY_STATUS_CONSENSUS_NEEDED")] });
    let calls = 0;
    const counting: SigningActivityApi = { ...api, getActivity: async (i) => (calls++, api.getActivity(i)) };

    const all = await approveSigningActivity(
      { apiBaseUrl: "ftp://x", organizationId: " ", apiPublicKey: "04abc", apiPrivateKey: "xyz" },
      ACTIVITY_ID,
      { signingApi: counting },
    ).catch((e: unknown) => e);
    expect(InvalidApproverSettingsError.isInstance(all)).toBe(true);
    expect((all as InvalidApproverSettingsError).problems).toHaveLength(4);

    const mismatched = (await approveSigningActivity(
      {
        apiBaseUrl: "https://api.turnkey.com",
        organizationId: "org",
        apiPublicKey: a.apiPublicKey,
        apiPrivateKey: b.apiPrivateKey,
      },
      ACTIVITY_ID,
      { signingApi: counting },
    ).catch((e: unknown) => e)) as InvalidApproverSettingsError;
    expect(mismatched.problems).toEqual([
      expect.stringMatching(/turnkeyApiPublicKey does not belong to portfolio-wallet:turnkeyApiPrivateKey/),
    ]);
    expect(mismatched.message).not.toContain(b.apiPrivateKey);
    expect(mismatched.message).not.toContain(a.apiPublicKey);
    expect(calls).toBe(0);
    expect(votes).toEqual([]);
  });
});
