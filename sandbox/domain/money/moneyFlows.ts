import type { ApprovalContinuation } from "../approvals.ts";
import { inTransaction } from "../../store/db.ts";
import { listInvestedWalletIds } from "../../store/holdingsStore.ts";
import { listDueDeposits, nextDepositStepAt } from "../../store/depositStore.ts";
import { listDueLegs, nextLegDueAt } from "../../store/withdrawalStore.ts";
import type { TargetRecord } from "../../store/walletStore.ts";
import { accrueWallet } from "./accrual.ts";
import { advanceDueDeposit } from "./deposits.ts";
import type { MoneyDeps } from "./moneyDeps.ts";
import { rebalanceWallet } from "./rebalance.ts";
import { settleDueLeg, withdrawalContinuation } from "./withdrawals.ts";

/** setTimeout's ceiling (about 24.8 days). */
const MAX_TIMER_MS = 2 ** 31 - 1;

/**
 * Time-driven money work: deposit steps and payout legs fall due on the sandbox clock. Like
 * strategy updates, due work settles on every API request, on every clock advance, and by a
 * timer (so it also happens with nobody reading). Work is done in due order, each item at the
 * time it was due, so a clock jump of a week replays the week in order.
 */
export interface MoneyFlows {
  readonly deps: MoneyDeps;
  /** Settles due deposit steps and payout legs (all organizations), earliest first. */
  settleDue(): void;
  /** settleDue, then accrual of the organization's wallets up to now (before an API request reads them). */
  settle(organizationId: string): void;
  /** Moves a wallet's money onto new targets (strategyUpdates' completion hook). */
  rebalance(
    wallet: { id: string; organizationId: string },
    targets: readonly TargetRecord[],
    at: string,
    updateId: string,
  ): void;
  readonly withdrawalContinuation: ApprovalContinuation;
  close(): void;
}

export function createMoneyFlows(deps: Omit<MoneyDeps, "wake">): MoneyFlows {
  let timer: NodeJS.Timeout | null = null;
  let closed = false;
  const full: MoneyDeps = { ...deps, wake: () => arm() };

  function arm(): void {
    if (closed) return;
    if (timer !== null) clearTimeout(timer);
    timer = null;
    const candidates = [nextDepositStepAt(deps.db), nextLegDueAt(deps.db)].filter(
      (d): d is string => d !== null,
    );
    if (candidates.length === 0) return;
    const due = Math.min(...candidates.map((d) => Date.parse(d)));
    const remaining = Math.min(MAX_TIMER_MS, Math.max(1, due - deps.clock.now().getTime()));
    timer = setTimeout(() => {
      timer = null;
      try {
        settleDue();
      } catch (error) {
        console.error("[sandbox] settling due money work failed", error);
      }
      arm();
    }, remaining);
    timer.unref();
  }

  function settleDue(): void {
    const now = deps.clock.now().toISOString();
    for (;;) {
      const deposit = listDueDeposits(deps.db, now)[0];
      const leg = listDueLegs(deps.db, now)[0];
      if (deposit === undefined && leg === undefined) break;
      const depositFirst =
        deposit !== undefined && (leg === undefined || (deposit.nextStepAt ?? now) <= (leg.dueAt ?? now));
      try {
        if (depositFirst) advanceDueDeposit(full, deposit);
        else if (leg !== undefined) settleDueLeg(full, leg);
      } catch (error) {
        // The item's transaction rolled back, so it is still due: stop rather than spin on it.
        console.error("[sandbox] settling due money work failed", error);
        break;
      }
    }
    arm();
  }

  // A restart picks up what fell due while the sandbox was down.
  settleDue();

  return {
    deps: full,
    settleDue,
    settle(organizationId) {
      settleDue();
      const now = deps.clock.now().toISOString();
      // Wallets with nothing invested are skipped: every path that puts money into a position
      // settles the wallet's accrual first, so their next accrual starts from that moment.
      inTransaction(deps.db, () => {
        for (const id of listInvestedWalletIds(deps.db, organizationId)) {
          accrueWallet(deps.db, { id, organizationId }, now);
        }
      });
    },
    rebalance: (wallet, targets, at, updateId) => rebalanceWallet(full, wallet, targets, at, updateId),
    withdrawalContinuation: withdrawalContinuation(full),
    close() {
      closed = true;
      if (timer !== null) clearTimeout(timer);
    },
  };
}
