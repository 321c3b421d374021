import type { Context } from "hono";
import type { SandboxEnv } from "./env.ts";

/**
 * The sandbox's own requests, told apart from calls of the service it emulates: the admin API's
 * and the console's. The emulation never counts, limits or faults them (emulationMiddleware.ts),
 * so a test can set faults up through the admin API, and watching an organization in the console
 * does not change what its client sees.
 */

/** Where the admin API lives (`/_sandbox/*`), the webhook inboxes' API among it. */
export const ADMIN_PREFIX = "/_sandbox";
const isAdmin = (path: string) => path === ADMIN_PREFIX || path.startsWith(`${ADMIN_PREFIX}/`);

/**
 * The header the console (docs/console.md) sends on its own requests. They are never counted and
 * never faulted: watching a test's organization in the console must not change what the test
 * sees, and a fault armed from the console must wait for the client it was armed for.
 */
export const CONSOLE_REQUEST_HEADER = "x-sandbox-console";
const isConsoleRequest = (c: Context<SandboxEnv>) => c.req.header(CONSOLE_REQUEST_HEADER) !== undefined;

/** Whether the request is the admin API's or the console's rather than a call of the service. */
export const isSandboxOwnRequest = (c: Context<SandboxEnv>): boolean =>
  isAdmin(c.req.path) || isConsoleRequest(c);
