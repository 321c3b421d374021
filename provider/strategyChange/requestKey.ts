import type { StrategyUpdate } from "../../sdk/nodejs/contract/strategy.ts";
import { positionsIn, sameAllocation, type AllocationLike } from "../../sdk/nodejs/contract/allocation.ts";
import { strategyUpdateRequestId } from "../../sdk/nodejs/client/requestIds.ts";
import { isStillOpen, type StrategyChangeState } from "./state.ts";

/**
 * Which requestId a strategy change is sent with, and when a key turns out to be spent. Pure: the
 * keys themselves are derived in sdk/nodejs/client/requestIds.ts, the one place of idempotency keys.
 */

export interface ChangeRequestKey {
  revision: number;
  requestId: string;
}

/**
 * The key for moving to `target`: the stored one while the same change is still open (a retried or
 * resumed `up` must not request it twice), otherwise the next revision's.
 */
export function requestKeyForTarget(
  urn: string,
  target: AllocationLike,
  previous: StrategyChangeState | null,
): ChangeRequestKey {
  if (previous && isStillOpen(previous) && sameAllocation(previous.targetPositions, target)) {
    return { revision: previous.revision, requestId: previous.requestId };
  }
  return nextRevisionKey(urn, target, previous?.revision ?? 0);
}

export function nextRevisionKey(urn: string, target: AllocationLike, revision: number): ChangeRequestKey {
  return {
    revision: revision + 1,
    requestId: strategyUpdateRequestId(urn, revision + 1, positionsIn(target)),
  };
}

/** The service's answer to a PATCH, or "conflict": it knows the requestId with another body (409). */
export type ChangeAnswer = StrategyUpdate | "conflict";

/**
 * Whether an answer shows that its requestId belongs to an earlier update, so that this change
 * needs the next revision's key:
 * - "conflict": the key was used with another body (the same URN on another wallet: a
 *   WalletStrategy moved to another wallet, or a wallet adopted under a re-used name);
 * - `failed`: a brand-new request never answers failed at once (a bad body is a 4xx), so this is
 *   the replay of an earlier update with this key that failed;
 * - `completed`: spent only if the wallet does not show the target (an update that completed
 *   before the wallet was changed again; a resource re-created under the same URN starts at
 *   revision 1 again). Deciding that needs the wallet: "check the wallet".
 */
export function keySpentBy(answer: ChangeAnswer): "spent" | "fresh" | "check the wallet" {
  if (answer === "conflict" || answer.status === "failed") return "spent";
  return answer.status === "completed" ? "check the wallet" : "fresh";
}

/** A spent requestId is skipped for the next revision's: only this many are tried in one call. */
export const MAX_SPENT_KEYS_SKIPPED = 20;
