import type { SandboxContext } from "../http/context.ts";
import { getSigningActivity, resolveSigningActivity } from "../domain/approvals.ts";
import { clockAdvanceProblem } from "../clock.ts";
import { NotFoundError, ValidationError } from "../domain/errors.ts";
import { requireSandboxWideAdmin } from "../http/identityMiddleware.ts";
import { ok } from "../http/operationRoutes.ts";
import { changeRate } from "../domain/rateChanges.ts";
import { defaultBurst } from "../domain/rateLimits.ts";
import { getPolicy, setPolicy } from "../store/policyStore.ts";
import { findWallet } from "../store/walletStore.ts";
import type { AdminRoutes } from "./adminHandlers.ts";

/**
 * The sandbox-only admin API (`/_sandbox/...`), documented in docs/sandbox.md: the policy, rates,
 * clock, faults, request counts, rate limit and signing activities, by operationId of the admin
 * table (adminOperations.ts). Same bearer tokens as the API; calls about organization data act on
 * the caller's organization only. The catalog and the clock are shared by every organization of
 * the sandbox.
 */
export function generalAdminRoutes(ctx: SandboxContext) {
  const clockView = (organizationId: string, scope?: "organization" | "sandbox") => {
    const sharedOffsetMs = ctx.clocks.shared.offsetMs();
    const leadMs = ctx.clocks.leadMs(organizationId);
    return {
      now: ctx.clocks.now(organizationId).toISOString(),
      offsetMs: sharedOffsetMs + leadMs,
      organizationLeadMs: leadMs,
      sharedNow: ctx.clocks.shared.now().toISOString(),
      ...(scope === undefined ? {} : { scope }),
    };
  };
  const now = (organizationId: string) => ctx.clocks.now(organizationId).toISOString();
  // The caller's organization's emulated rate limit (docs/sandbox.md "Rate limit").
  const rateLimitView = (organizationId: string) =>
    ctx.rateLimiter.limitOf(organizationId) ?? { requestsPerSecond: null };

  return {
    sandboxGetAdminScope: (_input, org, c) =>
      ok({ organizationId: org, scope: (c.get("adminScope") ?? { kind: "sandbox" }).kind }),

    sandboxGetPolicy: (_input, org) => ok(getPolicy(ctx.db, org)),
    sandboxSetPolicy: ({ body }, org) => {
      const policy = { ...getPolicy(ctx.db, org), ...body };
      setPolicy(ctx.db, org, policy, now(org));
      return ok(policy);
    },

    // The caller's organization's view of the catalog by default; `scope: "sandbox"` the shared
    // catalog, and so every organization's (docs/sandbox.md "Rates per organization").
    sandboxSetRate: ({ path, body: { currentRateBps, scope } }, org, c) => {
      if (scope === "sandbox") requireSandboxWideAdmin(c, "a rate change of every organization's catalog");
      const entry = changeRate(ctx, {
        organizationId: org,
        positionKey: path.positionKey,
        rateBps: currentRateBps,
        scope,
      });
      return ok({ ...entry, scope });
    },

    sandboxGetClock: (_input, org) => ok(clockView(org)),
    // The caller's organization's clock by default; `scope: "sandbox"` moves the shared clock, and
    // so every organization's (docs/sandbox.md "Time").
    sandboxAdvanceClock: ({ body }, org, c) => {
      if (body.scope === "sandbox") requireSandboxWideAdmin(c, "moving every organization's clock");
      const ms = (body.ms ?? 0) + Math.round((body.seconds ?? 0) * 1000);
      // Moving every clock must not take the organization furthest ahead past the last instant.
      const furthestLeadMs = Math.max(0, ...ctx.clocks.leads().values());
      const fromMs =
        body.scope === "sandbox"
          ? ctx.clocks.shared.now().getTime() + furthestLeadMs
          : ctx.clocks.now(org).getTime();
      const problem = clockAdvanceProblem(fromMs, ms);
      if (problem !== null) {
        throw new ValidationError([{ field: body.ms === undefined ? "seconds" : "ms", reason: problem }]);
      }
      if (body.scope === "sandbox") ctx.clocks.shared.advance(ms);
      else ctx.clocks.advance(org, ms);
      ctx.dueWork.settleDue(body.scope === "sandbox" ? undefined : org);
      return ok(clockView(org, body.scope));
    },

    sandboxListFaults: (_input, org) =>
      ok({ faults: ctx.faults.listHttpFaults(org), planned: ctx.faults.listPlannedFailures(org) }),
    sandboxAddFault: ({ body }, org) => ({ status: 201, body: ctx.faults.addHttpFault(org, body) }),
    sandboxFailNextStrategyUpdate: ({ body }, org) => {
      if (findWallet(ctx.db, org, body.walletId) === null)
        throw new NotFoundError(`portfolio wallet ${body.walletId}`);
      return { status: 201, body: ctx.faults.planStrategyFailure(org, body.walletId, body.reason) };
    },
    sandboxClearFaults: (_input, org) => {
      ctx.faults.clear(org);
      return { status: 204 };
    },
    sandboxDisarmFault: ({ path }, org) => {
      if (!ctx.faults.disarm(org, path.id)) throw new NotFoundError(`fault ${path.id}`);
      return { status: 204 };
    },

    sandboxGetRequestCounts: (_input, org) =>
      ok({
        counts: ctx.requestCounter.snapshot(org),
        inFlight: ctx.requestCounter.inFlight(org),
        rateLimited: ctx.requestCounter.rateLimited(org),
      }),
    sandboxResetRequestCounts: (_input, org) => {
      ctx.requestCounter.reset(org);
      return { status: 204 };
    },

    sandboxGetRateLimit: (_input, org) => ok(rateLimitView(org)),
    sandboxSetRateLimit: ({ body: { requestsPerSecond, burst } }, org) => {
      ctx.rateLimiter.set(
        org,
        requestsPerSecond === null
          ? null
          : { requestsPerSecond, burst: burst ?? defaultBurst(requestsPerSecond) },
      );
      return ok(rateLimitView(org));
    },

    sandboxGetSigningActivity: ({ path }, org) => ok(getSigningActivity(ctx.approvals, org, path.activityId)),
    sandboxApproveSigningActivity: ({ path }, org) =>
      ok(
        resolveSigningActivity(ctx.approvals, {
          organizationId: org,
          activityId: path.activityId,
          decision: "approved",
        }),
      ),
    sandboxRejectSigningActivity: ({ path, body }, org) =>
      ok(
        resolveSigningActivity(ctx.approvals, {
          organizationId: org,
          activityId: path.activityId,
          decision: "rejected",
          ...(body?.reason === undefined ? {} : { reason: body.reason }),
        }),
      ),

    // A plain look at the stored state: unlike API reads it does not settle due work, so tests can
    // tell the rebalance timer apart from lazy settling.
    sandboxGetStrategyUpdate: ({ path }, org) => ok(ctx.strategyUpdates.get(org, path.updateId)),
  } satisfies Partial<AdminRoutes>;
}
