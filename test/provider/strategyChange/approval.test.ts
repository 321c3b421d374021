import { describe, expect, test } from "vitest";
import type { ApprovalOutcome } from "../../../sdk/nodejs/approval/index.ts";
import {
  approvePendingChange as approveWith,
  sayAwaitingApproval,
} from "../../../provider/strategyChange/approval.ts";
import { changeStateOf } from "../../../provider/strategyChange/state.ts";

/**
 * The signing provider's answer for the next call; each test sets it. Given through the function's
 * `approve` parameter, not a module mock: the unit files share their workers' module registry
 * (vitest.config.ts), and a mock would reach the files that run after this one.
 */
let nextOutcome: ApprovalOutcome;
/** What each call asked the signing provider: the approver's settings and the signing activity. */
const asked: unknown[][] = [];
const approvePendingChange = (...args: Parameters<typeof approveWith>) =>
  approveWith(args[0], args[1], args[2], async (...call) => {
    asked.push(call);
    return nextOutcome;
  });

const approver = {
  apiBaseUrl: "http://127.0.0.1:1",
  organizationId: "org",
  apiPublicKey: "02" + "a".repeat(64),
  apiPrivateKey: "b".repeat(64),
};
const connection = { settings: { approver } } as unknown as Parameters<typeof approvePendingChange>[0];
const target = [{ positionKey: "tbills", targetWeightBps: 10000 }];
const pending = changeStateOf(
  {
    id: "5b2d7e0c-6a43-4a8e-9a55-0f1d7c0a1b11",
    requestId: "8f0e0d4e-3c1b-4d3a-8e2f-1a2b3c4d5e6f",
    status: "pending_approval",
    signingActivityId: "activity-1",
  } as never,
  1,
  target,
);
const base = { signingActivityId: "activity-1", voted: true, approvals: 1 };

describe("approvePendingChange (provider/strategyChange/approval.ts)", () => {
  test("only a completed activity counts as approved", async () => {
    nextOutcome = {
      ...base,
      kind: "completed",
      alreadyCompleted: false,
      activityStatus: "ACTIVITY_STATUS_COMPLETED",
    };
    asked.length = 0;
    expect((await approvePendingChange(connection, "wallet", pending)).approved).toBe(true);
    // The stack's configured approver votes on the change's own signing activity.
    expect(asked).toEqual([[approver, "activity-1"]]);
  });

  test("an activity still in progress, or of a status this code does not know, approves nothing", async () => {
    for (const activityStatus of ["ACTIVITY_STATUS_PENDING", "ACTIVITY_STATUS_SOMETHING_NEW"]) {
      nextOutcome = { ...base, kind: "in_progress", activityStatus };
      const result = await approvePendingChange(connection, "wallet", pending);
      expect(result.approved).toBe(false);
      expect(result.change).toMatchObject({
        status: "pending_approval",
        signingActivityStatus: activityStatus,
      });
    }
  });

  test("consensus still needed keeps the change pending and says how many approvals are missing", async () => {
    nextOutcome = {
      ...base,
      kind: "consensus_needed",
      approvalsStillNeeded: 1,
      activityStatus: "ACTIVITY_STATUS_CONSENSUS_NEEDED",
    };
    const result = await approvePendingChange(connection, "wallet", pending);
    expect(result).toMatchObject({ approved: false, change: { approvalsStillNeeded: 1 } });
  });

  test("a rejected or failed activity fails the update with what to do", async () => {
    nextOutcome = {
      ...base,
      kind: "rejected",
      alreadyRejected: false,
      reason: "no",
      activityStatus: "ACTIVITY_STATUS_REJECTED",
    };
    await expect(approvePendingChange(connection, "wallet", pending)).rejects.toThrow(/rejected .*: no/);
    nextOutcome = { ...base, kind: "failed", reason: "boom", activityStatus: "ACTIVITY_STATUS_FAILED" };
    await expect(approvePendingChange(connection, "wallet", pending)).rejects.toThrow(/failed: boom/);
  });
});

describe("sayAwaitingApproval (provider/strategyChange/approval.ts)", () => {
  const said = (settings: object, change: typeof pending) => {
    const messages: [string, string][] = [];
    sayAwaitingApproval(
      { settings, say: (severity: string, message: string) => messages.push([severity, message]) } as never,
      "wallet-1",
      change,
    );
    return messages;
  };

  test("a warning naming the update, its allocation, the signing activity and the command that approves it", () => {
    const [[severity, message]] = said({ approver: undefined }, pending) as [[string, string]];
    expect(severity).toBe("warning");
    expect(message).toBe(
      `strategy update ${pending.requestId} of wallet wallet-1 (to tbills 10000) is pending_approval, signing activity ` +
        "activity-1: the wallet keeps its current allocation until it is approved. Approve it with the money in view: " +
        "`pulumi stack export --file state.json`, then `npx portfolio-wallet approve activity-1 --state state.json` " +
        "(docs/cli.md), or at the signing provider.",
    );
  });

  test("after the stack's approver voted, it says other approvers must still sign", () => {
    const voted = { ...pending, signingActivityStatus: "ACTIVITY_STATUS_CONSENSUS_NEEDED" };
    const [[, message]] = said({ approver }, voted) as [[string, string]];
    expect(message).toContain(
      "signing activity activity-1: this stack's approver voted, other approvers must still sign;",
    );
    const counted = said({ approver }, { ...voted, approvalsStillNeeded: 2 }) as [[string, string]];
    expect(counted[0][1]).toContain("signing activity activity-1: 2 more approvals needed;");
  });
});
