import {
  WithdrawRequestSchema,
  WithdrawalListSchema,
  WithdrawalSchema,
  type PageQuery,
  type WithdrawRequest,
  type Withdrawal,
  type WithdrawalListItem,
} from "../../contract/index.ts";
import { PagePromise } from "../core/pagination.ts";
import type { RequestOptions } from "../core/requester.ts";
import { ApiResource } from "../core/resource.ts";
import { queryOfPage } from "../internal/queryOfPage.ts";
import { pathSegment } from "../internal/pathSegment.ts";

const withdrawalsOf = (walletId: string) => `/v2/portfolio-wallets/${pathSegment("walletId", walletId)}`;

/** Withdrawals of a wallet (spec 4.8 to 4.10). */
export class Withdrawals extends ApiResource {
  /**
   * Withdraws to an external address (POST /v2/portfolio-wallets/{id}/withdraw). Retried
   * safely thanks to `body.requestId`; may answer `pending_approval` with a `signingActivityId`.
   */
  async create(walletId: string, body: WithdrawRequest, options?: RequestOptions): Promise<Withdrawal> {
    const path = `${withdrawalsOf(walletId)}/withdraw`;
    return this.requester.request({
      method: "POST",
      path,
      body,
      requestSchema: WithdrawRequestSchema,
      schema: WithdrawalSchema,
      options,
    });
  }

  /** Reads one withdrawal with its legs and payouts (GET .../withdrawals/{withdrawalId}). */
  async retrieve(walletId: string, withdrawalId: string, options?: RequestOptions): Promise<Withdrawal> {
    const path = `${withdrawalsOf(walletId)}/withdrawals/${pathSegment("withdrawalId", withdrawalId)}`;
    return this.requester.request({ method: "GET", path, schema: WithdrawalSchema, options });
  }

  /** Lists a wallet's withdrawals, newest first (GET .../withdrawals); default page size 25. */
  list(walletId: string, query?: PageQuery, options?: RequestOptions): PagePromise<WithdrawalListItem> {
    return new PagePromise((cursor) =>
      this.requester.request({
        method: "GET",
        path: `${withdrawalsOf(walletId)}/withdrawals`,
        query: queryOfPage(query, cursor),
        schema: WithdrawalListSchema,
        options,
      }),
    );
  }
}
