import {
  canonicalAllocation,
  sameAllocation,
  TargetAllocation,
  type AllocationLike,
  type TargetPosition,
} from "../../sdk/nodejs/contract/allocation.ts";
import { isStillOpen, type StrategyChangeState } from "./state.ts";

/**
 * Whether the allocation a wallet holds at the service is the one the stack's state recorded, or
 * was changed outside the stack (a console, another tool, another stack). Pure: the provider
 * (before a strategy update) and the pull-request report (beside each wallet's dollars) both ask
 * it, so they never disagree about what counts as an outside change.
 *
 * What the stack may find at the service without anything outside it having acted:
 * - the allocation its state records (applied, or read by the last refresh);
 * - the code's new target itself (a resumed or retried update that already went through): nothing
 *   would move that the review did not see;
 * - anything, while the change the stack requested last still waits (for approval, or processing):
 *   the wallet keeps the allocation it had when the stack asked. Whether that change is really
 *   still open at the service needs its status (the provider replays its PATCH); a read-only
 *   caller (the report) only has the state's word for it.
 */
export type AllocationAtService =
  | { verdict: "as recorded" }
  | { verdict: "the code's target" }
  | { verdict: "awaiting the stack's change"; change: StrategyChangeState }
  | { verdict: "changed outside"; recorded: AllocationLike; service: AllocationLike };

export function allocationAtService(params: {
  /** The target allocation the state holds (`targetWeightsBps`). */
  recorded: AllocationLike;
  /** The latest strategy change the state holds. */
  recordedChange: StrategyChangeState | null;
  /** The wallet's `strategyConfig.positions` now. */
  service: AllocationLike;
  /** The allocation about to be applied, when there is one. */
  codeTarget?: AllocationLike;
}): AllocationAtService {
  const { recorded, recordedChange, service, codeTarget } = params;
  if (sameAllocation(service, recorded)) return { verdict: "as recorded" };
  if (codeTarget !== undefined && sameAllocation(service, codeTarget))
    return { verdict: "the code's target" };
  // State written by the update that left this change open (not refreshed since): the wallet
  // still holds what it held when the stack asked, as long as the change is open at the service.
  if (
    recordedChange &&
    isStillOpen(recordedChange) &&
    sameAllocation(recordedChange.targetPositions, recorded)
  ) {
    return { verdict: "awaiting the stack's change", change: recordedChange };
  }
  return { verdict: "changed outside", recorded, service };
}

/** `tbills 6000, syrupUsdc 4000`, sorted by positionKey: how messages name an allocation. */
export function describeAllocation(allocation: AllocationLike): string {
  const positions: readonly TargetPosition[] =
    allocation instanceof TargetAllocation ? allocation.positions : canonicalAllocation(allocation);
  return positions.map((p) => `${p.positionKey} ${p.targetWeightBps}`).join(", ");
}
