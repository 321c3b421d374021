import {
  SERVICE_OPERATIONS_BY_ID,
  type ListItemOf,
  type PageQuery,
  type RequestBodyOf,
  type SuccessBodyOf,
} from "../../contract/index.ts";
import { PagePromise } from "../core/pagination.ts";
import type { RequestOptions } from "../core/requester.ts";
import { ApiResource } from "../core/resource.ts";
import { queryOfPage } from "../internal/queryOfPage.ts";
import { pathSegment } from "../internal/pathSegment.ts";

const { withdrawFromPortfolioWallet, getWithdrawal, listWithdrawals } = SERVICE_OPERATIONS_BY_ID;
type Create = typeof withdrawFromPortfolioWallet;
type Retrieve = typeof getWithdrawal;
type List = typeof listWithdrawals;

/** Withdrawals of a wallet (spec 4.8 to 4.10). */
export class Withdrawals extends ApiResource {
  /**
   * Withdraws to an external address (POST /v2/portfolio-wallets/{id}/withdraw). Retried
   * safely thanks to `body.requestId`; may answer `pending_approval` with a `signingActivityId`.
   */
  async create(
    walletId: string,
    body: RequestBodyOf<Create>,
    options?: RequestOptions,
  ): Promise<SuccessBodyOf<Create>> {
    const path = { id: pathSegment("walletId", walletId) };
    return this.requester.send(withdrawFromPortfolioWallet, { path, body, options });
  }

  /** Reads one withdrawal with its legs and payouts (GET .../withdrawals/{withdrawalId}). */
  async retrieve(
    walletId: string,
    withdrawalId: string,
    options?: RequestOptions,
  ): Promise<SuccessBodyOf<Retrieve>> {
    const path = {
      id: pathSegment("walletId", walletId),
      withdrawalId: pathSegment("withdrawalId", withdrawalId),
    };
    return this.requester.send(getWithdrawal, { path, options });
  }

  /** Lists a wallet's withdrawals, newest first (GET .../withdrawals); default page size 25. */
  list(walletId: string, query?: PageQuery, options?: RequestOptions): PagePromise<ListItemOf<List>> {
    const path = { id: pathSegment("walletId", walletId) };
    return new PagePromise((cursor) =>
      this.requester.send(listWithdrawals, { path, query: queryOfPage(query, cursor), options }),
    );
  }
}
