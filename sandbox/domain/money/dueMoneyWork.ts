import { listDueDeposits, nextDepositStepAt } from "../../store/depositStore.ts";
import { listDueLegs, nextLegDueAt } from "../../store/withdrawalStore.ts";
import type { DueWork } from "../dueWorkScheduler.ts";
import { advanceDueDeposit } from "./deposits.ts";
import type { MoneyDeps } from "./moneyDeps.ts";
import { settleDueLeg } from "./withdrawals.ts";

/**
 * Money work that falls due on the sandbox clock: deposit steps and payout legs, for the due-work
 * scheduler. Items run in due order across both kinds, each at the time it was due and in its own
 * transaction, so a clock jump of a week replays the week in order.
 */
export function dueMoneyWork(deps: MoneyDeps): DueWork {
  return {
    name: "money work (deposit steps, payout legs)",
    nextDueAt(organizationId) {
      const candidates = [
        nextDepositStepAt(deps.db, organizationId),
        nextLegDueAt(deps.db, organizationId),
      ].filter((due): due is string => due !== null);
      return candidates.length === 0 ? null : candidates.reduce((a, b) => (a <= b ? a : b));
    },
    settleDue(nowIso, organizationId) {
      for (;;) {
        const deposit = listDueDeposits(deps.db, nowIso, organizationId)[0];
        const leg = listDueLegs(deps.db, nowIso, organizationId)[0];
        if (deposit === undefined && leg === undefined) return;
        const depositFirst =
          deposit !== undefined &&
          (leg === undefined || (deposit.nextStepAt ?? nowIso) <= (leg.dueAt ?? nowIso));
        // A failing item throws out of here with its transaction rolled back (the scheduler logs
        // it), rather than being retried in a loop.
        if (depositFirst) advanceDueDeposit(deps, deposit);
        else if (leg !== undefined) settleDueLeg(deps, leg);
      }
    },
  };
}
