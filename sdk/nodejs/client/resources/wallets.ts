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

const { createPortfolioWallet, getPortfolioWallet, listPortfolioWallets, updatePortfolioWalletStrategy } =
  SERVICE_OPERATIONS_BY_ID;
type Create = typeof createPortfolioWallet;
type Retrieve = typeof getPortfolioWallet;
type List = typeof listPortfolioWallets;
type UpdateStrategy = typeof updatePortfolioWalletStrategy;

/** Portfolio wallets (spec 4.4 to 4.7). */
export class Wallets extends ApiResource {
  /**
   * Creates a wallet (POST /v2/portfolio-wallets). Retried safely: a repeat with the same
   * requestId and body answers with the wallet already created.
   */
  async create(body: RequestBodyOf<Create>, options?: RequestOptions): Promise<SuccessBodyOf<Create>> {
    return this.requester.send(createPortfolioWallet, { body, options });
  }

  /** Reads one wallet with its balances and positions (GET /v2/portfolio-wallets/{id}). */
  async retrieve(walletId: string, options?: RequestOptions): Promise<SuccessBodyOf<Retrieve>> {
    const path = { id: pathSegment("walletId", walletId) };
    return this.requester.send(getPortfolioWallet, { path, options });
  }

  /**
   * Lists wallets, newest first (GET /v2/portfolio-wallets). `await` for the first page,
   * `for await` for every wallet.
   */
  list(query?: PageQuery, options?: RequestOptions): PagePromise<ListItemOf<List>> {
    return new PagePromise((cursor) =>
      this.requester.send(listPortfolioWallets, { query: queryOfPage(query, cursor), options }),
    );
  }

  /**
   * Requests a new target allocation (PATCH /v2/portfolio-wallets/{id}/strategy). The answer is
   * often `pending_approval` with a `signingActivityId` to approve at the signing provider.
   */
  async updateStrategy(
    walletId: string,
    body: RequestBodyOf<UpdateStrategy>,
    options?: RequestOptions,
  ): Promise<SuccessBodyOf<UpdateStrategy>> {
    const path = { id: pathSegment("walletId", walletId) };
    return this.requester.send(updatePortfolioWalletStrategy, { path, body, options });
  }
}
