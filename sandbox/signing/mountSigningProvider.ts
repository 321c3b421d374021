import type { Hono } from "hono";
import type { SandboxContext } from "../http/context.ts";
import type { SandboxEnv } from "../http/env.ts";
import { signingProviderRoutes } from "./providerRoutes.ts";

/**
 * Mounts the signing-provider stand-in: Turnkey's approval endpoints under `/public/v1`. Call it
 * before the app-wide bearer check: the Turnkey SDK sends no bearer token, its requests are
 * authenticated by their X-Stamp instead. (The admin API that registers approver keys is in the
 * admin table, sandbox/routes/adminOperations.ts.)
 */
export function mountSigningProvider(app: Hono<SandboxEnv>, ctx: SandboxContext): void {
  app.route("/", signingProviderRoutes(ctx));
}
