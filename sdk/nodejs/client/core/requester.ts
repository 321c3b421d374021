import type { z } from "zod";
import {
  ErrorBodySchema,
  fieldProblemsOf,
  safeParseInContractWording,
  type ApiOperation,
  type OperationMethod,
  type PathParamsOf,
  type QueryOf,
  type RequestBodyOf,
  type SuccessBodyOf,
} from "../../contract/index.ts";
import {
  ApiAbortError,
  ApiConnectionError,
  ApiTimeoutError,
  InvalidRequestError,
  InvalidResponseError,
  PortfolioWalletError,
  apiErrorFor,
} from "./errors.ts";
import type { AdaptiveConcurrencyLimiter, PermitOutcome } from "./concurrencyLimiter.ts";
import { withRetries, type RetryPolicy } from "./retry.ts";
import type { HttpMethod, Transport, TransportResponse } from "./transport.ts";

/** Per-call options, the last argument of every resource method. */
export interface RequestOptions {
  /** Aborts the call (all attempts and the waits between them); surfaces as `ApiAbortError`. */
  signal?: AbortSignal;
  /** Overrides the client's per-attempt timeout, in milliseconds. */
  timeoutMs?: number;
  /** Overrides the client's retry count for this call. */
  maxRetries?: number;
}

/** One call to the service, as a resource method describes it. */
export interface RequestSpec<T> {
  method: HttpMethod;
  /** Path below the base URL, starting with `/`, ids already encoded (see `pathSegment`). */
  path: string;
  query?: Readonly<Record<string, string | number | undefined>>;
  /** JSON body; sent byte-for-byte the same on every attempt. */
  body?: unknown;
  /**
   * Contract schema of the body. Every method that sends a body names one: the body is checked
   * before the first attempt and, when invalid, never sent (InvalidRequestError).
   */
  requestSchema?: z.ZodType;
  /** True for a POST that changes nothing (quote, yield report), so it is retried like a GET. */
  readOnly?: boolean;
  /** Contract schema of a 2xx body; omit for answers without a body (204). */
  schema?: z.ZodType<T>;
  options?: RequestOptions | undefined;
}

/**
 * One call of an operation of the contract's table, as a resource method makes it: the values of
 * the path's parameters (already encoded, see `pathSegment`), the query and the body, each typed by
 * the operation's entry.
 */
export type OperationCall<O extends ApiOperation> = {
  options?: RequestOptions | undefined;
} & (PathParamsOf<O> extends undefined ? unknown : { path: { [K in keyof PathParamsOf<O>]: string } }) &
  (QueryOf<O> extends undefined ? unknown : { query: QueryOf<O> }) &
  (O extends { body: object } ? { body: RequestBodyOf<O> } : unknown);

const HTTP_METHODS: Readonly<Record<OperationMethod, HttpMethod>> = {
  get: "GET",
  post: "POST",
  put: "PUT",
  patch: "PATCH",
  delete: "DELETE",
};

/**
 * The schema of an operation's success answers. Its success statuses share one shape in the table
 * (a replay answers what the creation did), so the first one with a body is the one; none for 204.
 */
function successSchemaOf(operation: ApiOperation): z.ZodType | undefined {
  return Object.entries(operation.responses).find(
    ([status, response]) => status.startsWith("2") && response.schema,
  )?.[1].schema;
}

/** Everything the requester needs, resolved once by the client. */
export interface RequesterConfig {
  baseUrl: URL;
  apiToken: string;
  timeoutMs: number;
  retryPolicy: RetryPolicy;
  /** Bounds the requests in flight when the service throttles; undefined for no bound. */
  concurrencyLimiter: AdaptiveConcurrencyLimiter | undefined;
  transport: Transport;
  userAgent: string;
}

/**
 * Sends calls to the service: builds the request, runs it under the retry policy with a
 * per-attempt timeout, maps failures to the error hierarchy and parses answers with the
 * contract. Internal; the token lives in a private field so it is never enumerated or logged.
 */
export class Requester {
  readonly #config: RequesterConfig;
  #closed = false;

  constructor(config: RequesterConfig) {
    this.#config = config;
  }

  /** Stops new calls; the client closes the transport. */
  markClosed(): void {
    this.#closed = true;
  }

  /** Calls `operation` of the contract's table: its method, path template and schemas come from the entry. */
  async send<O extends ApiOperation>(operation: O, call: OperationCall<O>): Promise<SuccessBodyOf<O>> {
    const {
      path: values,
      query,
      body,
    } = call as {
      path?: Readonly<Record<string, string>>;
      query?: Readonly<Record<string, string | number | undefined>>;
      body?: unknown;
    };
    const path = operation.path.replace(/\{(\w+)\}/g, (_template, name: string) => values?.[name] ?? "");
    return (await this.request({
      method: HTTP_METHODS[operation.method],
      path,
      query,
      body,
      requestSchema: operation.body?.schema,
      readOnly: operation.readOnly,
      schema: successSchemaOf(operation),
      options: call.options,
    })) as SuccessBodyOf<O>;
  }

  async request<T>(spec: RequestSpec<T>): Promise<T> {
    if (this.#closed) {
      throw new PortfolioWalletError(
        "This PortfolioWalletClient is closed; create a new client to send requests.",
      );
    }
    if (spec.requestSchema !== undefined) {
      // Strict in what it writes: the contract's request rules (sums, uuids, non-empty keys) hold
      // before anything leaves the process, whatever the service would answer (spec 7.3).
      const checked = safeParseInContractWording(spec.requestSchema, spec.body);
      if (!checked.success) {
        throw new InvalidRequestError(spec.method, spec.path, fieldProblemsOf(checked.error));
      }
    }
    const url = this.#urlOf(spec);
    const headers: Record<string, string> = {
      accept: "application/json",
      authorization: `Bearer ${this.#config.apiToken}`,
      "user-agent": this.#config.userAgent,
    };
    // Serialized once, so every attempt carries the very same requestId.
    const body = spec.body === undefined ? undefined : JSON.stringify(spec.body);
    if (body !== undefined) headers["content-type"] = "application/json";
    const policy =
      spec.options?.maxRetries === undefined
        ? this.#config.retryPolicy
        : { ...this.#config.retryPolicy, maxRetries: spec.options.maxRetries };
    const timeoutMs = spec.options?.timeoutMs ?? this.#config.timeoutMs;
    const signal = spec.options?.signal;

    const response = await withRetries(
      policy,
      { method: spec.method, path: spec.path, body: spec.body, readOnly: spec.readOnly, signal },
      async (attemptNumber) => {
        const permit = await this.#config.concurrencyLimiter?.acquire(spec.method, spec.path, signal);
        let outcome: PermitOutcome = "unknown";
        try {
          const answer = await this.#attempt(spec, url, headers, body, timeoutMs, attemptNumber);
          outcome = outcomeOf(answer.status);
          if (answer.status >= 200 && answer.status < 300) return answer;
          throw errorOf(spec, answer);
        } finally {
          permit?.release(outcome);
        }
      },
    );
    return parseBody(spec, response);
  }

  #urlOf(spec: RequestSpec<unknown>): URL {
    const url = new URL(this.#config.baseUrl);
    url.pathname = url.pathname.replace(/\/+$/, "") + spec.path;
    for (const [name, value] of Object.entries(spec.query ?? {})) {
      if (value !== undefined) url.searchParams.set(name, String(value));
    }
    return url;
  }

  /** One HTTP exchange, bounded by the timeout and the caller's signal. */
  async #attempt(
    spec: RequestSpec<unknown>,
    url: URL,
    headers: Record<string, string>,
    body: string | undefined,
    timeoutMs: number,
    attemptNumber: number,
  ): Promise<TransportResponse> {
    const callerSignal = spec.options?.signal;
    if (callerSignal?.aborted) throw new ApiAbortError(spec.method, spec.path, callerSignal.reason);
    const controller = new AbortController();
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      controller.abort(new Error(`timed out after ${timeoutMs} ms`));
    }, timeoutMs);
    const onCallerAbort = () => controller.abort(callerSignal?.reason);
    callerSignal?.addEventListener("abort", onCallerAbort, { once: true });
    try {
      return await this.#config.transport.makeRequest({
        method: spec.method,
        url,
        headers,
        ...(body === undefined ? {} : { body }),
        signal: controller.signal,
      });
    } catch (cause) {
      if (callerSignal?.aborted) throw new ApiAbortError(spec.method, spec.path, callerSignal.reason);
      const where = `${url.origin}${spec.path}`;
      if (timedOut) throw new ApiTimeoutError(spec.method, where, timeoutMs, attemptNumber);
      throw new ApiConnectionError(spec.method, where, cause, attemptNumber);
    } finally {
      clearTimeout(timer);
      callerSignal?.removeEventListener("abort", onCallerAbort);
    }
  }
}

/** What an answer tells the concurrency limiter: 429 and 503 ask to slow down; other 5xx say nothing about load. */
function outcomeOf(status: number): PermitOutcome {
  if (status === 429 || status === 503) return "throttled";
  return status >= 500 ? "unknown" : "succeeded";
}

/** Builds the ApiError of a non-2xx answer from the error body the spec-gaps page fixes. */
function errorOf(spec: RequestSpec<unknown>, response: TransportResponse) {
  const parsed = ErrorBodySchema.safeParse(tryJson(response.body));
  const error = parsed.success ? parsed.data.error : undefined;
  return apiErrorFor({
    method: spec.method,
    path: spec.path,
    status: response.status,
    code: error?.code,
    serviceMessage:
      error?.message ??
      `the body was not the service's error JSON (content-type ${response.headers["content-type"] ?? "none"})`,
    requestId: error?.requestId ?? response.headers["x-request-id"],
    details: error?.details ?? [],
    headers: response.headers,
  });
}

function parseBody<T>(spec: RequestSpec<T>, response: TransportResponse): T {
  if (spec.schema === undefined) return undefined as T;
  const fail = (details: { field: string; reason: string }[]) =>
    new InvalidResponseError({
      method: spec.method,
      path: spec.path,
      status: response.status,
      ...(response.headers["x-request-id"] ? { requestId: response.headers["x-request-id"] } : {}),
      details,
    });
  const json = tryJson(response.body);
  if (json === undefined) throw fail([{ field: "(body)", reason: "is not JSON" }]);
  const parsed = spec.schema.safeParse(json);
  if (!parsed.success) throw fail(fieldProblemsOf(parsed.error));
  return parsed.data;
}

function tryJson(text: string): unknown {
  if (text === "") return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}
