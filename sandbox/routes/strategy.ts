import type { SandboxContext } from "../http/context.ts";
import { unknownPositionKeysInRawBody } from "../domain/catalog.ts";
// Which keys exist is the same in every organization's view of the catalog (only rates differ).
import { listCatalog } from "../store/catalogStore.ts";
import { ok } from "../http/operationRoutes.ts";
import type { ServiceRoutes } from "./serviceHandlers.ts";

/** PATCH /:id/strategy (spec 4.7): answers the strategy update (200, replay included). */
export function strategyRoutes(ctx: SandboxContext) {
  return {
    updatePortfolioWalletStrategy: {
      bodyChecks: (raw) => unknownPositionKeysInRawBody(raw, listCatalog(ctx.db)),
      handle: ({ path, body }, org) => ok(ctx.strategyUpdates.request(org, path.id, body).update),
    },
  } satisfies Partial<ServiceRoutes>;
}
