import type { SandboxContext } from "../http/context.ts";
import { depositDestinationProblems, simulateDeposit } from "../domain/money/deposits.ts";
import { listDeliveryHistory } from "../domain/events/deliveryHistory.ts";
import { ledgerSummary } from "../domain/money/ledgerSummary.ts";
import { microsToUsd } from "../../sdk/nodejs/contract/index.ts";
import { NotFoundError } from "../domain/errors.ts";
import { created, ok } from "../http/operationRoutes.ts";
import { listRecentLedgerEntries } from "../store/ledgerStore.ts";
import { findWallet } from "../store/walletStore.ts";
import type { AdminRoutes } from "./adminHandlers.ts";

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
      ctx.dueWork.settleDue(org);
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
