import {
  SERVICE_OPERATIONS_BY_ID,
  type ListItemOf,
  type PageQuery,
  type SuccessBodyOf,
} from "../../contract/index.ts";
import { PagePromise } from "../core/pagination.ts";
import type { RequestOptions } from "../core/requester.ts";
import { ApiResource } from "../core/resource.ts";
import { queryOfPage } from "../internal/queryOfPage.ts";
import { pathSegment } from "../internal/pathSegment.ts";

const { getDeposit, listDeposits } = SERVICE_OPERATIONS_BY_ID;
type Retrieve = typeof getDeposit;
type List = typeof listDeposits;

/** Deposits detected on a wallet's deposit addresses (spec 4.11). */
export class Deposits extends ApiResource {
  /** Reads one deposit with its per-leg statuses (GET .../deposits/{depositId}). */
  async retrieve(
    walletId: string,
    depositId: string,
    options?: RequestOptions,
  ): Promise<SuccessBodyOf<Retrieve>> {
    const path = { id: pathSegment("walletId", walletId), depositId: pathSegment("depositId", depositId) };
    return this.requester.send(getDeposit, { path, options });
  }

  /** Lists a wallet's deposits, newest first (GET .../deposits). */
  list(walletId: string, query?: PageQuery, options?: RequestOptions): PagePromise<ListItemOf<List>> {
    const path = { id: pathSegment("walletId", walletId) };
    return new PagePromise((cursor) =>
      this.requester.send(listDeposits, { path, query: queryOfPage(query, cursor), options }),
    );
  }
}
