import type { SandboxContext } from "../http/context.ts";
import { unknownPositionKeysInRawBody } from "../domain/catalog.ts";
import { createWallet, getWallet, listWalletPage } from "../domain/wallets.ts";
import { pageRequestOf } from "../http/validation.ts";
import { created, ok } from "../http/operationRoutes.ts";
import type { ServiceRoutes } from "./serviceRoutes.ts";

/** Create (spec 4.4; a replay answers 200), list (4.5) and read (4.6) wallets. */
export function walletRoutes(ctx: SandboxContext) {
  const deps = { db: ctx.db, clock: ctx.clock, catalog: ctx.catalog };
  return {
    createPortfolioWallet: {
      bodyChecks: (raw) => unknownPositionKeysInRawBody(raw, ctx.catalog()),
      handle: ({ body }, organizationId) => {
        const { wallet, replayed } = createWallet(deps, organizationId, body);
        return created(wallet, replayed);
      },
    },
    listPortfolioWallets: {
      handle: ({ query }, organizationId) => ok(listWalletPage(deps, organizationId, pageRequestOf(query))),
    },
    getPortfolioWallet: {
      handle: ({ path }, organizationId) => ok(getWallet(deps, organizationId, path.id)),
    },
  } satisfies Partial<ServiceRoutes>;
}
