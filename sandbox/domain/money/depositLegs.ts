import { microsToUsd, type Deposit, type Page } from "../../../sdk/nodejs/contract/index.ts";
import type { PageRequest } from "../pagination.ts";
import { listDepositAllocations } from "../../store/ledgerStore.ts";
import { listDepositPage } from "./deposits.ts";
import type { MoneyDeps } from "./moneyDeps.ts";

/**
 * A deposit leg with the money it routed to its position, which the deposit (spec 2.7) does not
 * carry: `amount` is what the ledger allocated once the deposit completed (0 for a skipped leg,
 * whose share rounded to nothing), null while the deposit is still processing.
 */
export interface DepositLegAmount {
  legKey: string;
  status: string;
  amount: number | null;
}

/** A deposit as `GET .../deposits/{id}` answers it, with each leg's amount. */
export type DepositWithLegs = Deposit & { legs: DepositLegAmount[] };

/**
 * A page of a wallet's deposits, as the public list, each with its legs' amounts read from the
 * ledger (one index range per completed deposit, at its completion time). The amounts of a
 * completed deposit's legs sum to its amount: the split is exact in micros.
 */
export function listDepositsWithLegs(
  deps: MoneyDeps,
  organizationId: string,
  walletId: string,
  page: PageRequest,
): Page<DepositWithLegs> {
  const deposits = listDepositPage(deps, organizationId, walletId, page);
  return { ...deposits, data: deposits.data.map((deposit) => withLegAmounts(deps, walletId, deposit)) };
}

/** One deposit with each leg's amount, read from the ledger once the deposit completed. */
export function withLegAmounts(deps: MoneyDeps, walletId: string, deposit: Deposit): DepositWithLegs {
  const allocated = !deposit.completedAt
    ? null
    : new Map(
        listDepositAllocations(deps.db, walletId, deposit.id, deposit.completedAt).map((entry) => [
          entry.positionKey,
          entry.amountMicros,
        ]),
      );
  return {
    ...deposit,
    legs: Object.entries(deposit.legStatuses).map(([legKey, status]) => ({
      legKey,
      status: String(status),
      amount: allocated === null ? null : microsToUsd(allocated.get(legKey) ?? 0n),
    })),
  };
}
