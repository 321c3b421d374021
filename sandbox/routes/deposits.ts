import type { SandboxContext } from "../http/context.ts";
import { getDeposit, listDepositPage } from "../domain/money/deposits.ts";
import { pageRequestOf } from "../http/validation.ts";
import { ok } from "../http/operationRoutes.ts";
import type { ServiceRoutes } from "./serviceRoutes.ts";

/** A wallet's deposits and one deposit (spec 4.11; shapes in sdk/contract/deposit.ts). */
export function depositRoutes(ctx: SandboxContext) {
  return {
    listDeposits: {
      handle: ({ path, query }, organizationId) =>
        ok(listDepositPage(ctx.money, organizationId, path.id, pageRequestOf(query))),
    },
    getDeposit: {
      handle: ({ path }, organizationId) =>
        ok(getDeposit(ctx.money, organizationId, path.id, path.depositId)),
    },
  } satisfies Partial<ServiceRoutes>;
}
