import type { SandboxContext } from "../http/context.ts";
import { unknownPositionKeysInRawBody } from "../domain/catalog.ts";
import { ok } from "../http/operationRoutes.ts";
import type { ServiceRoutes } from "./serviceHandlers.ts";

/** PATCH /:id/strategy (spec 4.7): answers the strategy update (200, replay included). */
export function strategyRoutes(ctx: SandboxContext) {
  return {
    updatePortfolioWalletStrategy: {
      bodyChecks: (raw) => unknownPositionKeysInRawBody(raw, ctx.catalog()),
      handle: ({ path, body }, org) => ok(ctx.strategyUpdates.request(org, path.id, body).update),
    },
  } satisfies Partial<ServiceRoutes>;
}
