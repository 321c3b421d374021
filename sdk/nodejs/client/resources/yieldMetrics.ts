import { SERVICE_OPERATIONS_BY_ID, type RequestBodyOf, type SuccessBodyOf } from "../../contract/index.ts";
import type { RequestOptions } from "../core/requester.ts";
import { ApiResource } from "../core/resource.ts";

const { getYieldMetrics } = SERVICE_OPERATIONS_BY_ID;
type Retrieve = typeof getYieldMetrics;

/** Yield metrics (spec 4.12). */
export class YieldMetricsResource extends ApiResource {
  /**
   * Yield generated, withdrawn and accrued over a period (POST /v2/portfolio-wallets/yield).
   * Omit the period for lifetime figures; omit `portfolioWalletIds` for global figures only.
   * It changes nothing, so it is retried like a GET.
   */
  async retrieve(
    body: RequestBodyOf<Retrieve> = {},
    options?: RequestOptions,
  ): Promise<SuccessBodyOf<Retrieve>> {
    return this.requester.send(getYieldMetrics, { body, options });
  }
}
