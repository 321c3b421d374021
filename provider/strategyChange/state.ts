import { positionsIn, sameAllocation, type AllocationLike } from "../../sdk/nodejs/contract/allocation.ts";
import type { StrategyUpdate } from "../../sdk/nodejs/contract/strategy.ts";
import type { StrategyChangeState } from "../../sdk/nodejs/resources/strategyChangeState.ts";

/**
 * The latest strategy change a resource started, as kept in its state (the type users see with
 * the resource classes). Pure: nothing here makes a request.
 */
export type { StrategyChangeState };

/** Statuses of a change that may still complete on its own (after an approval, say). */
const STILL_OPEN = new Set(["pending_approval", "processing", "created"]);

export function isStillOpen(change: StrategyChangeState): boolean {
  return isOpenStatus(change.status);
}

export function isOpenStatus(status: string): boolean {
  return STILL_OPEN.has(status);
}

/** The state of a change from the service's answer to its PATCH. */
export function changeStateOf(
  update: StrategyUpdate,
  revision: number,
  target: AllocationLike,
): StrategyChangeState {
  return {
    revision,
    requestId: update.requestId,
    status: update.status,
    targetPositions: positionsIn(target),
    signingActivityId: update.signingActivityId ?? null,
    signingActivityStatus: update.signingActivityStatus ?? null,
    approvalsStillNeeded: null,
    failureReason: update.failureReason ?? null,
    supersededFailure: null,
  };
}

/**
 * A refresh's view of the latest change: an open change whose target the wallet now applies has
 * completed (approved in the portal, say). Strategy events cannot be polled (spec 4.7), so the
 * wallet's strategyConfig is the evidence.
 */
export function withObservedCompletion(
  change: StrategyChangeState | null,
  applied: AllocationLike,
): StrategyChangeState | null {
  if (change && isStillOpen(change) && sameAllocation(applied, change.targetPositions)) {
    return { ...change, status: "completed", approvalsStillNeeded: null };
  }
  return change;
}

/** The outputs every allocation-managing resource shows about its latest strategy change. */
export function strategyChangeOutputs(change: StrategyChangeState | null) {
  return { strategyChange: change, strategyChangeStatus: change?.status ?? null };
}
