import type { MiddlewareHandler } from "hono";
import { SERVICE_OPERATIONS } from "../../sdk/nodejs/contract/index.ts";
import { UUID_PATTERN } from "../../sdk/nodejs/contract/uuid.ts";
import {
  idsMadeBy,
  redactBody,
  redactValue,
  walletOfRequest,
  type RequestLog,
} from "../domain/requestLog.ts";
import type { SandboxEnv } from "./env.ts";
import { CONSOLE_REQUEST_HEADER } from "./ownRequests.ts";

/** POSTs that change nothing (a yield report, a quote), which the console polls like reads. */
const READ_ONLY_POSTS = new Set(
  SERVICE_OPERATIONS.filter((operation) => operation.readOnly === true).map((operation) => operation.path),
);

/**
 * The console's id of an action it sends (a random UUID, api.js), logged with it so that a console
 * that stopped waiting for the answer can find out what became of that very request.
 */
export const CONSOLE_ACTION_HEADER = "x-sandbox-console-action-id";

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
 *
 * What it costs a request is kept small, since every request pays it: the body is read once
 * (Hono keeps the text, and the route's own read gets it from there), parsed once for both the
 * wallet it names and its redaction, and an operation's answer is taken as the value it answered
 * with rather than read back from the response (only other JSON answers, errors, are read back).
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
    // The body limit runs earlier, so this reads at most 1 MB, once.
    const requestText = method === "GET" || method === "DELETE" ? null : await c.req.text();
    await next();
    const request = parsed(requestText);
    let answer: unknown = c.get("answerBody");
    let answerText: string | null = null;
    if (answer === undefined && (c.res.headers.get("content-type") ?? "").includes("json")) {
      answerText = await c.res.clone().text();
      answer = parsed(answerText);
    }
    const url = new URL(c.req.url);
    const kept = (text: string | null, value: unknown) =>
      text === null || text === "" ? null : value === null ? redactBody(text) : redactValue(value);
    log.record(c.get("organizationId"), {
      requestId: c.get("requestId"),
      consoleActionId: actionIdOf(c.req.header(CONSOLE_ACTION_HEADER)),
      method,
      path: url.pathname,
      query: url.search.replace(/^\?/, ""),
      status: c.res.status,
      at: new Date(startedMs).toISOString(),
      durationMs: Date.now() - startedMs,
      walletId: walletOfRequest(method, url.pathname, request, answer ?? null),
      madeIds: idsMadeBy(method, url.pathname, c.res.status, answer ?? null),
      requestBody: kept(requestText, request),
      responseBody:
        c.get("answerBody") !== undefined ? redactValue(answer) : kept(answerText, answer ?? null),
    });
  };
}

/** The action id as sent, lower case, or null when none or not a UUID (nothing else is kept). */
function actionIdOf(sent: string | undefined): string | null {
  const id = sent?.trim().toLowerCase();
  return id !== undefined && UUID_PATTERN.test(id) ? id : null;
}
