import { Hono } from "hono";
import { StrategyUpdateRequestSchema } from "../../sdk/contract/index.ts";
import type { SandboxContext } from "../http/context.ts";
import { unknownPositionKeysInRawBody } from "../domain/catalog.ts";
import type { SandboxEnv } from "../http/env.ts";
import { readBody, uuidParam } from "../http/validation.ts";

/** PATCH /:id/strategy (spec 4.7): answers the strategy update (200, replay included). */
export function strategyRoutes(ctx: SandboxContext): Hono<SandboxEnv> {
  const routes = new Hono<SandboxEnv>();
  routes.patch("/:id/strategy", async (c) => {
    const walletId = uuidParam(c, "id");
    const body = await readBody(c, StrategyUpdateRequestSchema, (raw) =>
      unknownPositionKeysInRawBody(raw, ctx.catalog()),
    );
    const { update } = ctx.strategyUpdates.request(c.get("organizationId"), walletId, body);
    return c.json(update);
  });
  return routes;
}
