import {
  walletStatement,
  type Deposit,
  type Statement,
  type StatementPeriod,
  type Withdrawal,
} from "../../../sdk/nodejs/contract/index.ts";
import { listDeposits } from "../../store/depositStore.ts";
import { findWallet } from "../../store/walletStore.ts";
import { listWithdrawals } from "../../store/withdrawalStore.ts";
import { NotFoundError } from "../errors.ts";
import type { Cursor } from "../pagination.ts";
import { depositView } from "./deposits.ts";
import type { MoneyDeps } from "./moneyDeps.ts";
import { withdrawalView } from "./withdrawals.ts";
import { yieldMetrics } from "./yieldMetrics.ts";

const PAGE = 500;

/** Every row of a newest-first list, page by page (its own index range each time). */
function everyRow<T extends { createdAt: string; id: string }>(
  page: (cursor: Cursor | null, limit: number) => T[],
): T[] {
  const rows: T[] = [];
  let cursor: Cursor | null = null;
  for (;;) {
    const batch = page(cursor, PAGE);
    rows.push(...batch);
    const last = batch.at(-1);
    if (batch.length < PAGE || last === undefined) return rows;
    cursor = { createdAt: last.createdAt, id: last.id };
  }
}

/**
 * A wallet's statement over a period (the console's download), from the same answers the service's
 * API gives a client (its deposits, its withdrawals whole, its yield metrics), computed by the
 * contract's one `walletStatement`: the CLI's statement of the same wallet and period is the same.
 */
export function walletStatementOf(
  deps: MoneyDeps,
  organizationId: string,
  walletId: string,
  period: StatementPeriod,
): Statement {
  const wallet = findWallet(deps.db, organizationId, walletId);
  if (wallet === null) throw new NotFoundError(`portfolio wallet ${walletId}`);
  const deposits: Deposit[] = everyRow((cursor, limit) => listDeposits(deps.db, walletId, cursor, limit)).map(
    depositView,
  );
  const withdrawals: Withdrawal[] = everyRow((cursor, limit) =>
    listWithdrawals(deps.db, walletId, cursor, limit),
  ).map((record) => withdrawalView(deps, record));
  const figuresOf = (request: { periodStartIso?: string; periodEndIso: string }) => {
    const figures = yieldMetrics(deps, organizationId, { ...request, portfolioWalletIds: [walletId] })
      .portfolioWallets[walletId];
    if (figures === undefined) throw new NotFoundError(`portfolio wallet ${walletId}`);
    return figures;
  };
  return walletStatement({
    wallet: { id: walletId, label: wallet.label },
    period,
    deposits,
    withdrawals,
    yieldInPeriod: figuresOf({ periodStartIso: period.from, periodEndIso: period.to }),
    yieldThroughEnd: figuresOf({ periodEndIso: period.to }),
  });
}
