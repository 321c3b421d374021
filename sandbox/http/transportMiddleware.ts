import { randomUUID } from "node:crypto";
import type { Context, Env, MiddlewareHandler } from "hono";
import { bodyLimit } from "hono/body-limit";
import { secureHeaders } from "hono/secure-headers";
import { quoteValue } from "../../sdk/nodejs/contract/index.ts";
import { hostnameOf, isLoopbackHost } from "../domain/hostNames.ts";
import type { SandboxEnv } from "./env.ts";
import { HttpError } from "./errors.ts";

/**
 * Transport hygiene, the same for every request whatever it asks: an id, the answer's headers,
 * the Host it is addressed to, the size of its body. Nothing here knows who is calling or what
 * the service does (identityMiddleware.ts, emulationMiddleware.ts).
 */

/** Gives every request an id, answered as `x-request-id` on success and error alike. */
export function requestIdMiddleware(): MiddlewareHandler<SandboxEnv> {
  return async (c, next) => {
    const requestId = randomUUID();
    c.set("requestId", requestId);
    await next();
    c.res.headers.set("x-request-id", requestId);
  };
}

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

/** The largest request body the sandbox reads: 1 MB. */
export const MAX_REQUEST_BODY_BYTES = 1024 * 1024;

/**
 * Hono's body limit at `maxBytes`: a larger body is refused with 413 `payload_too_large` and
 * `message` (which says whose limit it is) before it is read, at once when its Content-Length says
 * so, and as soon as a chunked body passes the limit otherwise. The sandbox's limit and the signing
 * provider's (sandbox/signing/providerRoutes.ts) are both this one.
 */
export function refuseBodiesOver<E extends Env>(maxBytes: number, message: string): MiddlewareHandler<E> {
  return bodyLimit({
    maxSize: maxBytes,
    onError: () => {
      // The rest of the body is never read, so the connection cannot carry another request.
      throw new HttpError(413, "payload_too_large", message, { headers: { Connection: "close" } });
    },
  });
}

/**
 * Refuses a body over 1 MB before reading it (refuseBodiesOver), and closes the connection behind
 * a body left unread.
 */
export function bodySizeLimitMiddleware(): MiddlewareHandler<SandboxEnv> {
  const limit = refuseBodiesOver<SandboxEnv>(
    MAX_REQUEST_BODY_BYTES,
    `the request body is larger than ${MAX_REQUEST_BODY_BYTES} bytes (1 MB), the most the sandbox reads`,
  );
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
