import {
  CreateWalletRequestSchema,
  PortfolioWalletSchema,
  StrategyUpdateRequestSchema,
  StrategyUpdateSchema,
  WalletListSchema,
  type CreateWalletRequest,
  type PageQuery,
  type PortfolioWallet,
  type StrategyUpdate,
  type StrategyUpdateRequest,
} from "../../contract/index.ts";
import { PagePromise } from "../core/pagination.ts";
import type { RequestOptions } from "../core/requester.ts";
import { ApiResource } from "../core/resource.ts";
import { queryOfPage } from "../internal/queryOfPage.ts";
import { pathSegment } from "../internal/pathSegment.ts";

const WALLETS = "/v2/portfolio-wallets";

/** Portfolio wallets (spec 4.4 to 4.7). */
export class Wallets extends ApiResource {
  /**
   * Creates a wallet (POST /v2/portfolio-wallets). Retried safely: a repeat with the same
   * requestId and body answers with the wallet already created.
   */
  async create(body: CreateWalletRequest, options?: RequestOptions): Promise<PortfolioWallet> {
    return this.requester.request({
      method: "POST",
      path: WALLETS,
      body,
      requestSchema: CreateWalletRequestSchema,
      schema: PortfolioWalletSchema,
      options,
    });
  }

  /** Reads one wallet with its balances and positions (GET /v2/portfolio-wallets/{id}). */
  async retrieve(walletId: string, options?: RequestOptions): Promise<PortfolioWallet> {
    const path = `${WALLETS}/${pathSegment("walletId", walletId)}`;
    return this.requester.request({ method: "GET", path, schema: PortfolioWalletSchema, options });
  }

  /**
   * Lists wallets, newest first (GET /v2/portfolio-wallets). `await` for the first page,
   * `for await` for every wallet.
   */
  list(query?: PageQuery, options?: RequestOptions): PagePromise<PortfolioWallet> {
    return new PagePromise((cursor) =>
      this.requester.request({
        method: "GET",
        path: WALLETS,
        query: queryOfPage(query, cursor),
        schema: WalletListSchema,
        options,
      }),
    );
  }

  /**
   * Requests a new target allocation (PATCH /v2/portfolio-wallets/{id}/strategy). The answer is
   * often `pending_approval` with a `signingActivityId` to approve at the signing provider.
   */
  async updateStrategy(
    walletId: string,
    body: StrategyUpdateRequest,
    options?: RequestOptions,
  ): Promise<StrategyUpdate> {
    const path = `${WALLETS}/${pathSegment("walletId", walletId)}/strategy`;
    return this.requester.request({
      method: "PATCH",
      path,
      body,
      requestSchema: StrategyUpdateRequestSchema,
      schema: StrategyUpdateSchema,
      options,
    });
  }
}
