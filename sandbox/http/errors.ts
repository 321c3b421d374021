import type { Context } from "hono";
import type { SandboxEnv } from "./env.ts";
import { describeFieldProblems, type ErrorCode, type FieldProblem } from "../../sdk/contract/index.ts";
import { DomainError, type DomainErrorKind } from "../domain/errors.ts";

/**
 * The HTTP layer's one error type: what handlers and middleware throw for problems of the request
 * itself (a body that is not JSON, a bad path parameter, a missing token). Domain code throws
 * domain errors (`sandbox/domain/errors.ts`) instead; `toErrorResponse` is the only place that turns
 * either (or any other thrown value) into the JSON error body of docs/spec-gaps.md.
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

/** Any thrown value as an HttpError: domain errors by the table above, anything else a 500. */
export function asHttpError(error: unknown): HttpError | null {
  if (HttpError.isInstance(error)) return error;
  if (DomainError.isInstance(error)) {
    const { status, code } = DOMAIN_ERROR_RESPONSES[error.kind];
    return new HttpError(status, code, error.message, { details: error.details });
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

/** Renders any thrown value as the service's error body. Unknown errors become a 500 and are logged. */
export function toErrorResponse(c: Context<SandboxEnv>, error: unknown): Response {
  const requestId = c.get("requestId") ?? null;
  const known = asHttpError(error);
  if (known === null) console.error(`[sandbox] ${requestId ?? "-"} unhandled error`, error);
  const httpError =
    known ?? new HttpError(500, "internal_error", "the sandbox failed to handle the request; see its log");
  for (const [name, value] of Object.entries(httpError.headers)) c.header(name, value);
  if (httpError.status === 401) c.header("WWW-Authenticate", 'Bearer realm="sandbox"');
  const { message, details } = boundedBody(httpError);
  return c.json({ error: { code: httpError.code, message, requestId, details } }, httpError.status as 400);
}
