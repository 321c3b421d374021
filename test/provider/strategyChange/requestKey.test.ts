import { describe, expect, test } from "vitest";
import { strategyUpdateRequestId } from "../../../sdk/nodejs/client/requestIds.ts";
import {
  keySpentBy,
  nextRevisionKey,
  requestKeyForTarget,
} from "../../../provider/strategyChange/requestKey.ts";
import { changeStateOf } from "../../../provider/strategyChange/state.ts";
import { strategyUpdateAnswer } from "../helpers.ts";

const URN = "urn:pulumi:prod::treasury::pulumi-nodejs:dynamic/portfoliowallet:PortfolioWallet::main";
const A = [{ positionKey: "tbills", targetWeightBps: 10_000 }];
const B = [
  { positionKey: "syrupUsdc", targetWeightBps: 5000 },
  { positionKey: "tbills", targetWeightBps: 5000 },
];
const answer = (status: string) => strategyUpdateAnswer(status);

describe("strategy change request keys", () => {
  test("a first change is revision 1, with the key derived from the URN, revision and target", () => {
    expect(requestKeyForTarget(URN, A, null)).toEqual({
      revision: 1,
      requestId: strategyUpdateRequestId(URN, 1, A),
    });
  });

  test("the same target while its change is still open reuses the stored key: a resumed up asks once", () => {
    const open = changeStateOf(answer("pending_approval"), 4, A);
    expect(requestKeyForTarget(URN, A, { ...open, requestId: "stored" })).toEqual({
      revision: 4,
      requestId: "stored",
    });
  });

  test("another target, or the same target after its change ended, takes the next revision", () => {
    const open = changeStateOf(answer("pending_approval"), 4, A);
    expect(requestKeyForTarget(URN, B, open).revision).toBe(5);
    const completed = changeStateOf(answer("completed"), 4, A);
    // A -> B -> A: the second A is a new request, never a replay of the first.
    expect(requestKeyForTarget(URN, A, completed)).toEqual(nextRevisionKey(URN, A, 4));
    expect(requestKeyForTarget(URN, A, completed).requestId).not.toBe(strategyUpdateRequestId(URN, 1, A));
  });

  test.each([
    ["conflict" as const, "spent"],
    [answer("failed"), "spent"],
    [answer("completed"), "check the wallet"],
    [answer("pending_approval"), "fresh"],
    [answer("processing"), "fresh"],
  ])("an answer %j means the key is %s", (reply, verdict) => {
    expect(keySpentBy(reply)).toBe(verdict);
  });
});
