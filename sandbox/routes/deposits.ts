import { Hono } from "hono";
import type { SandboxContext } from "../http/context.ts";
import { getDeposit, listDepositPage } from "../domain/money/deposits.ts";
import type { SandboxEnv } from "../http/env.ts";
import { parsePageQuery, uuidParam } from "../http/validation.ts";

/** GET /:id/deposits and GET /:id/deposits/:depositId (spec 4.11; shapes in sdk/contract/deposit.ts). */
export function depositRoutes(ctx: SandboxContext): Hono<SandboxEnv> {
  const routes = new Hono<SandboxEnv>();
  routes.get("/:id/deposits", (c) =>
    c.json(listDepositPage(ctx.money, c.get("organizationId"), uuidParam(c, "id"), parsePageQuery(c))),
  );
  routes.get("/:id/deposits/:depositId", (c) =>
    c.json(getDeposit(ctx.money, c.get("organizationId"), uuidParam(c, "id"), uuidParam(c, "depositId"))),
  );
  return routes;
}
