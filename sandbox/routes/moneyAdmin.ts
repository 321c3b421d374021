import { z } from "zod";
import type { SandboxContext } from "../http/context.ts";
import { depositDestinationProblems, simulateDeposit } from "../domain/money/deposits.ts";
import { listDeliveryHistory } from "../domain/events/deliveryHistory.ts";
import { ledgerSummary } from "../domain/money/ledgerSummary.ts";
import { microsToUsd, UuidSchema } from "../../sdk/nodejs/contract/index.ts";
import { NotFoundError } from "../domain/errors.ts";
import { created, ok } from "../http/operationRoutes.ts";
import { listRecentLedgerEntries } from "../store/ledgerStore.ts";
import { findWallet } from "../store/walletStore.ts";
import type { AdminRoutes } from "./adminHandlers.ts";

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
export function moneyAdminRoutes(ctx: SandboxContext) {
  return {
    sandboxSimulateDeposit: {
      bodyChecks: (raw, org) => depositDestinationProblems(ctx.money, org, raw),
      handle: ({ body }, org) => {
        const { deposit, replayed } = simulateDeposit(ctx.money, org, body);
        return created(deposit, replayed);
      },
    },

    sandboxFailNextWithdrawalLeg: ({ body }, org) => {
      if (findWallet(ctx.db, org, body.walletId) === null)
        throw new NotFoundError(`portfolio wallet ${body.walletId}`);
      return {
        status: 201,
        body: ctx.faults.planWithdrawalLegFailure(org, body.walletId, body.legKey, body.reason),
      };
    },

    sandboxLedgerSummary: (_input, org) => {
      ctx.dueWork.settleDue();
      return ok(ledgerSummary(ctx.db, org, ctx.clocks.now(org).toISOString()));
    },
    sandboxLedgerEntries: ({ query }, org) => {
      const entries = listRecentLedgerEntries(ctx.db, org, query.walletId ?? null, query.limit);
      return ok({
        data: entries.map((e) => ({
          ...e,
          // JSON has no bigint; micros beyond 2^53 come out as the nearest double.
          amountMicros: Number(e.amountMicros),
          yieldMicros: Number(e.yieldMicros),
          amountUsd: microsToUsd(e.amountMicros),
          yieldUsd: microsToUsd(e.yieldMicros),
        })),
      });
    },

    sandboxWebhookDeliveries: ({ query }, org) => ok({ data: listDeliveryHistory(ctx.db, org, query) }),
  } satisfies Partial<AdminRoutes>;
}
