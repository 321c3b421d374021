import { EVENT_TYPES } from "../../sdk/nodejs/contract/index.ts";
import type { SandboxContext } from "../http/context.ts";
import { adminApiMode } from "../http/identityMiddleware.ts";
import { ok, type OperationRoutes } from "../http/operationRoutes.ts";
import { pageRequestOf } from "../http/validation.ts";
import { listApprovalRequests } from "../domain/approvalRequests.ts";
import { deliveryDetail, listDeliveryHistory, redeliver } from "../domain/events/deliveryHistory.ts";
import { listDepositsWithLegs } from "../domain/money/depositLegs.ts";
import { walletHistory } from "../domain/money/walletHistory.ts";
import { walletStatementOf } from "../domain/money/walletStatement.ts";
import { listWithdrawalTimelines } from "../domain/money/withdrawalTimeline.ts";
import type { CONSOLE_READ_OPERATIONS } from "./consoleOperations.ts";

/**
 * Sandbox-only reads for the console (docs/sandbox.md "Console API"), by operationId of
 * CONSOLE_READ_OPERATIONS, authenticated exactly as the API: a bearer token, and everything scoped
 * to its organization (another organization's wallet is 404). Due work settles first, as on every
 * API read (consoleOperationRoutes.ts).
 */
export function consoleReadRoutes(ctx: SandboxContext): OperationRoutes<typeof CONSOLE_READ_OPERATIONS> {
  return {
    consoleSession: (_input, org) =>
      ok({
        organizationId: org,
        adminApi: adminApiMode(ctx.adminAccess),
        now: ctx.clocks.now(org).toISOString(),
        // The contract's event types, so the console's webhook form offers them without a copy.
        eventTypes: EVENT_TYPES,
      }),
    consoleSigningActivities: ({ query }, org) =>
      ok({ data: listApprovalRequests(ctx.db, org, query, ctx.money.catalog(org)) }),
    consoleWalletStrategyUpdates: ({ path, query }, org) =>
      ok({ data: ctx.strategyUpdates.listForWallet(org, path.id, query.limit) }),
    consoleWalletHistory: ({ path }, org) => ok(walletHistory(ctx.db, org, path.id)),
    consoleWalletDeposits: ({ path, query }, org) =>
      ok(listDepositsWithLegs(ctx.money, org, path.id, pageRequestOf(query))),
    consoleWalletWithdrawals: ({ path, query }, org) =>
      ok(listWithdrawalTimelines(ctx.money, org, path.id, pageRequestOf(query))),
    consoleWalletStatement: ({ path, query }, org) => ok(walletStatementOf(ctx.money, org, path.id, query)),
    consoleWebhookDeliveries: ({ query }, org) => ok({ data: listDeliveryHistory(ctx.db, org, query) }),
    consoleWebhookDelivery: ({ path }, org) => ok(deliveryDetail(ctx.db, org, path.id)),
    // Webhook deliveries run on the real clock (receivers check signature times against theirs).
    consoleRedeliverWebhook: ({ path }, org) => {
      const delivery = redeliver(ctx.db, org, path.id, new Date());
      ctx.webhookDispatcher.kick({ id: delivery.registrationId, organizationId: org });
      return { status: 201, body: delivery };
    },
  };
}
