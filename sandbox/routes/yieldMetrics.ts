import { Hono } from "hono";
import { YieldMetricsRequestSchema } from "../../sdk/contract/index.ts";
import type { SandboxContext } from "../http/context.ts";
import { yieldMetrics } from "../domain/money/yieldMetrics.ts";
import type { SandboxEnv } from "../http/env.ts";
import { readBody } from "../http/validation.ts";

/** POST /yield (spec 4.12): an empty body is allowed and means lifetime, global figures only. */
export function yieldMetricsRoutes(ctx: SandboxContext): Hono<SandboxEnv> {
  const routes = new Hono<SandboxEnv>();
  routes.post("/yield", async (c) => {
    const hasBody =
      (c.req.header("content-length") ?? "0") !== "0" || c.req.header("transfer-encoding") !== undefined;
    const body = hasBody ? await readBody(c, YieldMetricsRequestSchema) : {};
    return c.json(yieldMetrics(ctx.money, c.get("organizationId"), body));
  });
  return routes;
}
