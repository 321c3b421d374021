import { Hono } from "hono";
import { z } from "zod";
import { UuidSchema } from "../../sdk/nodejs/contract/index.ts";
import type { SandboxContext } from "../http/context.ts";
import { getSigningActivity, resolveSigningActivity } from "../domain/approvals.ts";
import { HttpFaultRequestSchema } from "../domain/faults.ts";
import type { SandboxEnv } from "../http/env.ts";
import { clockAdvanceProblem, MAX_CLOCK_ADVANCE_MS } from "../clock.ts";
import { NotFoundError, ValidationError } from "../domain/errors.ts";
import { requireSandboxWideAdmin } from "../http/middleware.ts";
import { readBody, uuidParam } from "../http/validation.ts";
import { changeRate } from "../domain/rateChanges.ts";
import { defaultBurst } from "../domain/rateLimits.ts";
import { getPolicy, setPolicy } from "../store/policyStore.ts";
import { findWallet } from "../store/walletStore.ts";

const approvals = z
  .number()
  .int("must be a whole number")
  .min(0, "must be 0 (no approval) or more")
  .max(10, "must be at most 10");
export const PolicySchema = z.object({
  strategyUpdateApprovals: approvals.optional(),
  withdrawalApprovals: approvals.optional(),
});
/** What an admin change acts on: the caller's organization (the default), or every organization. */
export const ChangeScopeSchema = z
  .enum(["organization", "sandbox"], {
    error: "must be organization (the caller's organization only) or sandbox (every organization)",
  })
  .default("organization");
export const RateSchema = z.object({
  currentRateBps: z.number().finite().min(0, "must not be negative").max(100_000),
  scope: ChangeScopeSchema,
});
export const AdvanceSchema = z
  .object({
    scope: ChangeScopeSchema,
    ms: z
      .number()
      .int()
      .min(0)
      .max(MAX_CLOCK_ADVANCE_MS, `must be at most ${MAX_CLOCK_ADVANCE_MS} (100 years)`)
      .optional(),
    seconds: z
      .number()
      .min(0)
      .max(MAX_CLOCK_ADVANCE_MS / 1000, `must be at most ${MAX_CLOCK_ADVANCE_MS / 1000} (100 years)`)
      .optional(),
  })
  .refine((b) => b.ms !== undefined || b.seconds !== undefined, "give ms or seconds");
export const RateLimitSchema = z
  .object({
    requestsPerSecond: z
      .number()
      .finite()
      .gt(0, "must be above 0 (null: no limit)")
      .max(100_000, "must be at most 100000")
      .nullable(),
    burst: z.number().int("must be a whole number").min(1).max(100_000).optional(),
  })
  .refine((b) => b.requestsPerSecond !== null || b.burst === undefined, {
    message: "a burst needs a requestsPerSecond",
    path: ["burst"],
  });
export const StrategyFaultSchema = z.object({
  walletId: UuidSchema,
  reason: z.string().min(1).max(500).default("rebalance failed (injected fault)"),
});
export const RejectSchema = z.object({ reason: z.string().min(1).max(500).optional() });

/**
 * The sandbox-only admin API (`/_sandbox/...`), documented in docs/sandbox.md. Same bearer tokens
 * as the API; calls about organization data act on the caller's organization only. The catalog and
 * the clock are shared by every organization of the sandbox.
 */
export function adminRoutes(ctx: SandboxContext): Hono<SandboxEnv> {
  const routes = new Hono<SandboxEnv>();
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

  routes.get("/admin-scope", (c) => {
    const scope = c.get("adminScope") ?? { kind: "sandbox" };
    return c.json({ organizationId: c.get("organizationId"), scope: scope.kind });
  });

  routes.get("/policy", (c) => c.json(getPolicy(ctx.db, c.get("organizationId"))));
  routes.put("/policy", async (c) => {
    const organizationId = c.get("organizationId");
    const change = await readBody(c, PolicySchema);
    const policy = { ...getPolicy(ctx.db, organizationId), ...change };
    setPolicy(ctx.db, organizationId, policy, now(organizationId));
    return c.json(policy);
  });

  // The caller's organization's view of the catalog by default; `scope: "sandbox"` the shared
  // catalog, and so every organization's (docs/sandbox.md "Rates per organization").
  routes.put("/catalog/:positionKey/rate", async (c) => {
    const { currentRateBps, scope } = await readBody(c, RateSchema);
    if (scope === "sandbox") requireSandboxWideAdmin(c, "a rate change of every organization's catalog");
    const entry = changeRate(ctx, {
      organizationId: c.get("organizationId"),
      positionKey: c.req.param("positionKey"),
      rateBps: currentRateBps,
      scope,
    });
    return c.json({ ...entry, scope });
  });

  routes.get("/clock", (c) => c.json(clockView(c.get("organizationId"))));
  // The caller's organization's clock by default; `scope: "sandbox"` moves the shared clock, and
  // so every organization's (docs/sandbox.md "Time").
  routes.post("/clock/advance", async (c) => {
    const organizationId = c.get("organizationId");
    const body = await readBody(c, AdvanceSchema);
    if (body.scope === "sandbox") requireSandboxWideAdmin(c, "moving every organization's clock");
    const ms = (body.ms ?? 0) + Math.round((body.seconds ?? 0) * 1000);
    // Moving every clock must not take the organization furthest ahead past the last instant.
    const furthestLeadMs = Math.max(0, ...ctx.clocks.leads().values());
    const fromMs =
      body.scope === "sandbox"
        ? ctx.clocks.shared.now().getTime() + furthestLeadMs
        : ctx.clocks.now(organizationId).getTime();
    const problem = clockAdvanceProblem(fromMs, ms);
    if (problem !== null) {
      throw new ValidationError([{ field: body.ms === undefined ? "seconds" : "ms", reason: problem }]);
    }
    if (body.scope === "sandbox") ctx.clocks.shared.advance(ms);
    else ctx.clocks.advance(organizationId, ms);
    ctx.dueWork.settleDue();
    return c.json(clockView(organizationId, body.scope));
  });

  routes.get("/faults", (c) =>
    c.json({
      faults: ctx.faults.listHttpFaults(c.get("organizationId")),
      planned: ctx.faults.listPlannedFailures(c.get("organizationId")),
    }),
  );
  routes.post("/faults", async (c) => {
    const body = await readBody(c, HttpFaultRequestSchema);
    return c.json(ctx.faults.addHttpFault(c.get("organizationId"), body), 201);
  });
  routes.post("/faults/strategy-update", async (c) => {
    const organizationId = c.get("organizationId");
    const body = await readBody(c, StrategyFaultSchema);
    if (findWallet(ctx.db, organizationId, body.walletId) === null)
      throw new NotFoundError(`portfolio wallet ${body.walletId}`);
    return c.json(ctx.faults.planStrategyFailure(organizationId, body.walletId, body.reason), 201);
  });
  routes.delete("/faults", (c) => {
    ctx.faults.clear(c.get("organizationId"));
    return c.body(null, 204);
  });
  routes.delete("/faults/:id", (c) => {
    const id = c.req.param("id");
    if (!ctx.faults.disarm(c.get("organizationId"), id)) throw new NotFoundError(`fault ${id}`);
    return c.body(null, 204);
  });

  routes.get("/request-counts", (c) =>
    c.json({
      counts: ctx.requestCounter.snapshot(c.get("organizationId")),
      inFlight: ctx.requestCounter.inFlight(c.get("organizationId")),
      rateLimited: ctx.requestCounter.rateLimited(c.get("organizationId")),
    }),
  );

  // The caller's organization's emulated rate limit (docs/sandbox.md "Rate limit").
  const rateLimitView = (organizationId: string) =>
    ctx.rateLimiter.limitOf(organizationId) ?? { requestsPerSecond: null };
  routes.get("/rate-limit", (c) => c.json(rateLimitView(c.get("organizationId"))));
  routes.put("/rate-limit", async (c) => {
    const organizationId = c.get("organizationId");
    const { requestsPerSecond, burst } = await readBody(c, RateLimitSchema);
    ctx.rateLimiter.set(
      organizationId,
      requestsPerSecond === null
        ? null
        : { requestsPerSecond, burst: burst ?? defaultBurst(requestsPerSecond) },
    );
    return c.json(rateLimitView(organizationId));
  });
  routes.delete("/request-counts", (c) => {
    ctx.requestCounter.reset(c.get("organizationId"));
    return c.body(null, 204);
  });

  routes.get("/signing-activities/:activityId", (c) =>
    c.json(getSigningActivity(ctx.approvals, c.get("organizationId"), uuidParam(c, "activityId"))),
  );
  routes.post("/signing-activities/:activityId/approve", (c) =>
    c.json(
      resolveSigningActivity(ctx.approvals, {
        organizationId: c.get("organizationId"),
        activityId: uuidParam(c, "activityId"),
        decision: "approved",
      }),
    ),
  );
  routes.post("/signing-activities/:activityId/reject", async (c) => {
    const activityId = uuidParam(c, "activityId");
    const hasBody = (c.req.header("content-length") ?? "0") !== "0";
    const { reason } = hasBody ? await readBody(c, RejectSchema) : { reason: undefined };
    return c.json(
      resolveSigningActivity(ctx.approvals, {
        organizationId: c.get("organizationId"),
        activityId,
        decision: "rejected",
        ...(reason === undefined ? {} : { reason }),
      }),
    );
  });

  // A plain look at the stored state: unlike API reads it does not settle due work, so tests can
  // tell the rebalance timer apart from lazy settling.
  routes.get("/strategy-updates/:updateId", (c) =>
    c.json(ctx.strategyUpdates.get(c.get("organizationId"), uuidParam(c, "updateId"))),
  );
  return routes;
}
