import { liquidityDelayMs } from "../../../sdk/nodejs/contract/index.ts";
import type { LegSource } from "../../store/withdrawalStore.ts";
import { minMicros, splitByWeights, sumMicros } from "./micros.ts";

/** A position with money in it and how fast it can be redeemed. */
export interface HeldPosition {
  positionKey: string;
  micros: bigint;
  maxProcessingTime: string;
}

/** One planned payout leg: which positions pay how much, and how long the leg takes. */
export interface LegPlan {
  legKey: string;
  maxProcessingTime: string;
  /** How long the leg takes to pay out, in sandbox-clock ms. */
  delayMs: number;
  amountMicros: bigint;
  sources: LegSource[];
}

/**
 * How long a leg drawn from positions whose maxProcessingTime does not parse takes: such money is
 * never counted as liquid (sdk/nodejs/contract/duration.ts), so it is paid last, after 30 days.
 */
export const UNKNOWN_LIQUIDITY_PAYOUT_DELAY_MS = 30 * 24 * 60 * 60 * 1000;

/**
 * Routes a withdrawal through the fastest money first: instantly withdrawable (PT0H) positions
 * pay an `instant` leg; what they cannot cover is redeemed from the next-fastest sources, one leg
 * per liquidity limit. A single redeem leg is keyed `redeem`; when several are needed they are
 * keyed `redeem_<maxProcessingTime>` (for example `redeem_PT24H`, `redeem_PT168H`). Within a leg,
 * positions pay in proportion to what they hold, in exact micros. Positions whose limit does not
 * parse pay last (UNKNOWN_LIQUIDITY_PAYOUT_DELAY_MS). Returns null when the positions hold less
 * than `amountMicros`. Pure: the same positions and amount always give the same plan.
 */
export function planPayoutLegs(positions: readonly HeldPosition[], amountMicros: bigint): LegPlan[] | null {
  const groups = new Map<number, HeldPosition[]>();
  for (const position of positions) {
    const delay = liquidityDelayMs(position.maxProcessingTime);
    groups.set(delay, [...(groups.get(delay) ?? []), position]);
  }
  const plans: Omit<LegPlan, "legKey">[] = [];
  let remaining = amountMicros;
  for (const delay of [...groups.keys()].sort((a, b) => a - b)) {
    if (remaining === 0n) break;
    const members = groups.get(delay) ?? [];
    const take = minMicros(remaining, sumMicros(members.map((p) => p.micros)));
    if (take === 0n) continue;
    const parts = splitByWeights(
      take,
      members.map((p) => p.micros),
    );
    plans.push({
      maxProcessingTime: members[0]?.maxProcessingTime ?? "PT0H",
      delayMs: Number.isFinite(delay) ? delay : UNKNOWN_LIQUIDITY_PAYOUT_DELAY_MS,
      amountMicros: take,
      sources: members
        .map((p, index) => ({ positionKey: p.positionKey, micros: parts[index] ?? 0n }))
        .filter((source) => source.micros > 0n),
    });
    remaining -= take;
  }
  if (remaining > 0n) return null;
  const slowLegs = plans.filter((plan) => plan.delayMs > 0).length;
  return plans.map((plan) => ({
    ...plan,
    legKey: plan.delayMs === 0 ? "instant" : slowLegs === 1 ? "redeem" : `redeem_${plan.maxProcessingTime}`,
  }));
}
