import {
  QuoteRequestSchema,
  QuoteResponseSchema,
  type QuoteOption,
  type QuoteRequest,
} from "../../contract/index.ts";
import type { RequestOptions } from "../core/requester.ts";
import { ApiResource } from "../core/resource.ts";

/** Allocation quotes (spec 4.1). */
export class Quotes extends ApiResource {
  /**
   * Returns Pareto-optimal allocations for the constraints (POST /v2/portfolio-wallets/quote);
   * always 200, check `constraintsSatisfied` on each option. It changes nothing, so it is
   * retried like a GET.
   */
  async create(body: QuoteRequest = {}, options?: RequestOptions): Promise<QuoteOption[]> {
    return this.requester.request({
      method: "POST",
      path: "/v2/portfolio-wallets/quote",
      body,
      requestSchema: QuoteRequestSchema,
      readOnly: true,
      schema: QuoteResponseSchema,
      options,
    });
  }
}
