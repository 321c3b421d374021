import { createHash, timingSafeEqual } from "node:crypto";
import type { Context, MiddlewareHandler } from "hono";
import { INBOX_PATH_PREFIX, quoteValue } from "../../sdk/nodejs/contract/index.ts";
import type { AdminAccess, SandboxContext } from "./context.ts";
import type { AdminScope, SandboxEnv } from "./env.ts";
import { HttpError } from "./errors.ts";

/**
 * Who is calling: the admin API's tokens (the sandbox's, or one organization's) and the bearer
 * token whose organization scopes everything after it. The identity is set on the request
 * (`adminScope`, `organizationId`) for the emulation and the routes to read.
 */

/**
 * The webhook inboxes' API lies under the admin prefix (it is the sandbox's own tooling: never
 * counted, limited or faulted) but needs no admin token: a pipeline holding only its API token,
 * against a sandbox whose admin API is off, reads what its registrations received.
 */
const isInboxApi = (path: string) => path === INBOX_PATH_PREFIX || path.startsWith(`${INBOX_PATH_PREFIX}/`);

/** The header that carries the sandbox's admin token on admin calls. */
export const ADMIN_TOKEN_HEADER = "x-sandbox-admin-token";

const digest = (text: string) => createHash("sha256").update(text).digest();

/** How an admin API request may be called: open to API tokens, off, or gated by tokens. */
export function adminApiMode(access: AdminAccess): "open" | "off" | "token" {
  if (access.organizationAdminTokens.size > 0 || typeof access.adminToken === "string") return "token";
  return access.adminToken === undefined ? "open" : "off";
}

/**
 * What the admin token of a request may do (docs/sandbox.md "Admin token"): anything
 * (`sandbox`: the sandbox's admin token, or an admin API open to API tokens), or the admin calls
 * of one organization and nothing sandbox-wide (`organization`).
 */
function adminScopeOf(access: AdminAccess, sent: string | undefined): AdminScope | null {
  const mode = adminApiMode(access);
  if (mode === "open") return { kind: "sandbox" };
  if (mode === "off" || sent === undefined) return null;
  const sentDigest = digest(sent);
  // Every configured token is compared, in constant time, whichever matches: the time an answer
  // takes says nothing about which tokens exist.
  let scope: AdminScope | null = null;
  if (typeof access.adminToken === "string" && timingSafeEqual(sentDigest, digest(access.adminToken)))
    scope = { kind: "sandbox" };
  for (const [token, organizationId] of access.organizationAdminTokens) {
    if (timingSafeEqual(sentDigest, digest(token)) && scope === null)
      scope = { kind: "organization", organizationId };
  }
  return scope;
}

/**
 * Guards the admin API (`/_sandbox/*`, docs/sandbox.md "Admin token"): with admin tokens
 * configured, a call must send one in X-Sandbox-Admin-Token (compared in constant time), and what
 * it may do is recorded as the request's `adminScope` (an organization's token is held to that
 * organization once the bearer token is known, by `authMiddleware`); with the admin API off
 * (`adminToken: null`, no organization's token), every admin call is 403; without either, it passes.
 */
export function adminGateMiddleware(access: AdminAccess): MiddlewareHandler<SandboxEnv> {
  const mode = adminApiMode(access);
  return async (c, next) => {
    if (isInboxApi(c.req.path)) return next();
    if (mode === "off") {
      throw new HttpError(
        403,
        "forbidden",
        "the admin API of this sandbox is off: start it with --admin-token <token> (or SANDBOX_ADMIN_TOKEN) and send that token as X-Sandbox-Admin-Token",
      );
    }
    const scope = adminScopeOf(access, c.req.header(ADMIN_TOKEN_HEADER));
    if (scope === null) {
      throw new HttpError(
        403,
        "forbidden",
        `admin calls need the sandbox's admin token, or an admin token of the caller's organization, in the ${ADMIN_TOKEN_HEADER} header (an API token alone is not enough)`,
      );
    }
    c.set("adminScope", scope);
    await next();
  };
}

/**
 * Refuses (403) an admin call that acts on every organization of the sandbox when the request's
 * admin token is scoped to one organization. `what` names the call in the answer.
 */
export function requireSandboxWideAdmin(c: Context<SandboxEnv>, what: string): void {
  const scope = c.get("adminScope");
  if (scope?.kind !== "organization") return;
  throw new HttpError(
    403,
    "forbidden",
    `${what} acts on every organization of this sandbox, so it needs the sandbox's admin token; the admin token sent is scoped to organization ${quoteValue(scope.organizationId)}`,
  );
}

/** `Authorization: Bearer <token>`; the token's organization scopes everything after this. */
export function authMiddleware(ctx: SandboxContext): MiddlewareHandler<SandboxEnv> {
  return async (c, next) => {
    const header = c.req.header("authorization") ?? "";
    const match = /^Bearer\s+(\S+)\s*$/i.exec(header);
    if (match === null) {
      throw new HttpError(401, "unauthorized", "send an API token as Authorization: Bearer <token>");
    }
    const organizationId = ctx.tokens.get(match[1] ?? "");
    if (organizationId === undefined) {
      throw new HttpError(
        401,
        "unauthorized",
        "the API token is not valid for this sandbox; check SANDBOX_TOKENS",
      );
    }
    const adminScope = c.get("adminScope");
    if (adminScope?.kind === "organization" && adminScope.organizationId !== organizationId) {
      // The holder sent both tokens, so naming the API token's organization tells them nothing new.
      throw new HttpError(
        403,
        "forbidden",
        `the admin token sent is scoped to organization ${quoteValue(adminScope.organizationId)} and cannot act for organization ${quoteValue(organizationId)}, the API token's: send ${quoteValue(organizationId)}'s own admin token, or the sandbox's`,
      );
    }
    c.set("organizationId", organizationId);
    await next();
  };
}
