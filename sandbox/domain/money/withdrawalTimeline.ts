import { microsToUsd, type Page, type Withdrawal } from "../../../sdk/nodejs/contract/index.ts";
import { NotFoundError } from "../errors.ts";
import { pageFrom, type PageRequest } from "../pagination.ts";
import { findWallet } from "../../store/walletStore.ts";
import { listLegs, listWithdrawals, type WithdrawalRecord } from "../../store/withdrawalStore.ts";
import type { MoneyDeps } from "./moneyDeps.ts";
import { withdrawalView } from "./withdrawals.ts";
import { failedLegKeyOf } from "./withdrawalStatus.ts";

const legOutcome = (status: string, namedInFailure: boolean): PayoutLegTimes["outcome"] =>
  status === "skipped" ? "skipped" : status !== "failed" ? null : namedInFailure ? "failed" : "returned";

/**
 * A payout leg with its times on the sandbox clock, which the withdrawal (spec 2.8) does not
 * carry: `updatedAt` is when it last changed (started, paid, failed or skipped), `dueAt` when a
 * processing leg is due to pay out (null otherwise).
 */
export interface PayoutLegTimes {
  legKey: string;
  status: string;
  /**
   * What happened to a leg that did not pay out, which its status alone does not say: `failed` for
   * the leg that failed, `returned` for a leg stopped because another failed (its money went back
   * to the wallet), `skipped` for a leg never needed; null otherwise.
   */
  outcome: "failed" | "returned" | "skipped" | null;
  amount: number;
  positionKeys: string[];
  maxProcessingTime: string;
  dueAt: string | null;
  updatedAt: string;
}

/** A withdrawal as `GET .../withdrawals/{id}` answers it, with its legs' times. */
export type WithdrawalTimeline = Withdrawal & { legTimes: PayoutLegTimes[] };

/**
 * A page of a wallet's withdrawals, newest first, each whole with its legs' times: what a timeline
 * of payout legs needs in one read (the public list carries only the list-item fields). Same
 * cursors as the public list; another organization's wallet is not found.
 */
export function listWithdrawalTimelines(
  deps: MoneyDeps,
  organizationId: string,
  walletId: string,
  page: PageRequest,
): Page<WithdrawalTimeline> {
  if (findWallet(deps.db, organizationId, walletId) === null)
    throw new NotFoundError(`portfolio wallet ${walletId}`);
  const { data, nextCursor } = pageFrom(
    listWithdrawals(deps.db, walletId, page.cursor, page.pageSize + 1),
    page.pageSize,
  );
  return {
    data: data.map((record) => withLegTimes(deps, record)),
    pageSize: page.pageSize,
    nextCursor,
  };
}

/** One withdrawal whole, with its legs' times. */
export function withLegTimes(deps: MoneyDeps, record: WithdrawalRecord): WithdrawalTimeline {
  const failedLegKey = failedLegKeyOf(record.failureReason);
  return {
    ...withdrawalView(deps, record),
    legTimes: listLegs(deps.db, record.id).map((leg) => ({
      legKey: leg.legKey,
      status: leg.status,
      outcome: legOutcome(leg.status, leg.legKey === failedLegKey),
      amount: microsToUsd(leg.amountMicros),
      positionKeys: leg.sources.map((source) => source.positionKey),
      maxProcessingTime: leg.maxProcessingTime,
      dueAt: leg.dueAt,
      updatedAt: leg.updatedAt,
    })),
  };
}
