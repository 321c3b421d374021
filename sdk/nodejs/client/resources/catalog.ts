import { SERVICE_OPERATIONS_BY_ID, type SuccessBodyOf } from "../../contract/index.ts";
import type { RequestOptions } from "../core/requester.ts";
import { ApiResource } from "../core/resource.ts";

const { listStrategies, listYieldSources } = SERVICE_OPERATIONS_BY_ID;
type ListStrategies = typeof listStrategies;
type ListYieldSources = typeof listYieldSources;

/** The yield-source catalog (spec 4.2, 4.3): where valid positionKeys come from. */
export class Catalog extends ApiResource {
  /** Strategy catalog with liquidity limits and current rates (GET /v2/portfolio-wallets/strategies). */
  async listStrategies(options?: RequestOptions): Promise<SuccessBodyOf<ListStrategies>> {
    return this.requester.send(listStrategies, { options });
  }

  /** Yield sources with display names (GET /v2/portfolio-wallets/yield-sources). */
  async listYieldSources(options?: RequestOptions): Promise<SuccessBodyOf<ListYieldSources>> {
    return this.requester.send(listYieldSources, { options });
  }
}
