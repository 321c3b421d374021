import {
  StrategiesResponseSchema,
  YieldSourcesResponseSchema,
  type StrategiesResponse,
  type YieldSourcesResponse,
} from "../../contract/index.ts";
import type { RequestOptions } from "../core/requester.ts";
import { ApiResource } from "../core/resource.ts";

/** The yield-source catalog (spec 4.2, 4.3): where valid positionKeys come from. */
export class Catalog extends ApiResource {
  /** Strategy catalog with liquidity limits and current rates (GET /v2/portfolio-wallets/strategies). */
  async listStrategies(options?: RequestOptions): Promise<StrategiesResponse> {
    return this.requester.request({
      method: "GET",
      path: "/v2/portfolio-wallets/strategies",
      schema: StrategiesResponseSchema,
      options,
    });
  }

  /** Yield sources with display names (GET /v2/portfolio-wallets/yield-sources). */
  async listYieldSources(options?: RequestOptions): Promise<YieldSourcesResponse> {
    return this.requester.request({
      method: "GET",
      path: "/v2/portfolio-wallets/yield-sources",
      schema: YieldSourcesResponseSchema,
      options,
    });
  }
}
