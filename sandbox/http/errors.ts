import type { HttpBindings } from "@hono/node-server";
import type { Context } from "hono";
import { HTTPException } from "hono/http-exception";
import type { SandboxEnv } from "./env.ts";
import { describeFieldProblems, type ErrorCode, type FieldProblem } from "../../sdk/nodejs/contract/index.ts";
import { DomainError, type DomainErrorKind } from "../domain/errors.ts";

/**
 * Every thrown value becomes a response here, and only here, in one of two shapes: the service's
 * `{ error: ... }` body (docs/spec-gaps.md), by `toErrorResponse`, and the signing provider's
 * `{ code, message, details }` body that the Turnkey SDK parses, by `toTurnkeyErrorResponse`.
 * Domain code throws domain errors (`sandbox/domain/errors.ts`); each shape maps their kinds in
 * one table.
 */

/**
 * The HTTP layer's one error type: what handlers and middleware throw for problems of the request
 * itself (a body that is not JSON, a bad path parameter, a missing token).
 */
export class HttpError extends Error {
  readonly status: number;
  readonly code: ErrorCode;
  readonly details: FieldProblem[];
  readonly headers: Record<string, string>;

  constructor(
    status: number,
    code: ErrorCode,
    message: string,
    options: { details?: FieldProblem[]; headers?: Record<string, string> } = {},
  ) {
    super(message);
    this.name = "HttpError";
    this.status = status;
    this.code = code;
    this.details = options.details ?? [];
    this.headers = options.headers ?? {};
  }

  /** A 400 naming every bad field; the message repeats them so a log line alone is enough. */
  static validation(problems: FieldProblem[], summary = "the request is invalid"): HttpError {
    return new HttpError(400, "validation_failed", `${summary}: ${describeFieldProblems(problems)}`, {
      details: problems,
    });
  }

  /** Works across two copies of this module (for example a test importing the built package). */
  static isInstance(value: unknown): value is HttpError {
    return (
      value instanceof HttpError || (value instanceof Error && value.name === "HttpError" && "code" in value)
    );
  }
}

/** The status and error code of each kind of domain error: the whole mapping, in one table. */
const DOMAIN_ERROR_RESPONSES: Record<DomainErrorKind, { status: number; code: ErrorCode }> = {
  not_found: { status: 404, code: "not_found" },
  validation: { status: 400, code: "validation_failed" },
  conflict: { status: 409, code: "conflict" },
  idempotency_conflict: { status: 409, code: "idempotency_conflict" },
  insufficient_funds: { status: 422, code: "insufficient_funds" },
};

/** The error code of an HTTP status Hono's own middleware answers with (HTTPException). */
function errorCodeOfStatus(status: number): ErrorCode {
  if (status === 401) return "unauthorized";
  if (status === 403) return "forbidden";
  if (status === 404) return "not_found";
  if (status === 413) return "payload_too_large";
  if (status === 429) return "rate_limited";
  if (status >= 500) return "internal_error";
  return "validation_failed";
}

/**
 * Any thrown value as an HttpError: domain errors by the table above; an HTTPException thrown by
 * Hono's middleware keeps its status; anything else is unknown (null, a 500).
 */
export function asHttpError(error: unknown): HttpError | null {
  if (HttpError.isInstance(error)) return error;
  if (DomainError.isInstance(error)) {
    const { status, code } = DOMAIN_ERROR_RESPONSES[error.kind];
    return new HttpError(status, code, error.message, { details: error.details });
  }
  if (error instanceof HTTPException) {
    const message = error.message === "" ? `the request was refused (HTTP ${error.status})` : error.message;
    return new HttpError(error.status, errorCodeOfStatus(error.status), message);
  }
  return null;
}

/** An error body names at most this many field problems (a note counts the rest)... */
export const MAX_ERROR_DETAILS = 100;
/** ...each reason at most this long, and the message at most this long. */
const MAX_REASON_LENGTH = 500;
const MAX_MESSAGE_LENGTH = 2000;

const cut = (text: string, max: number) =>
  text.length <= max ? text : `${text.slice(0, max - 40)}… (${text.length} characters in all)`;

/**
 * Keeps an error body small whatever the request was: a body of many bad positions, or a huge
 * value quoted somewhere, must not come back several times its own size. Values are quoted short
 * where they are quoted (quoteValue); this is the net under that.
 */
function boundedBody(error: HttpError): { message: string; details: FieldProblem[] } {
  const listed = error.details.slice(0, MAX_ERROR_DETAILS).map((problem) => ({
    ...problem,
    field: cut(problem.field, MAX_REASON_LENGTH),
    reason: cut(problem.reason, MAX_REASON_LENGTH),
  }));
  const unlisted = error.details.length - listed.length;
  const details =
    unlisted > 0 ? [...listed, { field: "(more)", reason: `${unlisted} more problems not listed` }] : listed;
  return { message: cut(error.message, MAX_MESSAGE_LENGTH), details };
}

/**
 * Whether the client went away before its request was whole (it closed the connection mid-body):
 * reading the body then fails, which is no fault of the sandbox. Such a request is answered 400
 * (to no one) and never logged, so a client cannot fill the log by hanging up.
 */
function clientWentAway(c: Context): boolean {
  const incoming = (c.env as Partial<HttpBindings> | undefined)?.incoming;
  if (incoming === undefined) return false;
  return !incoming.complete && (incoming.destroyed || incoming.errored !== null);
}
const CLIENT_WENT_AWAY = "the client closed the connection before the request body was complete";

/**
 * The one log line of an error the sandbox did not expect: its stack on one line, so that the log
 * holds exactly one line per server error.
 */
function logUnhandled(where: string, error: unknown): void {
  const text = error instanceof Error ? (error.stack ?? `${error.name}: ${error.message}`) : String(error);
  const oneLine = text
    .split("\n")
    .map((line) => line.trim())
    .join(" | ");
  console.error(`[sandbox] ${where} unhandled error: ${oneLine}`);
}

/** Renders any thrown value as the service's error body. Unknown errors become a 500 and are logged. */
export function toErrorResponse(c: Context<SandboxEnv>, error: unknown): Response {
  const requestId = c.get("requestId") ?? null;
  const known = clientWentAway(c)
    ? new HttpError(400, "validation_failed", CLIENT_WENT_AWAY)
    : asHttpError(error);
  if (known === null) logUnhandled(requestId ?? "-", error);
  const httpError =
    known ?? new HttpError(500, "internal_error", "the sandbox failed to handle the request; see its log");
  for (const [name, value] of Object.entries(httpError.headers)) c.header(name, value);
  if (httpError.status === 401) c.header("WWW-Authenticate", 'Bearer realm="sandbox"');
  const { message, details } = boundedBody(httpError);
  return c.json({ error: { code: httpError.code, message, requestId, details } }, httpError.status as 400);
}

/**
 * gRPC status codes, as the signing provider (Turnkey) puts them in its error bodies, with the HTTP
 * status its gateway answers for each. The Turnkey SDK turns the body into `TurnkeyRequestError`
 * with `code` set to this number.
 */
export const TURNKEY_CODES = {
  invalidArgument: { code: 3, status: 400 },
  notFound: { code: 5, status: 404 },
  permissionDenied: { code: 7, status: 403 },
  failedPrecondition: { code: 9, status: 400 },
  internal: { code: 13, status: 500 },
  unauthenticated: { code: 16, status: 401 },
} as const;
export type TurnkeyCodeName = keyof typeof TURNKEY_CODES;

/** What the signing-provider handlers throw for problems of the request itself (a bad stamp or body). */
export class TurnkeyHttpError extends Error {
  readonly codeName: TurnkeyCodeName;

  constructor(codeName: TurnkeyCodeName, message: string) {
    super(message);
    this.name = "TurnkeyHttpError";
    this.codeName = codeName;
  }
}

/** The signing provider's code of each kind of domain error: the whole mapping, in one table. */
const DOMAIN_ERROR_TURNKEY_CODES: Record<DomainErrorKind, TurnkeyCodeName> = {
  not_found: "notFound",
  validation: "invalidArgument",
  conflict: "failedPrecondition",
  idempotency_conflict: "failedPrecondition",
  insufficient_funds: "failedPrecondition",
};

const MAX_TURNKEY_MESSAGE_LENGTH = 1000;

/**
 * Renders any thrown value in the signing provider's error shape `{ code, message, details }`
 * (not the service's `{ error: ... }` shape: the Turnkey SDK parses this one). Unknown errors are
 * a 500 and are logged.
 */
export function toTurnkeyErrorResponse(c: Context, error: unknown): Response {
  // A body over the limit is refused in the service's shape, whichever limit refused it (the
  // sandbox's OpenAPI document says so): the HTTP layer's own error, not the provider's.
  if (HttpError.isInstance(error) && !clientWentAway(c))
    return toErrorResponse(c as Context<SandboxEnv>, error);
  const known = clientWentAway(c)
    ? { codeName: "invalidArgument" as const, message: CLIENT_WENT_AWAY }
    : error instanceof TurnkeyHttpError
      ? { codeName: error.codeName, message: error.message }
      : DomainError.isInstance(error)
        ? { codeName: DOMAIN_ERROR_TURNKEY_CODES[error.kind], message: error.message }
        : null;
  if (known === null) logUnhandled("signing provider", error);
  const { code, status } = TURNKEY_CODES[known?.codeName ?? "internal"];
  const full = known?.message ?? "the sandbox's signing provider failed to handle the request; see its log";
  // Messages may quote what the caller sent; an answer stays small whatever that was.
  return c.json({ code, message: cut(full, MAX_TURNKEY_MESSAGE_LENGTH), details: [] }, status);
}
