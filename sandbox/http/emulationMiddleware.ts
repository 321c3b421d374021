import { setTimeout as sleep } from "node:timers/promises";
import type { MiddlewareHandler } from "hono";
import { matchedRoutes } from "hono/route";
import {
  countWhileInFlight,
  injectedFaultOf,
  rateLimitRefusal,
  turnOf,
  type ServiceRefusal,
} from "../domain/serviceEmulation.ts";
import type { SandboxContext } from "./context.ts";
import type { SandboxEnv } from "./env.ts";
import { HttpError } from "./errors.ts";
import { isSandboxOwnRequest } from "./ownRequests.ts";

/**
 * The service's emulation (domain/serviceEmulation.ts) on the HTTP side: each middleware reads
 * what the domain needs from the request, and turns what it says into an answer. The sandbox's
 * own requests (ownRequests.ts) are never counted, limited or faulted.
 */

/** The service's answer in place of handling the request, as the HTTP layer's error. */
const refusalError = (refusal: ServiceRefusal) =>
  new HttpError(refusal.status, refusal.code, refusal.message, {
    headers:
      refusal.retryAfterSeconds === undefined ? {} : { "Retry-After": String(refusal.retryAfterSeconds) },
  });

/**
 * Counts the request under its method and route pattern. The pattern is the first matched
 * non-middleware route, known before the handler runs, so faulted requests are counted too.
 */
export function requestCounterMiddleware(ctx: SandboxContext): MiddlewareHandler<SandboxEnv> {
  return async (c, next) => {
    if (isSandboxOwnRequest(c)) return next();
    const route = matchedRoutes(c).find((r) => r.method !== "ALL");
    const operation = `${c.req.method} ${route?.path ?? c.req.path}`;
    await countWhileInFlight(ctx.requestCounter, c.get("organizationId"), operation, next);
  };
}

/**
 * The service's rate limit, emulated (domain/rateLimits.ts): after the request is counted, so a
 * refused request shows in the counts as the service would have seen it, and before faults and
 * handlers, so nothing of it is applied. Admin and console requests are never limited.
 */
export function rateLimitMiddleware(ctx: SandboxContext): MiddlewareHandler<SandboxEnv> {
  return async (c, next) => {
    if (isSandboxOwnRequest(c)) return next();
    const refusal = rateLimitRefusal(ctx, c.get("organizationId"), Date.now());
    if (refusal === null) return next();
    throw refusalError(refusal);
  };
}

/** Applies the first registered fault matching the request (domain/faults.ts). */
export function faultMiddleware(ctx: SandboxContext): MiddlewareHandler<SandboxEnv> {
  return async (c, next) => {
    if (isSandboxOwnRequest(c)) return next();
    const fault = injectedFaultOf(ctx, c.get("organizationId"), c.req.method, c.req.path);
    if (fault === null) return next();
    switch (fault.kind) {
      case "refuse":
        throw refusalError(fault.refusal);
      case "delay":
        await sleep(fault.delayMs);
        return next();
      case "drop":
        // Applied, then no answer: the connection closes under the client.
        await next();
        c.env.incoming.socket.destroy();
        return;
    }
  };
}

/**
 * Waits for the request's turn among the organizations' (domain/fairTurns.ts): in a busy turn of
 * the loop an organization starts a few requests, and the rest of its requests wait for later
 * turns instead of lengthening every other organization's wait. A full queue is refused.
 */
export function fairTurnsMiddleware(ctx: SandboxContext): MiddlewareHandler<SandboxEnv> {
  return async (c, next) => {
    const turn = turnOf(ctx, c.get("organizationId"));
    if (turn === null) return next();
    if ("status" in turn) throw refusalError(turn);
    await turn;
    return next();
  };
}

/**
 * Moves time-driven work that has fallen due (rebalances, deposit steps, payout legs) forward
 * before any API request reads state, so a request sees what the clock says has happened. Only
 * due items are touched (the scheduler finds them by index), and a request of an organization with
 * nothing due touches nothing (it knows each organization's next due time); accrual needs nothing here: reads
 * compute it (sandbox/domain/money/accrual.ts).
 */
export function settleDueWorkMiddleware(ctx: SandboxContext): MiddlewareHandler<SandboxEnv> {
  return async (c, next) => {
    // The request reads only its organization's state: only that organization's work is settled.
    ctx.dueWork.settleIfDue(c.get("organizationId"));
    await next();
  };
}
