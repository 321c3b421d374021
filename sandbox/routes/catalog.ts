import { Hono } from "hono";
import type { StrategiesResponse, YieldSourcesResponse } from "../../sdk/contract/index.ts";
import type { SandboxContext } from "../http/context.ts";
import type { SandboxEnv } from "../http/env.ts";

/** GET /strategies (spec 4.3) and GET /yield-sources (spec 4.2, shape in docs/spec-gaps.md). */
export function catalogRoutes(ctx: SandboxContext): Hono<SandboxEnv> {
  const routes = new Hono<SandboxEnv>();
  routes.get("/strategies", (c) => {
    // The strategies answer is the catalog entry of spec 2.5, without the display name.
    const strategies = ctx.catalog().map(({ displayName: _displayName, ...entry }) => entry);
    return c.json({ strategies } satisfies StrategiesResponse);
  });
  routes.get("/yield-sources", (c) => c.json({ yieldSources: ctx.catalog() } satisfies YieldSourcesResponse));
  return routes;
}
