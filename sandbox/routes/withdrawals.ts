import type { SandboxContext } from "../http/context.ts";
import { destinationProblems } from "../domain/money/destinationAddress.ts";
import { getWithdrawal, listWithdrawalPage, requestWithdrawal } from "../domain/money/withdrawals.ts";
import { pageRequestOf } from "../http/validation.ts";
import { created, ok } from "../http/operationRoutes.ts";
import type { ServiceRoutes } from "./serviceHandlers.ts";

/** Withdraw (spec 4.8; 201, a replay 200), list a wallet's withdrawals (4.9), read one (4.10). */
export function withdrawalRoutes(ctx: SandboxContext) {
  return {
    withdrawFromPortfolioWallet: {
      bodyChecks: destinationProblems,
      handle: ({ path, body }, org) => {
        const { withdrawal, replayed } = requestWithdrawal(ctx.money, org, path.id, body);
        return created(withdrawal, replayed);
      },
    },
    listWithdrawals: ({ path, query }, org) =>
      ok(listWithdrawalPage(ctx.money, org, path.id, pageRequestOf(query))),
    getWithdrawal: ({ path }, org) => ok(getWithdrawal(ctx.money, org, path.id, path.withdrawalId)),
  } satisfies Partial<ServiceRoutes>;
}
