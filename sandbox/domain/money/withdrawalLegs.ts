import { isoAfter } from "../../clock.ts";
import type { LegRecord } from "../../store/withdrawalStore.ts";
import { mulDivFloor, splitByWeights } from "./micros.ts";
import type { LegPlan } from "./payoutRouting.ts";

/**
 * Payout legs as records, from a routing plan (payoutRouting.ts). Pure: the lifecycle
 * (withdrawalLifecycle.ts) stores what these return.
 */

/** Legs as planned before processing starts (status `pending`): what the withdrawal would do now. */
export function plannedLegs(withdrawalId: string, plans: readonly LegPlan[], at: string): LegRecord[] {
  return plans.map((plan, index) => ({
    withdrawalId,
    legKey: plan.legKey,
    sortOrder: index,
    amountMicros: plan.amountMicros,
    yieldMicros: 0n,
    maxProcessingTime: plan.maxProcessingTime,
    sources: plan.sources,
    status: "pending",
    dueAt: null,
    plannedFailureReason: null,
    updatedAt: at,
  }));
}

/**
 * The withdrawal's share of the yield its wallet holds, pro rata to its amount: amount × yield
 * held / wallet total, rounded down (never more yield leaves than the wallet earned).
 */
export function withdrawalYieldShare(
  amountMicros: bigint,
  yieldHeldMicros: bigint,
  walletTotalMicros: bigint,
): bigint {
  const yieldHeld =
    yieldHeldMicros < 0n ? 0n : yieldHeldMicros > walletTotalMicros ? walletTotalMicros : yieldHeldMicros;
  return mulDivFloor(amountMicros, yieldHeld, walletTotalMicros);
}

/**
 * Legs as they start processing at `at`: each due after its liquidity limit, carrying its part of
 * the yield share (split by leg amount, exact to the micro), and the planned failure of the leg
 * fault injection picked, if any.
 */
export function startedLegs(
  withdrawalId: string,
  plans: readonly LegPlan[],
  at: string,
  options: { yieldShareMicros: bigint; failure: { legKey: string; reason: string } | null },
): LegRecord[] {
  const legYields = splitByWeights(
    options.yieldShareMicros,
    plans.map((plan) => plan.amountMicros),
  );
  return plannedLegs(withdrawalId, plans, at).map((leg, index) => ({
    ...leg,
    yieldMicros: legYields[index] ?? 0n,
    dueAt: isoAfter(at, plans[index]?.delayMs ?? 0),
    plannedFailureReason: options.failure?.legKey === leg.legKey ? options.failure.reason : null,
  }));
}
