import type { SandboxContext } from "../http/context.ts";
import { destinationProblems } from "../domain/money/destinationAddress.ts";
import { getWithdrawal, listWithdrawalPage, requestWithdrawal } from "../domain/money/withdrawals.ts";
import { pageRequestOf } from "../http/validation.ts";
import type { ServiceRoutes } from "./serviceRoutes.ts";

/** Withdraw (spec 4.8; 201, a replay 200), list a wallet's withdrawals (4.9), read one (4.10). */
export function withdrawalRoutes(ctx: SandboxContext) {
  return {
    withdrawFromPortfolioWallet: {
      bodyChecks: destinationProblems,
      handle: ({ path, body }, organizationId) => {
        const { withdrawal, replayed } = requestWithdrawal(ctx.money, organizationId, path.id, body);
        return { status: replayed ? 200 : 201, body: withdrawal };
      },
    },
    listWithdrawals: {
      handle: ({ path, query }, organizationId) => ({
        status: 200,
        body: listWithdrawalPage(ctx.money, organizationId, path.id, pageRequestOf(query)),
      }),
    },
    getWithdrawal: {
      handle: ({ path }, organizationId) => ({
        status: 200,
        body: getWithdrawal(ctx.money, organizationId, path.id, path.withdrawalId),
      }),
    },
  } satisfies Partial<ServiceRoutes>;
}
