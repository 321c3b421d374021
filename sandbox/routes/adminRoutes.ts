import type { SandboxContext } from "../http/context.ts";
import { signingAdminRoutes } from "../signing/adminRoutes.ts";
import { generalAdminRoutes } from "./admin.ts";
import type { AdminRoutes } from "./adminHandlers.ts";
import { moneyAdminRoutes } from "./moneyAdmin.ts";
import { snapshotAdminRoutes } from "./snapshotAdmin.ts";

/** Every operation of the admin table with its handler: an operation left out does not compile. */
export function adminRoutes(ctx: SandboxContext): AdminRoutes {
  return {
    ...generalAdminRoutes(ctx),
    ...moneyAdminRoutes(ctx),
    ...snapshotAdminRoutes(ctx),
    ...signingAdminRoutes(ctx),
  };
}
