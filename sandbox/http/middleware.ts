import { createHash, randomUUID, timingSafeEqual } from "node:crypto";
import { setTimeout as sleep } from "node:timers/promises";
import type { Context, MiddlewareHandler } from "hono";
import { bodyLimit } from "hono/body-limit";
import { secureHeaders } from "hono/secure-headers";
import { matchedRoutes } from "hono/route";
import type { AdminAccess, SandboxContext } from "./context.ts";
import type { AdminScope, SandboxEnv } from "./env.ts";
import { INBOX_PATH_PREFIX, quoteValue } from "../../sdk/nodejs/contract/index.ts";
import { HttpError } from "./errors.ts";
import { hostnameOf, isLoopbackHost } from "../domain/hostNames.ts";

/** Admin calls are not counted and never faulted: tests use them to set faults up. So are the console's. */
export const ADMIN_PREFIX = "/_sandbox";
const isAdmin = (path: string) => path === ADMIN_PREFIX || path.startsWith(`${ADMIN_PREFIX}/`);
/**
 * The webhook inboxes' API lies under the admin prefix (it is the sandbox's own tooling: never
 * counted, limited or faulted) but needs no admin token: a pipeline holding only its API token,
 * against a sandbox whose admin API is off, reads what its registrations received.
 */
const isInboxApi = (path: string) => path === INBOX_PATH_PREFIX || path.startsWith(`${INBOX_PATH_PREFIX}/`);

/**
 * The header the console (docs/console.md) sends on its own requests. They are never counted and
 * never faulted: watching a test's organization in the console must not change what the test
 * sees, and a fault armed from the console must wait for the client it was armed for.
 */
export const CONSOLE_REQUEST_HEADER = "x-sandbox-console";
const isConsoleRequest = (c: Context<SandboxEnv>) => c.req.header(CONSOLE_REQUEST_HEADER) !== undefined;

/** The largest request body the sandbox reads: 1 MB. */
export const MAX_REQUEST_BODY_BYTES = 1024 * 1024;

/**
 * Refuses a body over 1 MB with 413 `payload_too_large` before reading it: at once when its
 * Content-Length says so, and as soon as a chunked body passes the limit otherwise.
 */
export function bodySizeLimitMiddleware(): MiddlewareHandler<SandboxEnv> {
  const limit = bodyLimit({
    maxSize: MAX_REQUEST_BODY_BYTES,
    onError: () => {
      throw new HttpError(
        413,
        "payload_too_large",
        `the request body is larger than ${MAX_REQUEST_BODY_BYTES} bytes (1 MB), the most the sandbox reads`,
        // The rest of the body is never read, so the connection cannot carry another request.
        { headers: { Connection: "close" } },
      );
    },
  });
  return async (c, next) => {
    await limit(c, next);
    // A route that answers without reading the body it was sent (a redelivery takes none; an
    // unknown route or a refused credential reads nothing) leaves the rest of that body on the
    // connection. The Node adapter drains it for a moment and then cuts the socket, which a
    // client that kept the connection for its next request meets as "other side closed". Saying
    // so in the answer lets every client open a fresh connection instead.
    if (hasRequestBody(c) && !c.req.raw.bodyUsed) c.res.headers.set("Connection", "close");
  };
}

const hasRequestBody = (c: Context<SandboxEnv>) =>
  c.req.header("transfer-encoding") !== undefined || Number(c.req.header("content-length") ?? 0) > 0;

/**
 * Headers on every answer, error or not, set here once: `X-Content-Type-Options: nosniff` and
 * friends from Hono's `secureHeaders` (no framing, no referrer), and `Cache-Control: no-store`
 * unless the handler chose a caching of its own. Answers carry organization data and, once,
 * a webhook's signing secret: no browser or proxy cache may keep them, and no browser may read
 * them as anything but what they say they are. Headers a handler set itself win (`overwrite:
 * false`), so the console's pages keep their own content security policy and caching
 * (sandbox/console/consolePages.ts).
 */
export function responseHeadersMiddleware(): MiddlewareHandler<SandboxEnv> {
  const secure = secureHeaders({
    overwrite: false,
    xContentTypeOptions: true,
    xFrameOptions: "DENY",
    referrerPolicy: true,
    removePoweredBy: true,
    crossOriginEmbedderPolicy: false,
    crossOriginResourcePolicy: false,
    crossOriginOpenerPolicy: false,
    originAgentCluster: false,
    strictTransportSecurity: false, // the sandbox speaks plain HTTP
    xDnsPrefetchControl: false,
    xDownloadOptions: false,
    xPermittedCrossDomainPolicies: false,
    xXssProtection: false,
  });
  return async (c, next) => {
    await secure(c, next);
    if (!c.res.headers.has("Cache-Control")) c.res.headers.set("Cache-Control", "no-store");
  };
}

/**
 * Refuses (403) a request whose `Host` header, or absolute request target, names anything but the
 * sandbox's own address: loopback names and addresses (localhost, *.localhost, 127.0.0.0/8, [::1]),
 * and the names a shared deployment lists (`allowedHosts`: startSandbox option, flag
 * `--allowed-hosts`, env SANDBOX_ALLOWED_HOSTS). A web page whose own name was made to resolve to
 * 127.0.0.1 (DNS rebinding) sends its own name as Host, and gets nothing: not the documents, not
 * the console, not an answer to a guessed token.
 */
export function hostCheckMiddleware(allowedHosts: readonly string[]): MiddlewareHandler<SandboxEnv> {
  const allowed = new Set(allowedHosts.map(hostnameOf));
  return async (c, next) => {
    for (const named of [c.req.header("host"), new URL(c.req.url).host]) {
      if (named === undefined) continue;
      const hostname = hostnameOf(named);
      if (isLoopbackHost(hostname) || allowed.has(hostname)) continue;
      throw new HttpError(
        403,
        "forbidden",
        `this sandbox answers only requests addressed to it (Host ${quoteValue(named)} is not one of its names): call it at 127.0.0.1 or localhost, or start it with --allowed-hosts ${quoteValue(hostname)} (env SANDBOX_ALLOWED_HOSTS) when it is shared under that name`,
      );
    }
    await next();
  };
}

/** Gives every request an id, answered as `x-request-id` on success and error alike. */
export function requestIdMiddleware(): MiddlewareHandler<SandboxEnv> {
  return async (c, next) => {
    const requestId = randomUUID();
    c.set("requestId", requestId);
    await next();
    c.res.headers.set("x-request-id", requestId);
  };
}

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

/**
 * Holds the request while a snapshot is being restored, and counts it in flight until it has
 * answered, so a restore starts only when no handler is between two of its steps
 * (domain/snapshots.ts RequestGate).
 */
export function requestGateMiddleware(ctx: SandboxContext): MiddlewareHandler<SandboxEnv> {
  return async (_c, next) => {
    await ctx.requestGate.enter();
    try {
      await next();
    } finally {
      ctx.requestGate.leave();
    }
  };
}

/**
 * Counts the request under its method and route pattern. The pattern is the first matched
 * non-middleware route, known before the handler runs, so faulted requests are counted too.
 */
export function requestCounterMiddleware(ctx: SandboxContext): MiddlewareHandler<SandboxEnv> {
  return async (c, next) => {
    if (isAdmin(c.req.path) || isConsoleRequest(c)) return next();
    const organizationId = c.get("organizationId");
    const route = matchedRoutes(c).find((r) => r.method !== "ALL");
    ctx.requestCounter.record(organizationId, `${c.req.method} ${route?.path ?? c.req.path}`);
    // In flight until the handler has answered (or thrown): what a client's concurrency looks like from here.
    ctx.requestCounter.enter(organizationId);
    try {
      await next();
    } finally {
      ctx.requestCounter.leave(organizationId);
    }
  };
}

/**
 * The service's rate limit, emulated (domain/rateLimits.ts): after the request is counted, so a
 * refused request shows in the counts as the service would have seen it, and before faults and
 * handlers, so nothing of it is applied. Admin and console requests are never limited.
 */
export function rateLimitMiddleware(ctx: SandboxContext): MiddlewareHandler<SandboxEnv> {
  return async (c, next) => {
    if (isAdmin(c.req.path) || isConsoleRequest(c)) return next();
    const organizationId = c.get("organizationId");
    const retryAfterSeconds = ctx.rateLimiter.take(organizationId, Date.now());
    if (retryAfterSeconds === null) return next();
    ctx.requestCounter.recordRateLimited(organizationId);
    const limit = ctx.rateLimiter.limitOf(organizationId);
    throw new HttpError(
      429,
      "rate_limited",
      `rate limit: this organization may send ${limit?.requestsPerSecond ?? 0} requests per second (bursts of ${limit?.burst ?? 0}); nothing was applied. Retry after the Retry-After delay`,
      { headers: { "Retry-After": String(retryAfterSeconds) } },
    );
  };
}

const statusCodeOf = (status: number) =>
  status === 429 ? "rate_limited" : status >= 502 ? "unavailable" : "internal_error";

/**
 * Waits for the request's turn among the organizations' (domain/fairTurns.ts): in a busy turn of
 * the loop an organization starts a few requests, and the rest of its requests wait for later
 * turns instead of lengthening every other organization's wait. A full queue is refused.
 */
export function fairTurnsMiddleware(ctx: SandboxContext): MiddlewareHandler<SandboxEnv> {
  return async (c, next) => {
    const entry = ctx.fairTurns.enter(c.get("organizationId"));
    if (entry === null) return next();
    if ("refused" in entry) {
      ctx.requestCounter.recordRateLimited(c.get("organizationId"));
      throw new HttpError(
        429,
        "rate_limited",
        `this organization already has ${entry.refused.waiting} requests waiting for their turn at the sandbox, which serves every organization in turns; nothing was applied. Send fewer at once, and retry after the Retry-After delay`,
        { headers: { "Retry-After": "1" } },
      );
    }
    await entry;
    return next();
  };
}

/** Applies the first registered fault matching the request (domain/faults.ts). */
export function faultMiddleware(ctx: SandboxContext): MiddlewareHandler<SandboxEnv> {
  return async (c, next) => {
    if (isAdmin(c.req.path) || isConsoleRequest(c)) return next();
    const organizationId = c.get("organizationId");
    const inFlight = ctx.requestCounter.inFlight(organizationId).now;
    const fault = ctx.faults.takeHttpFault(organizationId, c.req.method, c.req.path, inFlight);
    if (fault === null) return next();
    switch (fault.kind) {
      case "status": {
        const retryAfter = fault.retryAfterSeconds ?? (fault.status === 429 ? 1 : undefined);
        throw new HttpError(
          fault.status,
          statusCodeOf(fault.status),
          `injected fault: the sandbox answered ${fault.status} without applying the request`,
          {
            headers: retryAfter === undefined ? {} : { "Retry-After": String(retryAfter) },
          },
        );
      }
      case "concurrency":
        throw new HttpError(
          429,
          "rate_limited",
          `injected fault: ${inFlight} requests of this organization in flight, more than the ${fault.maxInFlight} ` +
            "allowed; nothing was applied. Retry after the Retry-After delay",
          { headers: { "Retry-After": String(fault.retryAfterSeconds ?? 1) } },
        );
      case "delay":
        await sleep(fault.delayMs);
        return next();
      case "drop":
        // The request is applied, then the client sees the connection close with no answer: the
        // case an idempotent retry must survive.
        await next();
        c.env.incoming.socket.destroy();
        return;
    }
  };
}

/**
 * Moves time-driven work that has fallen due (rebalances, deposit steps, payout legs) forward
 * before any API request reads state, so a request sees what the clock says has happened. Only
 * due items are touched (the scheduler finds them by index), and a request of an organization with
 * nothing due touches nothing (it knows each organization's next due time); accrual needs nothing here: reads
 * compute it (sandbox/domain/money/accrual.ts).
 */
export function settleDueWorkMiddleware(ctx: SandboxContext): MiddlewareHandler<SandboxEnv> {
  return async (c, next) => {
    // The request reads only its organization's state: only that organization's work is settled.
    ctx.dueWork.settleIfDue(c.get("organizationId"));
    await next();
  };
}
