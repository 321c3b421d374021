import { Hono } from "hono";
import { z } from "zod";
import type { SandboxContext } from "../http/context.ts";
import {
  depositDestinationProblems,
  simulateDeposit,
  SimulateDepositSchema,
} from "../domain/money/deposits.ts";
import { listDeliveryHistory } from "../domain/events/deliveryHistory.ts";
import { ledgerSummary } from "../domain/money/ledgerSummary.ts";
import { microsToUsd, UuidSchema } from "../../sdk/nodejs/contract/index.ts";
import type { SandboxEnv } from "../http/env.ts";
import { NotFoundError } from "../domain/errors.ts";
import { readBody, readQuery } from "../http/validation.ts";
import { listRecentLedgerEntries } from "../store/ledgerStore.ts";
import { findWallet } from "../store/walletStore.ts";

export const LegFaultSchema = z.object({
  walletId: UuidSchema,
  legKey: z.string().min(1).max(100).default("redeem"),
  reason: z.string().min(1).max(500).default("payout failed (injected fault)"),
});
const LimitSchema = z.coerce.number().int().min(1).max(1000).default(100);
export const DeliveryQuerySchema = z.object({
  status: z.enum(["pending", "succeeded", "failed", "cancelled"]).optional(),
  registrationId: z.string().min(1).optional(),
  eventId: z.string().min(1).optional(),
  eventType: z.string().min(1).optional(),
  limit: LimitSchema,
});
export const LedgerQuerySchema = z.object({
  walletId: UuidSchema.optional(),
  limit: LimitSchema,
});

/**
 * Sandbox-only admin calls of money flows (docs/sandbox.md, "Money flows"): simulated on-chain
 * deposits, payout-leg faults, the ledger audit, and webhook delivery records.
 */
export function moneyAdminRoutes(ctx: SandboxContext): Hono<SandboxEnv> {
  const routes = new Hono<SandboxEnv>();

  routes.post("/deposits", async (c) => {
    const organizationId = c.get("organizationId");
    const body = await readBody(c, SimulateDepositSchema, (raw) =>
      depositDestinationProblems(ctx.money, organizationId, raw),
    );
    const { deposit, replayed } = simulateDeposit(ctx.money, organizationId, body);
    return c.json(deposit, replayed ? 200 : 201);
  });

  routes.post("/faults/withdrawal-leg", async (c) => {
    const organizationId = c.get("organizationId");
    const body = await readBody(c, LegFaultSchema);
    if (findWallet(ctx.db, organizationId, body.walletId) === null)
      throw new NotFoundError(`portfolio wallet ${body.walletId}`);
    return c.json(
      ctx.faults.planWithdrawalLegFailure(organizationId, body.walletId, body.legKey, body.reason),
      201,
    );
  });

  routes.get("/ledger", (c) => {
    ctx.dueWork.settleDue();
    return c.json(
      ledgerSummary(ctx.db, c.get("organizationId"), ctx.clocks.now(c.get("organizationId")).toISOString()),
    );
  });
  routes.get("/ledger/entries", (c) => {
    const query = readQuery(c, LedgerQuerySchema);
    const entries = listRecentLedgerEntries(
      ctx.db,
      c.get("organizationId"),
      query.walletId ?? null,
      query.limit,
    );
    return c.json({
      data: entries.map((e) => ({
        ...e,
        // JSON has no bigint; micros beyond 2^53 come out as the nearest double.
        amountMicros: Number(e.amountMicros),
        yieldMicros: Number(e.yieldMicros),
        amountUsd: microsToUsd(e.amountMicros),
        yieldUsd: microsToUsd(e.yieldMicros),
      })),
    });
  });

  routes.get("/webhook-deliveries", (c) => {
    const query = readQuery(c, DeliveryQuerySchema);
    return c.json({ data: listDeliveryHistory(ctx.db, c.get("organizationId"), query) });
  });
  return routes;
}
