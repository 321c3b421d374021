import type { MiddlewareHandler } from "hono";
import { SERVICE_OPERATIONS } from "../../sdk/nodejs/contract/index.ts";
import { redactBody, walletOfRequest, type RequestLog } from "../domain/requestLog.ts";
import type { SandboxEnv } from "./env.ts";
import { CONSOLE_REQUEST_HEADER } from "./middleware.ts";

/** POSTs that change nothing (a yield report, a quote), which the console polls like reads. */
const READ_ONLY_POSTS = new Set(
  SERVICE_OPERATIONS.filter((operation) => operation.readOnly === true).map((operation) => operation.path),
);

/** JSON text as a value, or null when it is none. */
function parsed(text: string | null): unknown {
  if (text === null) return null;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return null;
  }
}

/**
 * Records each authenticated request of an organization in its request log (domain/requestLog.ts),
 * bodies redacted. The console's own reads (GETs, and POSTs that change nothing) are left out: it
 * polls every page every few seconds, and a log of them would push out what the user did. What the
 * console changes is logged.
 */
export function requestLogMiddleware(log: RequestLog): MiddlewareHandler<SandboxEnv> {
  return async (c, next) => {
    const startedMs = Date.now();
    const method = c.req.method;
    if (
      c.req.header(CONSOLE_REQUEST_HEADER) !== undefined &&
      (method === "GET" || (method === "POST" && READ_ONLY_POSTS.has(c.req.path)))
    )
      return next();
    // The body limit runs earlier, so this reads at most 1 MB, once; the route reads its own copy.
    const requestText = method === "GET" || method === "DELETE" ? null : await c.req.raw.clone().text();
    await next();
    const type = c.res.headers.get("content-type") ?? "";
    const responseText = type.includes("json") ? await c.res.clone().text() : null;
    const url = new URL(c.req.url);
    log.record(c.get("organizationId"), {
      requestId: c.get("requestId"),
      method,
      path: url.pathname,
      query: url.search.replace(/^\?/, ""),
      status: c.res.status,
      at: new Date(startedMs).toISOString(),
      durationMs: Date.now() - startedMs,
      walletId: walletOfRequest(method, url.pathname, parsed(requestText), parsed(responseText)),
      requestBody: requestText === null || requestText === "" ? null : redactBody(requestText),
      responseBody: responseText === null || responseText === "" ? null : redactBody(responseText),
    });
  };
}
