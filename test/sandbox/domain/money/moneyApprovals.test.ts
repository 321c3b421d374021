import { afterEach, beforeEach, describe, expect, test } from "vitest";
import { approveSigningActivity } from "../../../../sdk/nodejs/approval/index.ts";
import { UnprocessableEntityError } from "../../../../sdk/nodejs/client/index.ts";
import { generateTurnkeyApiKeyPair } from "../../../sdk/approval/turnkeyKeys.ts";
import { ORG } from "../../helpers.ts";
import {
  DAY_MS,
  fundedWallet,
  startMoneySandbox,
  withdrawBody,
  type MoneySandbox,
} from "../../moneyHelpers.ts";

let m: MoneySandbox;
let walletId: string;
beforeEach(async () => {
  m = await startMoneySandbox({ policies: { [ORG]: { withdrawalApprovals: 1 } } });
  walletId = await fundedWallet(m, 1000);
});
afterEach(() => m.close());

const balance = async () => (await m.client.wallets.retrieve(walletId)).totalBalanceUsd;

describe("withdrawals needing approval", () => {
  test("wait in pending_approval, holding the amount, then proceed on their own once approved through the signing provider", async () => {
    const pending = await m.client.withdrawals.create(walletId, withdrawBody(700));
    expect(pending).toMatchObject({
      status: "pending_approval",
      signingActivityStatus: "ACTIVITY_STATUS_CONSENSUS_NEEDED",
      legStatuses: { instant: "pending", redeem: "pending" },
      payouts: [],
    });
    expect(pending.signingActivityId).toMatch(/^[0-9a-f-]{36}$/);
    // Nothing left the wallet, but the held 700 cannot be spent twice.
    expect(await balance()).toBe(1000);
    const over = await m.client.withdrawals.create(walletId, withdrawBody(300.01)).catch((e: unknown) => e);
    expect(over).toBeInstanceOf(UnprocessableEntityError);
    expect((over as UnprocessableEntityError).message).toContain("withdrawable balance of 300 USD");

    const keys = generateTurnkeyApiKeyPair();
    const registered = await m.t.api("POST", "/_sandbox/signing/api-keys", {
      body: { publicKey: keys.apiPublicKey },
    });
    expect(registered.status).toBe(201);
    const outcome = await approveSigningActivity(
      { apiBaseUrl: m.t.url, organizationId: ORG, ...keys },
      pending.signingActivityId ?? "",
    );
    expect(outcome.kind).toBe("completed");

    const approved = await m.client.withdrawals.retrieve(walletId, pending.id);
    expect(approved).toMatchObject({
      status: "partially_completed",
      signingActivityStatus: "ACTIVITY_STATUS_COMPLETED",
      legStatuses: { instant: "completed", redeem: "processing" },
    });
    expect(await balance()).toBe(300);
    await m.advance(DAY_MS);
    expect((await m.client.withdrawals.retrieve(walletId, pending.id)).status).toBe("completed");
  });

  test("approved through the admin call, proceeds the same way", async () => {
    const pending = await m.client.withdrawals.create(walletId, withdrawBody(100));
    const res = await m.t.api("POST", `/_sandbox/signing-activities/${pending.signingActivityId}/approve`);
    expect(res.status).toBe(200);
    expect(await m.client.withdrawals.retrieve(walletId, pending.id)).toMatchObject({ status: "completed" });
    expect(await balance()).toBe(900);
  });

  test("a rejected approval fails the withdrawal and the funds stay in the wallet", async () => {
    const pending = await m.client.withdrawals.create(walletId, withdrawBody(700));
    const res = await m.t.api("POST", `/_sandbox/signing-activities/${pending.signingActivityId}/reject`, {
      body: { reason: "not ours" },
    });
    expect(res.status).toBe(200);
    const rejected = await m.client.withdrawals.retrieve(walletId, pending.id);
    expect(rejected).toMatchObject({
      status: "failed",
      failureReason: "approval rejected: not ours",
      signingActivityStatus: "ACTIVITY_STATUS_REJECTED",
      legStatuses: { instant: "skipped", redeem: "skipped" },
      payouts: [],
    });
    expect(await balance()).toBe(1000);
    // The hold is released: the whole balance is withdrawable again (after approval).
    const next = await m.client.withdrawals.create(walletId, withdrawBody(1000));
    expect(next.status).toBe("pending_approval");
  });
});
