import type { SandboxContext } from "../http/context.ts";
import { getDeposit, listDepositPage } from "../domain/money/deposits.ts";
import { pageRequestOf } from "../http/validation.ts";
import { ok } from "../http/operationRoutes.ts";
import type { ServiceRoutes } from "./serviceHandlers.ts";

/** A wallet's deposits and one deposit (spec 4.11; shapes in sdk/nodejs/contract/deposit.ts). */
export function depositRoutes(ctx: SandboxContext) {
  return {
    listDeposits: ({ path, query }, org) =>
      ok(listDepositPage(ctx.money, org, path.id, pageRequestOf(query))),
    getDeposit: ({ path }, org) => ok(getDeposit(ctx.money, org, path.id, path.depositId)),
  } satisfies Partial<ServiceRoutes>;
}
