import { Hono } from "hono";
import { SERVICE_OPERATIONS_BY_ID } from "../sdk/nodejs/contract/index.ts";
import { SIGNING_PROVIDER_PREFIX } from "../sdk/nodejs/contract/signingProvider.ts";
import type { SandboxContext } from "./http/context.ts";
import type { SandboxEnv } from "./http/env.ts";
import { HttpError, toErrorResponse } from "./http/errors.ts";
import { registerOperations } from "./http/operationRoutes.ts";
import { adminGateMiddleware, authMiddleware } from "./http/identityMiddleware.ts";
import {
  fairTurnsMiddleware,
  faultMiddleware,
  rateLimitMiddleware,
  requestCounterMiddleware,
  settleDueWorkMiddleware,
} from "./http/emulationMiddleware.ts";
import { ADMIN_PREFIX } from "./http/ownRequests.ts";
import { requestGateMiddleware } from "./http/requestGateMiddleware.ts";
import {
  bodySizeLimitMiddleware,
  hostCheckMiddleware,
  requestIdMiddleware,
  responseHeadersMiddleware,
} from "./http/transportMiddleware.ts";
import { adminRoutes } from "./routes/adminRoutes.ts";
import { ADMIN_OPERATIONS_BY_ID } from "./routes/adminOperations.ts";
import { registerDocumentOperations } from "./routes/openapi.ts";
import { serviceRoutes } from "./routes/serviceRoutes.ts";
import { mountSigningProvider } from "./signing/index.ts";
import { mountConsolePages } from "./console/consolePages.ts";
import { registerConsoleOperations } from "./console/consoleOperationRoutes.ts";
import { CONSOLE_API_PREFIX } from "./console/consoleOperations.ts";
import { requestLogMiddleware } from "./http/requestLogMiddleware.ts";
import { deadlineMiddleware, wallClockMiddleware } from "./http/deadlineMiddleware.ts";
import { registerInboxOperations } from "./routes/inboxRoutes.ts";

/** Where the wallet operations live: the wallet list's path, from the service's table. */
const WALLETS_BASE = SERVICE_OPERATIONS_BY_ID.listPortfolioWallets.path;

/**
 * The sandbox's HTTP application. Hono runs middleware and routes in the order they are added, so
 * the order below is the order every request meets them in, and it is written here alone:
 *
 * 1. Transport, before anything can answer: the request id and the wall clock first, so that every
 *    answer carries them (a refusal too); the request gate, before the request reads anything;
 *    the answer headers; the Host check, before anything answers; the body size limit, before
 *    anything reads a body.
 * 2. Identity: the admin gate on the admin API; the routes that take no bearer token, which answer
 *    before authentication ever runs; then bearer authentication for every other request.
 * 3. Once the organization is known: the request log, then the deadline, so that a console that
 *    stopped waiting can find its refusal.
 * 4. The service's emulation: the request counted, then rate limited (a refused request counts as
 *    the service would have seen it, and nothing of it is applied), then faulted, then waiting for
 *    its organization's turn, then due work settled before any route reads state.
 * 5. The deadline again just before the routes, after the waits between (the organizations' turns,
 *    the body read).
 */
export function createApp(ctx: SandboxContext): Hono<SandboxEnv> {
  const app = new Hono<SandboxEnv>();
  // 1. Transport.
  app.use("*", requestIdMiddleware());
  app.use("*", wallClockMiddleware());
  // Every request, before it reads anything: a snapshot restore waits for those in flight.
  app.use("*", requestGateMiddleware(ctx));
  app.use("*", responseHeadersMiddleware());
  app.use("*", hostCheckMiddleware(ctx.allowedHosts));
  app.use("*", bodySizeLimitMiddleware());
  // A request past its deadline is refused before anything handles it: the signing provider's
  // routes here (mounted next, they are logged nowhere); every other request once authenticated
  // and logged (3), and again just before the routes (5).
  app.use(`${SIGNING_PROVIDER_PREFIX}/*`, deadlineMiddleware());

  // 2. Identity. The admin gate comes before the signing provider's admin routes too
  // (/_sandbox/signing), which are mounted early.
  app.use(ADMIN_PREFIX, adminGateMiddleware(ctx.adminAccess));
  app.use(`${ADMIN_PREFIX}/*`, adminGateMiddleware(ctx.adminAccess));
  mountSigningProvider(app, ctx); // before bearer auth: Turnkey requests are authenticated by their X-Stamp
  registerDocumentOperations(app); // before bearer auth: the documents need no credentials
  mountConsolePages(app); // before bearer auth: a browser loads the console's page and files without a token
  app.use("*", authMiddleware(ctx));

  // 3. The organization known.
  app.use("*", requestLogMiddleware(ctx.requestLog));
  app.use("*", deadlineMiddleware());

  // 4. The service's emulation.
  app.use("*", requestCounterMiddleware(ctx));
  app.use("*", rateLimitMiddleware(ctx));
  app.use("*", faultMiddleware(ctx));
  // After the faults: an injected delay waits outside the turns, as a slow network would.
  app.use("*", fairTurnsMiddleware(ctx));
  app.use(`${WALLETS_BASE}/*`, settleDueWorkMiddleware(ctx));
  app.use(WALLETS_BASE, settleDueWorkMiddleware(ctx));

  // 5. The deadline again, then the routes.
  app.use("*", deadlineMiddleware());
  // The console's operations settle due work as the service's reads do, here after the deadline.
  app.use(`${CONSOLE_API_PREFIX}/*`, settleDueWorkMiddleware(ctx));

  // Every operation of the service, registered from its entry in the contract's table.
  registerOperations(app, SERVICE_OPERATIONS_BY_ID, serviceRoutes(ctx));
  registerOperations(app, ADMIN_OPERATIONS_BY_ID, adminRoutes(ctx));
  registerConsoleOperations(app, ctx);
  registerInboxOperations(app, ctx);

  app.notFound(() => {
    throw new HttpError(404, "not_found", "no such endpoint; see docs/sandbox.md for the sandbox's routes");
  });
  app.onError((error, c) => toErrorResponse(c, error));
  return app;
}
