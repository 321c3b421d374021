import type { Hono } from "hono";
import type { SandboxContext } from "../http/context.ts";
import type { SandboxEnv } from "../http/env.ts";
import { ADMIN_PREFIX } from "../http/middleware.ts";
import { signingAdminRoutes } from "./adminRoutes.ts";
import { SIGNING_PROVIDER_PREFIX, signingProviderRoutes } from "./providerRoutes.ts";

/** Where the signing provider's admin API lives. */
export const SIGNING_ADMIN_PREFIX = `${ADMIN_PREFIX}/signing`;

/**
 * Mounts the signing-provider stand-in: Turnkey's approval endpoints under `/public/v1` and the
 * admin API that registers approver keys under `/_sandbox/signing`. Call it before the app-wide
 * bearer check: the Turnkey SDK sends no bearer token, its requests are authenticated by their
 * X-Stamp instead (the admin API applies the bearer check itself).
 */
export function mountSigningProvider(app: Hono<SandboxEnv>, ctx: SandboxContext): void {
  app.route(SIGNING_PROVIDER_PREFIX, signingProviderRoutes(ctx));
  app.route(SIGNING_ADMIN_PREFIX, signingAdminRoutes(ctx));
}
