import { Hono } from "hono";
import { z } from "zod";
import { EVENT_TYPES, UuidSchema } from "../../sdk/nodejs/contract/index.ts";
import type { SandboxContext } from "../http/context.ts";
import type { SandboxEnv } from "../http/env.ts";
import { adminApiMode, settleDueWorkMiddleware } from "../http/middleware.ts";
import { parsePageQuery, readQuery, uuidParam } from "../http/validation.ts";
import { listApprovalRequests } from "../domain/approvalRequests.ts";
import { deliveryDetail, listDeliveryHistory, redeliver } from "../domain/events/deliveryHistory.ts";
import { listDepositsWithLegs } from "../domain/money/depositLegs.ts";
import { walletHistory } from "../domain/money/walletHistory.ts";
import { listWithdrawalTimelines } from "../domain/money/withdrawalTimeline.ts";

/** The console's read API: what the console shows that no endpoint of the service gives. */
export const CONSOLE_API_PREFIX = "/_console/api";

const limit = (defaultLimit: number, max: number) =>
  z.coerce
    .number({ error: `must be a whole number from 1 to ${max}` })
    .int(`must be a whole number from 1 to ${max}`)
    .min(1, `must be a whole number from 1 to ${max}`)
    .max(max, `must be a whole number from 1 to ${max}`)
    .default(defaultLimit);

export const ApprovalQuerySchema = z.object({
  status: z.enum(["pending", "all"], { error: "must be pending or all" }).default("pending"),
  limit: limit(50, 100),
});
export const LimitQuerySchema = z.object({ limit: limit(25, 100) });
export const DeliveryQuerySchema = z.object({
  status: z
    .enum(["pending", "succeeded", "failed", "cancelled"], {
      error: "must be pending, succeeded, failed or cancelled",
    })
    .optional(),
  registrationId: z.string().min(1).max(100).optional(),
  eventType: z.string().min(1).max(200).optional(),
  walletId: UuidSchema.optional(),
  limit: limit(50, 200),
});

/**
 * Sandbox-only reads for the console (docs/sandbox.md "Console API"), authenticated exactly as the
 * API: a bearer token, and everything scoped to its organization (another organization's wallet
 * is 404). Due work settles first, as on every API read.
 */
export function consoleApiRoutes(ctx: SandboxContext): Hono<SandboxEnv> {
  const routes = new Hono<SandboxEnv>();
  routes.use("*", settleDueWorkMiddleware(ctx));

  routes.get("/session", (c) =>
    c.json({
      organizationId: c.get("organizationId"),
      adminApi: adminApiMode(ctx.adminAccess),
      now: ctx.clocks.now(c.get("organizationId")).toISOString(),
      // The contract's event types, so the console's webhook form offers them without a copy.
      eventTypes: EVENT_TYPES,
    }),
  );

  routes.get("/signing-activities", (c) => {
    const query = readQuery(c, ApprovalQuerySchema);
    return c.json({ data: listApprovalRequests(ctx.db, c.get("organizationId"), query) });
  });

  routes.get("/wallets/:id/strategy-updates", (c) => {
    const walletId = uuidParam(c, "id");
    const query = readQuery(c, LimitQuerySchema);
    return c.json({
      data: ctx.strategyUpdates.listForWallet(c.get("organizationId"), walletId, query.limit),
    });
  });

  routes.get("/wallets/:id/history", (c) =>
    c.json(walletHistory(ctx.db, c.get("organizationId"), uuidParam(c, "id"))),
  );

  routes.get("/wallets/:id/deposits", (c) =>
    c.json(listDepositsWithLegs(ctx.money, c.get("organizationId"), uuidParam(c, "id"), parsePageQuery(c))),
  );

  routes.get("/wallets/:id/withdrawals", (c) =>
    c.json(
      listWithdrawalTimelines(ctx.money, c.get("organizationId"), uuidParam(c, "id"), parsePageQuery(c)),
    ),
  );

  routes.get("/webhook-deliveries", (c) => {
    const query = readQuery(c, DeliveryQuerySchema);
    return c.json({ data: listDeliveryHistory(ctx.db, c.get("organizationId"), query) });
  });
  routes.get("/webhook-deliveries/:id", (c) =>
    c.json(deliveryDetail(ctx.db, c.get("organizationId"), uuidParam(c, "id"))),
  );
  // Webhook deliveries run on the real clock (receivers check signature times against theirs).
  routes.post("/webhook-deliveries/:id/redeliver", (c) => {
    const delivery = redeliver(ctx.db, c.get("organizationId"), uuidParam(c, "id"), new Date());
    ctx.webhookDispatcher.kick();
    return c.json(delivery, 201);
  });
  return routes;
}
