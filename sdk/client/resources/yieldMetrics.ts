import {
  YieldMetricsRequestSchema,
  YieldMetricsSchema,
  type YieldMetrics,
  type YieldMetricsRequest,
} from "../../contract/index.ts";
import type { RequestOptions } from "../core/requester.ts";
import { ApiResource } from "../core/resource.ts";

/** Yield metrics (spec 4.12). */
export class YieldMetricsResource extends ApiResource {
  /**
   * Yield generated, withdrawn and accrued over a period (POST /v2/portfolio-wallets/yield).
   * Omit the period for lifetime figures; omit `portfolioWalletIds` for global figures only.
   * It changes nothing, so it is retried like a GET.
   */
  async retrieve(body: YieldMetricsRequest = {}, options?: RequestOptions): Promise<YieldMetrics> {
    return this.requester.request({
      method: "POST",
      path: "/v2/portfolio-wallets/yield",
      body,
      requestSchema: YieldMetricsRequestSchema,
      readOnly: true,
      schema: YieldMetricsSchema,
      options,
    });
  }
}
