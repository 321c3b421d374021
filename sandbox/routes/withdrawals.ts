import { Hono } from "hono";
import { WithdrawRequestSchema } from "../../sdk/contract/index.ts";
import type { SandboxContext } from "../http/context.ts";
import { destinationProblems } from "../domain/money/destinationAddress.ts";
import { getWithdrawal, listWithdrawalPage, requestWithdrawal } from "../domain/money/withdrawals.ts";
import type { SandboxEnv } from "../http/env.ts";
import { parsePageQuery, readBody, uuidParam } from "../http/validation.ts";

/** POST /:id/withdraw (spec 4.8; 201, replay 200), GET /:id/withdrawals (4.9), GET /:id/withdrawals/:withdrawalId (4.10). */
export function withdrawalRoutes(ctx: SandboxContext): Hono<SandboxEnv> {
  const routes = new Hono<SandboxEnv>();
  routes.post("/:id/withdraw", async (c) => {
    const walletId = uuidParam(c, "id");
    const body = await readBody(c, WithdrawRequestSchema, destinationProblems);
    const { withdrawal, replayed } = requestWithdrawal(ctx.money, c.get("organizationId"), walletId, body);
    return c.json(withdrawal, replayed ? 200 : 201);
  });
  routes.get("/:id/withdrawals", (c) =>
    c.json(listWithdrawalPage(ctx.money, c.get("organizationId"), uuidParam(c, "id"), parsePageQuery(c))),
  );
  routes.get("/:id/withdrawals/:withdrawalId", (c) =>
    c.json(
      getWithdrawal(ctx.money, c.get("organizationId"), uuidParam(c, "id"), uuidParam(c, "withdrawalId")),
    ),
  );
  return routes;
}
