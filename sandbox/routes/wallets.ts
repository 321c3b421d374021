import type { SandboxContext } from "../http/context.ts";
import { unknownPositionKeysInRawBody } from "../domain/catalog.ts";
// Which keys exist is the same in every organization's view of the catalog (only rates differ).
import { listCatalog } from "../store/catalogStore.ts";
import { createWallet, getWallet, listWalletPage } from "../domain/wallets.ts";
import { pageRequestOf } from "../http/validation.ts";
import { created, ok } from "../http/operationRoutes.ts";
import type { ServiceRoutes } from "./serviceHandlers.ts";

/** Create (spec 4.4; a replay answers 200), list (4.5) and read (4.6) wallets. */
export function walletRoutes(ctx: SandboxContext) {
  const deps = { db: ctx.db, clocks: ctx.clocks, catalog: ctx.catalog };
  return {
    createPortfolioWallet: {
      bodyChecks: (raw) => unknownPositionKeysInRawBody(raw, listCatalog(ctx.db)),
      handle: ({ body }, org) => {
        const { wallet, replayed } = createWallet(deps, org, body);
        return created(wallet, replayed);
      },
    },
    listPortfolioWallets: ({ query }, org) => ok(listWalletPage(deps, org, pageRequestOf(query))),
    getPortfolioWallet: ({ path }, org) => ok(getWallet(deps, org, path.id)),
  } satisfies Partial<ServiceRoutes>;
}
