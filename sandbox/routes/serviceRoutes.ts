import type { SERVICE_OPERATIONS_BY_ID } from "../../sdk/nodejs/contract/index.ts";
import type { SandboxContext } from "../http/context.ts";
import type { OperationRoutes } from "../http/operationRoutes.ts";
import { catalogRoutes } from "./catalog.ts";
import { depositRoutes } from "./deposits.ts";
import { quoteRoutes } from "./quotes.ts";
import { strategyRoutes } from "./strategy.ts";
import { walletRoutes } from "./wallets.ts";
import { webhookRoutes } from "./webhooks.ts";
import { withdrawalRoutes } from "./withdrawals.ts";
import { yieldMetricsRoutes } from "./yieldMetrics.ts";

/** What the sandbox does for each operation of the service's table, by operationId. */
export type ServiceRoutes = OperationRoutes<typeof SERVICE_OPERATIONS_BY_ID>;

/** Every operation of the service's table with its handler: an operation left out does not compile. */
export function serviceRoutes(ctx: SandboxContext): ServiceRoutes {
  return {
    ...catalogRoutes(ctx),
    ...quoteRoutes(ctx),
    ...yieldMetricsRoutes(ctx),
    ...walletRoutes(ctx),
    ...strategyRoutes(ctx),
    ...depositRoutes(ctx),
    ...withdrawalRoutes(ctx),
    ...webhookRoutes(ctx),
  };
}
