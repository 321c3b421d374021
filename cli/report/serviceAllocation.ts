import {
  allocationAtService,
  describeAllocation,
  type AllocationAtService,
} from "../../provider/strategyChange/outsideChange.ts";
import {
  positionsOfWeights,
  weightsByKeyOf,
  type TargetPosition,
} from "../../sdk/nodejs/contract/allocation.ts";
import type { StrategyChangeState } from "../../sdk/nodejs/resources/strategyChangeState.ts";
import type { RecordedAllocation } from "./previewSteps.ts";

/**
 * The allocation a wallet holds at the service beside the one the stack's state records, judged
 * by the provider's one rule (provider/strategyChange/outsideChange.ts), in the words of a report.
 * Pure. The pull-request report shows it beside each strategy update; the merge check asks the
 * same rule again against the service at the merge.
 */

export interface AllocationAtReview {
  verdict: AllocationAtService["verdict"];
  /** The allocation the service holds (its strategyConfig), bps by positionKey. */
  serviceBps: Record<string, number>;
  /** The allocation the stack's state holds (`targetWeightsBps`). */
  recordedBps: Record<string, number>;
  /** The latest strategy change the state holds. */
  recordedChange: StrategyChangeState | null;
  /** What a reviewer must know of it; null when nothing ("as recorded", "the code's target"). */
  note: string | null;
}

/** What `up` will do with a strategy update the service's allocation was changed under. */
export const REFUSED_UNTIL_REFRESHED =
  "The merge's `pulumi up` refuses this strategy update until the stack is refreshed (`pulumi refresh`) " +
  "and the change is reviewed again (a new preview and report).";

function awaitingNote(change: StrategyChangeState, service: readonly TargetPosition[]): string {
  const activity = change.signingActivityId === null ? "" : ` (signing activity ${change.signingActivityId})`;
  const until = change.status === "pending_approval" ? "it is approved" : "it completes";
  return (
    `The stack's own strategy update to ${describeAllocation(change.targetPositions)} is ${change.status} at the service${activity}: ` +
    `the wallet holds ${describeAllocation(service)} until ${until}. Not an outside change.`
  );
}

/**
 * The service's allocation judged against the state's record and the code's new target (null when
 * it is known only at `up`).
 */
export function allocationAtReview(
  recorded: RecordedAllocation,
  service: readonly { positionKey: string; targetWeightBps: number }[],
  codeTarget: Readonly<Record<string, number>> | null,
): AllocationAtReview {
  const servicePositions = service.map((p) => ({
    positionKey: p.positionKey,
    targetWeightBps: p.targetWeightBps,
  }));
  const judged = allocationAtService({
    recorded: positionsOfWeights(recorded.weights),
    recordedChange: recorded.change,
    service: servicePositions,
    ...(codeTarget === null ? {} : { codeTarget: positionsOfWeights(codeTarget) }),
  });
  const note =
    judged.verdict === "changed outside"
      ? `The allocation was changed outside the stack: the service holds ${describeAllocation(judged.service)}, ` +
        `the stack's state ${describeAllocation(judged.recorded)}. ${REFUSED_UNTIL_REFRESHED} ` +
        "The dollars are from what the service holds."
      : judged.verdict === "awaiting the stack's change"
        ? awaitingNote(judged.change, servicePositions)
        : null;
  return {
    verdict: judged.verdict,
    serviceBps: weightsByKeyOf(servicePositions),
    recordedBps: { ...recorded.weights },
    recordedChange: recorded.change,
    note,
  };
}
