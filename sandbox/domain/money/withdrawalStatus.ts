/**
 * The withdrawal status machine (spec 3.3; choices in docs/spec-gaps.md "Withdrawal status
 * moves"), as pure functions of the legs. Nothing here reads or writes.
 *
 * (new) → `pending_approval` (the organization's policy needs approvals) or `processing`;
 * `pending_approval` → `processing` (approved) or `failed` (rejected, nothing debited);
 * `processing` → `partially_completed` (some legs paid) → `completed` (all paid or skipped);
 * any started state → `failed` when a leg fails. `created` is not used.
 */

/** Leg statuses: `pending` (not started), `processing`, `completed`, `failed`, `skipped`. */
export type LegStatus = "pending" | "processing" | "completed" | "failed" | "skipped";

/** A leg is done when it paid out or was never needed. */
export const isLegDone = (status: string): boolean => status === "completed" || status === "skipped";

/**
 * The status a started withdrawal has once one of its legs changed: `completed` when every leg is
 * done, `partially_completed` when some paid and others still run, else `processing`.
 */
export function statusFromLegs(
  legStatuses: readonly string[],
): "processing" | "partially_completed" | "completed" {
  if (legStatuses.every(isLegDone)) return "completed";
  if (legStatuses.some((status) => status === "completed")) return "partially_completed";
  return "processing";
}

/** Whether a withdrawal in `status` has stopped moving (no leg will change it again). */
export const isFinished = (status: string): boolean => status === "completed" || status === "failed";

/**
 * The failure reason of a withdrawal whose leg `legKey` failed: which leg, why, and what came
 * back. The public withdrawal carries no other record of which leg failed (every stopped leg reads
 * `failed`), so `failedLegKeyOf` reads it back from here: keep the two together.
 */
export const legFailureReason = (legKey: string, reason: string, returnedUsd: string): string =>
  `payout leg ${legKey} failed: ${reason}; ${returnedUsd} returned to the wallet`;

/** The leg named by `legFailureReason`, or null when the withdrawal failed otherwise (rejected). */
export function failedLegKeyOf(failureReason: string | null | undefined): string | null {
  return /^payout leg (\S+) failed: /.exec(failureReason ?? "")?.[1] ?? null;
}
