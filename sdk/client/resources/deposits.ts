import { DepositListSchema, DepositSchema, type Deposit, type PageQuery } from "../../contract/index.ts";
import { PagePromise } from "../core/pagination.ts";
import type { RequestOptions } from "../core/requester.ts";
import { ApiResource } from "../core/resource.ts";
import { queryOfPage } from "../internal/queryOfPage.ts";
import { pathSegment } from "../internal/pathSegment.ts";

const depositsOf = (walletId: string) =>
  `/v2/portfolio-wallets/${pathSegment("walletId", walletId)}/deposits`;

/** Deposits detected on a wallet's deposit addresses (spec 4.11). */
export class Deposits extends ApiResource {
  /** Reads one deposit with its per-leg statuses (GET .../deposits/{depositId}). */
  async retrieve(walletId: string, depositId: string, options?: RequestOptions): Promise<Deposit> {
    const path = `${depositsOf(walletId)}/${pathSegment("depositId", depositId)}`;
    return this.requester.request({ method: "GET", path, schema: DepositSchema, options });
  }

  /** Lists a wallet's deposits, newest first (GET .../deposits). */
  list(walletId: string, query?: PageQuery, options?: RequestOptions): PagePromise<Deposit> {
    return new PagePromise((cursor) =>
      this.requester.request({
        method: "GET",
        path: depositsOf(walletId),
        query: queryOfPage(query, cursor),
        schema: DepositListSchema,
        options,
      }),
    );
  }
}
