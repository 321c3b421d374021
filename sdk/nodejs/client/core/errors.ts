import { describeFieldProblems, type FieldProblem } from "../../contract/index.ts";
import { API_TOKEN_ENV, BASE_URL_ENV } from "./environment.ts";

/**
 * Brand carried by every error of this client. `Symbol.for` returns the same symbol in every copy
 * of the package loaded into one process, so `isInstance` works where `instanceof` does not (two
 * versions of the SDK in node_modules, a provider plugin and its host, vitest module isolation).
 */
const ERROR_KINDS = Symbol.for("@portfolio-wallet/client.errorKinds");

type BrandedClass<T> = (abstract new (...args: never[]) => T) & { readonly brandName: string };

/** Base of every error this client throws. */
export class PortfolioWalletError extends Error {
  /** Stable name checked by `isInstance`; each subclass sets its own. */
  static readonly brandName: string = "PortfolioWalletError";

  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    // The kinds are gathered from the class chain once, so a subclass only has to set brandName.
    const kinds: string[] = [];
    for (
      let c: unknown = new.target;
      typeof c === "function" && "brandName" in c;
      c = Object.getPrototypeOf(c)
    ) {
      kinds.push((c as { brandName: string }).brandName);
    }
    Object.defineProperty(this, ERROR_KINDS, { value: Object.freeze(kinds), enumerable: false });
    this.name = new.target.brandName;
  }

  /**
   * True when `value` is an instance of this class or a subclass, even if it was created by
   * another copy of this package.
   */
  static isInstance<T>(this: BrandedClass<T>, value: unknown): value is T {
    if (typeof value !== "object" || value === null) return false;
    const kinds = (value as { [ERROR_KINDS]?: unknown })[ERROR_KINDS];
    return Array.isArray(kinds) && kinds.includes(this.brandName);
  }
}

/**
 * A request body that breaks the contract (weights not summing to 10000, an empty positionKey, an
 * id that is not a UUID, ...). Found before anything is sent: no invalid body leaves the process.
 * `details` lists every problem, each with the path of its field.
 */
export class InvalidRequestError extends PortfolioWalletError {
  static override readonly brandName: string = "InvalidRequestError";
  /** What is wrong, one entry per field, such as `{ field: "positions", reason: "..." }`. */
  readonly details: readonly FieldProblem[];

  constructor(method: string, path: string, details: FieldProblem[]) {
    super(
      `${method} ${path} was not sent: the request body is invalid (${describeFieldProblems(details)}). ` +
        "Fix the listed fields and call again.",
    );
    this.details = details;
  }
}

/**
 * A 2xx answer whose body does not match the contract (not JSON, or a required field missing or
 * of the wrong type). Unknown extra fields never cause this; see sdk/nodejs/contract.
 */
export class InvalidResponseError extends PortfolioWalletError {
  static override readonly brandName: string = "InvalidResponseError";
  /** HTTP status of the answer. */
  readonly status: number;
  /** The service's id of the request, from the `x-request-id` header, when sent. */
  readonly requestId: string | undefined;
  /** What did not match, one entry per field. */
  readonly details: readonly FieldProblem[];

  constructor(init: {
    method: string;
    path: string;
    status: number;
    requestId?: string;
    details: FieldProblem[];
  }) {
    super(
      `${init.method} ${init.path} answered ${init.status} with a body this client cannot read ` +
        `(${describeFieldProblems(init.details)}). The service and this client disagree on the contract; ` +
        `upgrade the client or report it with the request id ${init.requestId ?? "(none sent)"}.`,
    );
    this.status = init.status;
    this.requestId = init.requestId;
    this.details = init.details;
  }
}

/** The caller's AbortSignal fired. Never retried; `cause` holds the signal's reason. */
export class ApiAbortError extends PortfolioWalletError {
  static override readonly brandName: string = "ApiAbortError";

  constructor(method: string, path: string, reason: unknown) {
    super(`${method} ${path} was aborted by the caller's AbortSignal.`, { cause: reason });
  }
}

/** The request never got an HTTP answer (DNS, refused, reset, TLS). Has no status. */
export class ApiConnectionError extends PortfolioWalletError {
  static override readonly brandName: string = "ApiConnectionError";
  /** What went wrong with the connection (the transport's message, such as `ECONNREFUSED`). */
  readonly reason: string;

  constructor(method: string, url: string, cause: unknown, attempts: number) {
    const reason = connectionFailureOf(cause);
    super(
      `${method} ${url} could not reach the service after ${attempts} attempt(s): ${reason}. ` +
        `Check the base URL (the client's baseUrl option or ${BASE_URL_ENV}) and the network.`,
      { cause },
    );
    this.reason = reason;
  }
}

/** The most telling words of a transport failure: undici hides the socket's error code in `cause`. */
function connectionFailureOf(cause: unknown): string {
  const message = cause instanceof Error ? cause.message : String(cause);
  const inner =
    cause instanceof Error ? (cause.cause as { code?: unknown; message?: unknown } | undefined) : undefined;
  const code = typeof inner?.code === "string" ? inner.code : undefined;
  return code !== undefined && !message.includes(code) ? `${message} (${code})` : message;
}

/** No answer within `timeoutMs` (per attempt). Has no status. */
export class ApiTimeoutError extends PortfolioWalletError {
  static override readonly brandName: string = "ApiTimeoutError";
  /** The per-attempt timeout that ran out, in milliseconds. */
  readonly timeoutMs: number;

  constructor(method: string, url: string, timeoutMs: number, attempts: number) {
    super(
      `${method} ${url} got no answer within ${timeoutMs} ms (${attempts} attempt(s)). ` +
        `Raise timeoutMs or maxRetries, or check that the service is healthy.`,
    );
    this.timeoutMs = timeoutMs;
  }
}

/** What an ApiError is built from: the parsed error body and the answer around it. */
export interface ApiErrorInit {
  method: string;
  path: string;
  status: number;
  code: string | undefined;
  serviceMessage: string | undefined;
  requestId: string | undefined;
  details: FieldProblem[];
  headers: Readonly<Record<string, string>>;
}

/** A non-2xx answer from the service. Pick a subclass with `apiErrorFor`, never by hand. */
export class ApiError extends PortfolioWalletError {
  static override readonly brandName: string = "ApiError";
  /** What to do about an error of this class; appended to the message. */
  protected static readonly hint: string =
    "See the status and code, and retry later if the service is degraded.";
  /** HTTP status code. */
  readonly status: number;
  /** The service's error code, such as `validation_failed`; undefined when the body had none. */
  readonly code: string | undefined;
  /** The service's own message, without this client's advice; undefined when the body had none. */
  readonly serviceMessage: string | undefined;
  /** The service's id of the failed request (body `error.requestId` or the `x-request-id` header). */
  readonly requestId: string | undefined;
  /** Field-level problems, such as `{ field: "positions[1].targetWeightBps", reason }`. */
  readonly details: readonly FieldProblem[];
  /** Response headers, lower-cased. */
  readonly headers: Readonly<Record<string, string>>;

  constructor(init: ApiErrorInit) {
    const hint = (new.target as unknown as { hint: string }).hint;
    // Trailing periods are dropped so the composed message reads as one sentence per part.
    const what = (init.serviceMessage ?? "no error message in the body").replace(/\.+$/, "");
    const fields = init.details.length > 0 ? ` Problems: ${describeFieldProblems(init.details)}.` : "";
    const id = init.requestId ? ` (service request id ${init.requestId})` : "";
    const code = init.code ? ` ${init.code}` : "";
    super(`${init.method} ${init.path} failed with ${init.status}${code}: ${what}.${fields} ${hint}${id}`);
    this.status = init.status;
    this.code = init.code;
    this.serviceMessage = init.serviceMessage;
    this.requestId = init.requestId;
    this.details = init.details;
    this.headers = init.headers;
  }
}

/** 400: the request was malformed or a field was invalid. */
export class BadRequestError extends ApiError {
  static override readonly brandName: string = "BadRequestError";
  protected static override readonly hint: string = "Fix the request body or query and send it again.";
}

/** 400 with code `validation_failed`: `details` lists every invalid field. */
export class ValidationError extends BadRequestError {
  static override readonly brandName: string = "ValidationError";
  protected static override readonly hint: string =
    "Fix the listed fields (weights must sum to exactly 10000 bps, positionKeys must come from the catalog, ids are UUIDs).";
}

/** 401: the API token is missing or invalid. */
export class AuthenticationError extends ApiError {
  static override readonly brandName: string = "AuthenticationError";
  protected static override readonly hint: string = `Check the API token (the client's apiToken option or ${API_TOKEN_ENV}).`;
}

/** 403: the token is valid but may not do this. */
export class PermissionDeniedError extends ApiError {
  static override readonly brandName: string = "PermissionDeniedError";
  protected static override readonly hint: string =
    "The API token is not allowed to do this; use a token of the organization that owns the resource.";
}

/** 404: no such resource for this organization. */
export class NotFoundError extends ApiError {
  static override readonly brandName: string = "NotFoundError";
  protected static override readonly hint: string =
    "Check the id, and that the resource belongs to the organization of the API token.";
}

/** 409: the request conflicts with the resource's current state. */
export class ConflictError extends ApiError {
  static override readonly brandName: string = "ConflictError";
  protected static override readonly hint: string = "Read the resource's current state and decide again.";
}

/** 409 with code `idempotency_conflict`: the requestId was already used with a different body. */
export class IdempotencyConflictError extends ConflictError {
  static override readonly brandName: string = "IdempotencyConflictError";
  protected static override readonly hint: string =
    "Use a new requestId for a different request, or resend the original body unchanged.";
}

/** 422: well-formed but not possible, for example `insufficient_funds`. */
export class UnprocessableEntityError extends ApiError {
  static override readonly brandName: string = "UnprocessableEntityError";
  protected static override readonly hint: string =
    "The request is valid but cannot be carried out now (check the balance and amounts).";
}

/** 429: too many requests; `headers["retry-after"]` says when to try again. */
export class RateLimitError extends ApiError {
  static override readonly brandName: string = "RateLimitError";
  protected static override readonly hint: string =
    "Slow down and retry after the Retry-After delay, or raise maxRetries.";
}

/** 5xx: the service failed. Safe to retry with the same requestId. */
export class InternalServerError extends ApiError {
  static override readonly brandName: string = "InternalServerError";
  protected static override readonly hint: string =
    "The service failed; retry later with the same requestId (it is safe), or raise maxRetries.";
}

/** The one place that turns a status (and service code) into an error class. */
export function apiErrorFor(init: ApiErrorInit): ApiError {
  switch (init.status) {
    case 400:
      return init.code === "validation_failed" ? new ValidationError(init) : new BadRequestError(init);
    case 401:
      return new AuthenticationError(init);
    case 403:
      return new PermissionDeniedError(init);
    case 404:
      return new NotFoundError(init);
    case 409:
      return init.code === "idempotency_conflict"
        ? new IdempotencyConflictError(init)
        : new ConflictError(init);
    case 422:
      return new UnprocessableEntityError(init);
    case 429:
      return new RateLimitError(init);
    default:
      return init.status >= 500 ? new InternalServerError(init) : new ApiError(init);
  }
}
