import { SERVICE_OPERATIONS_BY_ID, type RequestBodyOf, type SuccessBodyOf } from "../../contract/index.ts";
import type { RequestOptions } from "../core/requester.ts";
import { ApiResource } from "../core/resource.ts";

const { quotePortfolioWallet } = SERVICE_OPERATIONS_BY_ID;
type Create = typeof quotePortfolioWallet;

/** Allocation quotes (spec 4.1). */
export class Quotes extends ApiResource {
  /**
   * Returns Pareto-optimal allocations for the constraints (POST /v2/portfolio-wallets/quote);
   * always 200, check `constraintsSatisfied` on each option. It changes nothing, so it is
   * retried like a GET.
   */
  async create(body: RequestBodyOf<Create> = {}, options?: RequestOptions): Promise<SuccessBodyOf<Create>> {
    return this.requester.send(quotePortfolioWallet, { body, options });
  }
}
