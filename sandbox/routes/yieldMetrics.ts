import type { SandboxContext } from "../http/context.ts";
import { yieldMetrics } from "../domain/money/yieldMetrics.ts";
import { ok } from "../http/operationRoutes.ts";
import type { ServiceRoutes } from "./serviceHandlers.ts";

/** POST /yield (spec 4.12): the body is optional, and none means lifetime, global figures only. */
export function yieldMetricsRoutes(ctx: SandboxContext) {
  return {
    getYieldMetrics: ({ body }, org) => ok(yieldMetrics(ctx.money, org, body ?? {})),
  } satisfies Partial<ServiceRoutes>;
}
