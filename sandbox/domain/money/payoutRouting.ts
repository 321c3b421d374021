import type { DatabaseSync } from "node:sqlite";
import type { YieldSource } from "../../../sdk/contract/index.ts";
import { readPositionMicros } from "../../store/holdingsStore.ts";
import { listTargets } from "../../store/walletStore.ts";
import type { LegSource } from "../../store/withdrawalStore.ts";
import { parseIsoDurationSeconds } from "../quoteEngine.ts";
import { splitByWeights } from "./micros.ts";

/** A position with money in it and how fast it can be redeemed. */
export interface HeldPosition {
  positionKey: string;
  micros: number;
  maxProcessingTime: string;
}

/** One planned payout leg: which positions pay how much, and how long the leg takes. */
export interface LegPlan {
  legKey: string;
  maxProcessingTime: string;
  seconds: number;
  amountMicros: number;
  sources: LegSource[];
}

/** Positions holding money, with the liquidity limit the wallet shows for them (walletView's rule). */
export function heldPositions(
  db: DatabaseSync,
  walletId: string,
  catalog: readonly YieldSource[],
): HeldPosition[] {
  const targets = listTargets(db, walletId);
  return [...readPositionMicros(db, walletId)]
    .filter(([, micros]) => micros > 0)
    .map(([positionKey, micros]) => ({
      positionKey,
      micros,
      maxProcessingTime:
        targets.find((t) => t.positionKey === positionKey)?.maxProcessingTime ??
        catalog.find((e) => e.positionKey === positionKey)?.maxProcessingTime ??
        "PT0H",
    }));
}

const secondsOf = (duration: string) => parseIsoDurationSeconds(duration) ?? 0;

/**
 * Routes a withdrawal through the fastest money first: instantly withdrawable (PT0H) positions
 * pay an `instant` leg; what they cannot cover is redeemed from the next-fastest sources, one leg
 * per liquidity limit. A single redeem leg is keyed `redeem`; when several are needed they are
 * keyed `redeem_<maxProcessingTime>` (for example `redeem_PT24H`, `redeem_PT168H`). Within a leg,
 * positions pay in proportion to what they hold, in exact micros. Returns null when the positions
 * hold less than `amountMicros`.
 */
export function planPayoutLegs(positions: readonly HeldPosition[], amountMicros: number): LegPlan[] | null {
  const groups = new Map<number, HeldPosition[]>();
  for (const position of positions) {
    const seconds = secondsOf(position.maxProcessingTime);
    groups.set(seconds, [...(groups.get(seconds) ?? []), position]);
  }
  const plans: Omit<LegPlan, "legKey">[] = [];
  let remaining = amountMicros;
  for (const seconds of [...groups.keys()].sort((a, b) => a - b)) {
    if (remaining === 0) break;
    const members = groups.get(seconds) ?? [];
    const total = members.reduce((sum, p) => sum + p.micros, 0);
    const take = Math.min(remaining, total);
    if (take === 0) continue;
    const parts = splitByWeights(
      take,
      members.map((p) => p.micros),
    );
    plans.push({
      maxProcessingTime: members[0]?.maxProcessingTime ?? "PT0H",
      seconds,
      amountMicros: take,
      sources: members
        .map((p, index) => ({ positionKey: p.positionKey, micros: parts[index] ?? 0 }))
        .filter((source) => source.micros > 0),
    });
    remaining -= take;
  }
  if (remaining > 0) return null;
  const slowLegs = plans.filter((plan) => plan.seconds > 0).length;
  return plans.map((plan) => ({
    ...plan,
    legKey: plan.seconds === 0 ? "instant" : slowLegs === 1 ? "redeem" : `redeem_${plan.maxProcessingTime}`,
  }));
}
