import { Hono } from "hono";
import { SERVICE_OPERATIONS_BY_ID } from "../sdk/nodejs/contract/index.ts";
import { SIGNING_PROVIDER_PREFIX } from "../sdk/nodejs/contract/signingProvider.ts";
import type { SandboxContext } from "./http/context.ts";
import type { SandboxEnv } from "./http/env.ts";
import { HttpError, toErrorResponse } from "./http/errors.ts";
import { registerOperations } from "./http/operationRoutes.ts";
import {
  ADMIN_PREFIX,
  adminGateMiddleware,
  authMiddleware,
  bodySizeLimitMiddleware,
  fairTurnsMiddleware,
  faultMiddleware,
  hostCheckMiddleware,
  rateLimitMiddleware,
  requestCounterMiddleware,
  requestGateMiddleware,
  requestIdMiddleware,
  responseHeadersMiddleware,
  settleDueWorkMiddleware,
} from "./http/middleware.ts";
import { adminRoutes } from "./routes/adminRoutes.ts";
import { ADMIN_OPERATIONS_BY_ID } from "./routes/adminOperations.ts";
import { registerDocumentOperations } from "./routes/openapi.ts";
import { serviceRoutes } from "./routes/serviceRoutes.ts";
import { mountSigningProvider } from "./signing/index.ts";
import { mountConsolePages } from "./console/consolePages.ts";
import { registerConsoleOperations } from "./console/consoleOperationRoutes.ts";
import { requestLogMiddleware } from "./http/requestLogMiddleware.ts";
import { deadlineMiddleware, wallClockMiddleware } from "./http/deadlineMiddleware.ts";
import { registerInboxOperations } from "./routes/inboxRoutes.ts";

/** Where the wallet operations live: the wallet list's path, from the service's table. */
const WALLETS_BASE = SERVICE_OPERATIONS_BY_ID.listPortfolioWallets.path;

/**
 * The sandbox's HTTP application. Middleware order matters: the request id and the response
 * headers first (so even a 401 carries them), the Host check (before anything answers), the body
 * size limit (before anything reads a body), then authentication,
 * counting, fault injection, the organizations' turns, and settling of due work.
 */
export function createApp(ctx: SandboxContext): Hono<SandboxEnv> {
  const app = new Hono<SandboxEnv>();
  app.use("*", requestIdMiddleware());
  app.use("*", wallClockMiddleware());
  // Every request, before it reads anything: a snapshot restore waits for those in flight.
  app.use("*", requestGateMiddleware(ctx));
  app.use("*", responseHeadersMiddleware());
  app.use("*", hostCheckMiddleware(ctx.allowedHosts));
  app.use("*", bodySizeLimitMiddleware());
  // A request past its deadline is refused before anything handles it: the signing provider's
  // routes here (mounted next, they are logged nowhere); every other request once authenticated
  // and logged (so a console that stopped waiting can find its refusal), and again just before
  // the routes below, after the waits between (the organizations' turns, the body read).
  app.use(`${SIGNING_PROVIDER_PREFIX}/*`, deadlineMiddleware());
  // Before the signing provider's admin routes too (/_sandbox/signing), which are mounted early.
  app.use(ADMIN_PREFIX, adminGateMiddleware(ctx.adminAccess));
  app.use(`${ADMIN_PREFIX}/*`, adminGateMiddleware(ctx.adminAccess));
  mountSigningProvider(app, ctx); // before bearer auth: Turnkey requests are authenticated by their X-Stamp
  registerDocumentOperations(app); // before bearer auth: the documents need no credentials
  mountConsolePages(app); // before bearer auth: a browser loads the console's page and files without a token
  app.use("*", authMiddleware(ctx));
  app.use("*", requestLogMiddleware(ctx.requestLog));
  app.use("*", deadlineMiddleware());
  app.use("*", requestCounterMiddleware(ctx));
  app.use("*", rateLimitMiddleware(ctx));
  app.use("*", faultMiddleware(ctx));
  // After the faults: an injected delay waits outside the turns, as a slow network would.
  app.use("*", fairTurnsMiddleware(ctx));
  app.use(`${WALLETS_BASE}/*`, settleDueWorkMiddleware(ctx));
  app.use(WALLETS_BASE, settleDueWorkMiddleware(ctx));
  app.use("*", deadlineMiddleware());

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
