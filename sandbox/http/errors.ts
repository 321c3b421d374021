import type { Context } from "hono";
import type { SandboxEnv } from "./env.ts";
import { describeFieldProblems, type ErrorCode, type FieldProblem } from "../../sdk/contract/index.ts";

/**
 * The one error type handlers throw. `toErrorResponse` is the only place that turns it (or any
 * other thrown value) into the JSON error body of docs/spec-gaps.md, so every error looks alike.
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

  static notFound(what: string): HttpError {
    return new HttpError(404, "not_found", `${what} was not found`);
  }

  /** Works across two copies of this module (for example a test importing the built package). */
  static isInstance(value: unknown): value is HttpError {
    return (
      value instanceof HttpError || (value instanceof Error && value.name === "HttpError" && "code" in value)
    );
  }
}

/** Renders any thrown value as the service's error body. Unknown errors become a 500 and are logged. */
export function toErrorResponse(c: Context<SandboxEnv>, error: unknown): Response {
  const requestId = c.get("requestId") ?? null;
  const httpError = HttpError.isInstance(error)
    ? error
    : new HttpError(500, "internal_error", "the sandbox failed to handle the request; see its log");
  if (!HttpError.isInstance(error)) console.error(`[sandbox] ${requestId ?? "-"} unhandled error`, error);
  for (const [name, value] of Object.entries(httpError.headers)) c.header(name, value);
  if (httpError.status === 401) c.header("WWW-Authenticate", 'Bearer realm="sandbox"');
  return c.json(
    {
      error: {
        code: httpError.code,
        message: httpError.message,
        requestId,
        details: httpError.details,
      },
    },
    httpError.status as 400,
  );
}
