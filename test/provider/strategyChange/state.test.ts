import { describe, expect, test } from "vitest";
import {
  changeStateOf,
  isStillOpen,
  strategyChangeOutputs,
  withObservedCompletion,
  type StrategyChangeState,
} from "../../../provider/strategyChange/state.ts";
import { strategyUpdateAnswer } from "../helpers.ts";

const TARGET = [
  { positionKey: "syrupUsdc", targetWeightBps: 4000 },
  { positionKey: "tbills", targetWeightBps: 6000 },
];

function change(status: string, targetPositions = TARGET): StrategyChangeState {
  return {
    ...changeStateOf(strategyUpdateAnswer(status, { signingActivityId: "act-1" }), 2, targetPositions),
    approvalsStillNeeded: 1,
  };
}

describe("strategy change state", () => {
  test("changeStateOf keeps the service's answer with the revision and target", () => {
    expect(changeStateOf(strategyUpdateAnswer("pending_approval", { requestId: "r" }), 3, TARGET)).toEqual({
      revision: 3,
      requestId: "r",
      status: "pending_approval",
      targetPositions: TARGET,
      signingActivityId: null,
      signingActivityStatus: null,
      approvalsStillNeeded: null,
      failureReason: null,
      supersededFailure: null,
    });
  });

  test.each([
    ["pending_approval", true],
    ["processing", true],
    ["created", true],
    ["completed", false],
    ["failed", false],
    ["some_new_status", false],
  ])("a change that is %s is still open: %s", (status, open) => {
    expect(isStillOpen(change(status))).toBe(open);
  });

  test("an open change whose target the wallet now applies is seen as completed", () => {
    const observed = withObservedCompletion(change("pending_approval"), [...TARGET].reverse());
    expect(observed?.status).toBe("completed");
    expect(observed?.approvalsStillNeeded).toBeNull();
  });

  test("an open change whose target the wallet does not apply stays as it is", () => {
    const pending = change("pending_approval");
    expect(withObservedCompletion(pending, [{ positionKey: "tbills", targetWeightBps: 10_000 }])).toBe(
      pending,
    );
  });

  test("a failed change stays failed even when the wallet shows its target", () => {
    const failed = change("failed");
    expect(withObservedCompletion(failed, TARGET)).toBe(failed);
    expect(withObservedCompletion(null, TARGET)).toBeNull();
  });

  test("outputs show the change and its status, or null for none", () => {
    expect(strategyChangeOutputs(null)).toEqual({ strategyChange: null, strategyChangeStatus: null });
    expect(strategyChangeOutputs(change("processing")).strategyChangeStatus).toBe("processing");
  });
});
