import { Hono } from "hono";
import { CreateWalletRequestSchema } from "../../sdk/contract/index.ts";
import type { SandboxContext } from "../http/context.ts";
import { unknownPositionKeysInRawBody } from "../domain/catalog.ts";
import { createWallet, getWallet, listWalletPage } from "../domain/wallets.ts";
import type { SandboxEnv } from "../http/env.ts";
import { parsePageQuery, readBody, uuidParam } from "../http/validation.ts";

/** POST / (spec 4.4), GET / (4.5), GET /:id (4.6). */
export function walletRoutes(ctx: SandboxContext): Hono<SandboxEnv> {
  const routes = new Hono<SandboxEnv>();
  const deps = { db: ctx.db, clock: ctx.clock, catalog: ctx.catalog };
  routes.post("/", async (c) => {
    const body = await readBody(c, CreateWalletRequestSchema, (raw) =>
      unknownPositionKeysInRawBody(raw, ctx.catalog()),
    );
    const { wallet, replayed } = createWallet(deps, c.get("organizationId"), body);
    return c.json(wallet, replayed ? 200 : 201);
  });
  routes.get("/", (c) => c.json(listWalletPage(deps, c.get("organizationId"), parsePageQuery(c))));
  routes.get("/:id", (c) => c.json(getWallet(deps, c.get("organizationId"), uuidParam(c, "id"))));
  return routes;
}
