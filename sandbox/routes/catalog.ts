import type { SandboxContext } from "../http/context.ts";
import { ok } from "../http/operationRoutes.ts";
import type { ServiceRoutes } from "./serviceHandlers.ts";

/** GET /strategies (spec 4.3) and GET /yield-sources (spec 4.2, shape in docs/spec-gaps.md). */
export function catalogRoutes(ctx: SandboxContext) {
  return {
    // The strategies answer is the catalog entry of spec 2.5, without the display name.
    // Each as the caller's organization sees it (its own rates, where it has them).
    listStrategies: (_input, org) =>
      ok({ strategies: ctx.catalog(org).map(({ displayName: _displayName, ...entry }) => entry) }),
    listYieldSources: (_input, org) => ok({ yieldSources: ctx.catalog(org) }),
  } satisfies Partial<ServiceRoutes>;
}
