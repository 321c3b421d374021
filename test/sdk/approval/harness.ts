import { ApiKeyStamper, TurnkeyApiClient, type TStamper } from "@turnkey/sdk-server";
import { expect } from "vitest";
import type { ApproverSettings } from "../../../sdk/nodejs/stackSettings.ts";
import {
  startTestSandbox,
  ORG,
  OTHER_ORG,
  OTHER_TOKEN,
  TOKEN,
  uuid,
  walletBody,
  type TestSandbox,
} from "../../sandbox/helpers.ts";
import { generateTurnkeyApiKeyPair, type TurnkeyApiKeyPair } from "./turnkeyKeys.ts";

/** ORG needs one approval per strategy update; OTHER_ORG needs two. */
export const ONE_APPROVAL = { token: TOKEN, organizationId: ORG } as const;
export const TWO_APPROVALS = { token: OTHER_TOKEN, organizationId: OTHER_ORG } as const;
export type Org = typeof ONE_APPROVAL | typeof TWO_APPROVALS;

export const INITIAL_POSITIONS = [
  { positionKey: "tbills", targetWeightBps: 6000 },
  { positionKey: "syrupUsdc", targetWeightBps: 4000 },
];
export const REQUESTED_POSITIONS = [
  { positionKey: "tbills", targetWeightBps: 2500 },
  { positionKey: "syrupUsdc", targetWeightBps: 7500 },
];

export async function startApprovalSandbox(): Promise<TestSandbox> {
  return startTestSandbox({
    policies: { [ORG]: { strategyUpdateApprovals: 1 }, [OTHER_ORG]: { strategyUpdateApprovals: 2 } },
    rebalanceDelayMs: 5,
  });
}

/** Generates a key pair and registers its public key as an approver of `org` through the admin API. */
export async function registeredKeyPair(
  t: TestSandbox,
  org: Org,
  userName = "approver",
): Promise<TurnkeyApiKeyPair> {
  const keys = generateTurnkeyApiKeyPair();
  const res = await t.api("POST", "/_sandbox/signing/api-keys", {
    token: org.token,
    body: { publicKey: keys.apiPublicKey, userName },
  });
  expect(res.status).toBe(201);
  return keys;
}

export function settingsFor(t: TestSandbox, org: Org, keys: TurnkeyApiKeyPair): ApproverSettings {
  return { apiBaseUrl: t.url, organizationId: org.organizationId, ...keys };
}

/** A wallet with a strategy update waiting for approval. */
export interface PendingUpdate {
  org: Org;
  walletId: string;
  updateId: string;
  signingActivityId: string;
}

export async function pendingStrategyUpdate(t: TestSandbox, org: Org): Promise<PendingUpdate> {
  const wallet = await t.api("POST", "/v2/portfolio-wallets", {
    token: org.token,
    body: walletBody({ positions: INITIAL_POSITIONS }),
  });
  expect(wallet.status).toBe(201);
  const update = await t.api("PATCH", `/v2/portfolio-wallets/${wallet.body.id}/strategy`, {
    token: org.token,
    body: { requestId: uuid(), positions: REQUESTED_POSITIONS },
  });
  expect(update.status).toBe(200);
  expect(update.body).toMatchObject({
    status: "pending_approval",
    signingActivityStatus: "ACTIVITY_STATUS_CONSENSUS_NEEDED",
  });
  expect(typeof update.body.signingActivityId).toBe("string");
  return {
    org,
    walletId: wallet.body.id,
    updateId: update.body.id,
    signingActivityId: update.body.signingActivityId,
  };
}

const targetsOf = (wallet: {
  strategyConfig: { positions: { positionKey: string; targetWeightBps: number }[] };
}) =>
  wallet.strategyConfig.positions.map(({ positionKey, targetWeightBps }) => ({
    positionKey,
    targetWeightBps,
  }));

export async function strategyUpdate(t: TestSandbox, pending: PendingUpdate) {
  const res = await t.api("GET", `/_sandbox/strategy-updates/${pending.updateId}`, {
    token: pending.org.token,
  });
  expect(res.status).toBe(200);
  return res.body;
}

export async function walletTargets(t: TestSandbox, pending: PendingUpdate) {
  const res = await t.api("GET", `/v2/portfolio-wallets/${pending.walletId}`, { token: pending.org.token });
  expect(res.status).toBe(200);
  return targetsOf(res.body);
}

/** The operation has not moved: still awaiting approval, and the wallet keeps its old target. */
export async function expectUnmoved(t: TestSandbox, pending: PendingUpdate): Promise<void> {
  expect(await strategyUpdate(t, pending)).toMatchObject({
    status: "pending_approval",
    signingActivityStatus: "ACTIVITY_STATUS_CONSENSUS_NEEDED",
    failureReason: null,
  });
  expect(await walletTargets(t, pending)).toEqual(INITIAL_POSITIONS);
}

/** Waits for the approved update to finish its rebalance, then checks the wallet took the new target. */
export async function expectCompleted(t: TestSandbox, pending: PendingUpdate): Promise<void> {
  const deadline = Date.now() + 3000;
  let update = await strategyUpdate(t, pending);
  while (update.status !== "completed" && Date.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, 20));
    update = await strategyUpdate(t, pending);
  }
  expect(update).toMatchObject({ status: "completed", signingActivityStatus: "ACTIVITY_STATUS_COMPLETED" });
  expect(await walletTargets(t, pending)).toEqual(REQUESTED_POSITIONS);
}

/**
 * A stamper that signs with `signer` but claims to be `claimed`: what an attacker who knows a
 * registered public key (public by nature) but not its private key can send.
 */
export function forgingStamper(claimed: TurnkeyApiKeyPair, signer: TurnkeyApiKeyPair): TStamper {
  const real = new ApiKeyStamper({ ...signer });
  return {
    async stamp(payload: string) {
      const { stampHeaderName, stampHeaderValue } = await real.stamp(payload);
      const stamp = JSON.parse(Buffer.from(stampHeaderValue, "base64url").toString("utf8"));
      const forged = Buffer.from(JSON.stringify({ ...stamp, publicKey: claimed.apiPublicKey })).toString(
        "base64url",
      );
      return { stampHeaderName, stampHeaderValue: forged };
    },
  };
}

/** The real Turnkey SDK client, stamping with `stamper`, pointed at the sandbox. */
export function turnkeyClient(t: TestSandbox, org: Org, stamper: TStamper): TurnkeyApiClient {
  return new TurnkeyApiClient({ stamper, apiBaseUrl: t.url, organizationId: org.organizationId });
}

/** A forged vote on the pending activity, claiming `claimed`'s identity: must be refused as unauthenticated. */
export async function expectForgedVoteRefused(
  t: TestSandbox,
  pending: PendingUpdate,
  claimed: TurnkeyApiKeyPair,
  selection: "approve" | "reject" = "approve",
): Promise<void> {
  const activity = await t.api("GET", `/_sandbox/signing-activities/${pending.signingActivityId}`, {
    token: pending.org.token,
  });
  expect(activity.status).toBe(200);
  const client = turnkeyClient(t, pending.org, forgingStamper(claimed, generateTurnkeyApiKeyPair()));
  const vote = {
    fingerprint: activity.body.fingerprint as string,
    organizationId: pending.org.organizationId,
  };
  const attempt = selection === "approve" ? client.approveActivity(vote) : client.rejectActivity(vote);
  await expect(attempt).rejects.toMatchObject({ name: "TurnkeyRequestError", code: 16 });
}
