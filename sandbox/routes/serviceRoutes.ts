import type { SandboxContext } from "../http/context.ts";
import { catalogRoutes } from "./catalog.ts";
import { depositRoutes } from "./deposits.ts";
import { quoteRoutes } from "./quotes.ts";
import { strategyRoutes } from "./strategy.ts";
import { walletRoutes } from "./wallets.ts";
import { webhookRoutes } from "./webhooks.ts";
import { withdrawalRoutes } from "./withdrawals.ts";
import { yieldMetricsRoutes } from "./yieldMetrics.ts";
import type { ServiceRoutes } from "./serviceHandlers.ts";

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
