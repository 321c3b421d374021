import type { MiddlewareHandler } from "hono";
import type { SandboxContext } from "./context.ts";
import type { SandboxEnv } from "./env.ts";

/**
 * Holds the request while a snapshot is being restored, and counts it in flight until it has
 * answered, so a restore starts only when no handler is between two of its steps
 * (domain/snapshots.ts RequestGate).
 */
export function requestGateMiddleware(ctx: SandboxContext): MiddlewareHandler<SandboxEnv> {
  return async (_c, next) => {
    await ctx.requestGate.enter();
    try {
      await next();
    } finally {
      ctx.requestGate.leave();
    }
  };
}
