import { ApiAbortError, ApiConnectionError, ApiError, ApiTimeoutError } from "./errors.ts";
import type { HttpMethod } from "./transport.ts";

/** How a client retries; built once from the client options. */
export interface RetryPolicy {
  /** Retries after the first attempt (0 = never retry; Infinity = until `budgetMs` runs out). */
  maxRetries: number;
  /**
   * Time, in milliseconds from the first attempt, within which a retry may still start; undefined
   * for no time bound (then `maxRetries` alone bounds the call). A wait that would end past it is
   * not begun: the call fails at once with the last answer, rather than sleeping only to give up.
   */
  budgetMs: number | undefined;
  /** Backoff ceiling of the first retry, in milliseconds; doubles on each retry. */
  baseDelayMs: number;
  /** Largest backoff ceiling, in milliseconds. */
  maxDelayMs: number;
  /** Largest wait a `Retry-After` header can impose, in milliseconds. */
  maxRetryAfterMs: number;
  /** Source of jitter in [0, 1); replaceable so tests are deterministic. */
  random: () => number;
  /** Told before each wait, so a caller can say what it is waiting for (a pipeline's log). */
  onRetry: ((notice: RetryNotice) => void) | undefined;
}

/** One retry about to happen: which request, what went wrong, and how long the wait is. */
export interface RetryNotice {
  method: HttpMethod;
  path: string;
  /** The attempt that just failed (1 for the first). */
  failedAttempt: number;
  /** What that attempt met, in a few words (`429 rate_limited`, `no connection: ECONNRESET`). */
  failure: string;
  /** The wait before the next attempt, in milliseconds. */
  delayMs: number;
  /** Whether the wait is the service's `Retry-After` rather than the client's own backoff. */
  serviceAskedForDelay: boolean;
  /** Time since the first attempt began, in milliseconds. */
  elapsedMs: number;
  /** The policy's time budget, when it has one. */
  budgetMs: number | undefined;
}

/** What the retry loop had done when it gave up: read it from an error with `retryHistoryOf`. */
export interface RetryHistory {
  method: HttpMethod;
  path: string;
  /** Attempts made, the failed last one included. */
  attempts: number;
  /** Time from the first attempt's start to giving up, in milliseconds. */
  elapsedMs: number;
  /** The policy's time budget, when it had one. */
  budgetMs: number | undefined;
  /** Whether the request was one the retry loop may repeat (a read, or a mutation carrying a requestId). */
  repeatable: boolean;
}

/** What the retry loop needs to know about the request it repeats. */
export interface RetriedRequest {
  method: HttpMethod;
  path: string;
  /** The parsed request body; its `requestId` decides whether a mutation may be retried. */
  body: unknown;
  /** A POST that only reads (a quote, a yield report): as safe to repeat as a GET. */
  readOnly?: boolean | undefined;
  signal: AbortSignal | undefined;
}

const RETRY_HISTORY = Symbol.for("@portfolio-wallet/client.retryHistory");

/**
 * The retry history of an error that ended a call after transient failures (connection errors,
 * timeouts, 408, 429, 5xx), found on the error or anywhere on its `cause` chain; undefined for any
 * other error. A caller that retries on its own terms, such as the Pulumi provider, words its
 * message from it.
 */
export function retryHistoryOf(error: unknown): RetryHistory | undefined {
  for (let e: unknown = error, depth = 0; e !== null && typeof e === "object" && depth < 8; depth++) {
    const history = (e as { [RETRY_HISTORY]?: RetryHistory })[RETRY_HISTORY];
    if (history !== undefined) return history;
    e = (e as { cause?: unknown }).cause;
  }
  return undefined;
}

/**
 * The one retry policy of the client. Runs `attempt` until it succeeds, fails for good, or the
 * attempts or the time budget run out; waits between attempts with exponential backoff and full
 * jitter, or for as long as the service's `Retry-After` says (capped).
 *
 * Retried: connection errors, timeouts, 408, 429 and 5xx, and only when the request is safe to
 * repeat: GET, HEAD, a POST that only reads, or a mutation carrying a requestId. A mutation
 * without a requestId is never retried: after a timeout or a dropped connection the service may
 * already have applied it, and only the requestId lets the service recognize the repeat and
 * answer with the original result instead of acting twice (a second wallet, a second payout).
 * With a requestId, the same body, hence the same requestId, is sent on every attempt; a fresh
 * key per attempt would defeat the point.
 */
export async function withRetries<T>(
  policy: RetryPolicy,
  request: RetriedRequest,
  attempt: (attemptNumber: number) => Promise<T>,
): Promise<T> {
  const repeatable = isSafeMethod(request.method) || request.readOnly === true || hasRequestId(request.body);
  const startedAt = performance.now();
  for (let attemptNumber = 1; ; attemptNumber++) {
    try {
      return await attempt(attemptNumber);
    } catch (error) {
      if (!isTransientFailure(error)) throw error;
      const elapsedMs = performance.now() - startedAt;
      const asked = retryAfterMs(error, policy);
      const remainingMs = policy.budgetMs === undefined ? Infinity : policy.budgetMs - elapsedMs;
      // The client's own backoff shrinks to fit the budget; a wait the service asked for does not.
      const delayMs = asked ?? Math.min(backoffMs(attemptNumber, policy), Math.max(0, remainingMs));
      const retriesLeft = attemptNumber <= policy.maxRetries;
      if (!repeatable || !retriesLeft || remainingMs <= 0 || delayMs > remainingMs) {
        throw withHistory(error, {
          method: request.method,
          path: request.path,
          attempts: attemptNumber,
          elapsedMs,
          budgetMs: policy.budgetMs,
          repeatable,
        });
      }
      policy.onRetry?.({
        method: request.method,
        path: request.path,
        failedAttempt: attemptNumber,
        failure: describeTransientFailure(error),
        delayMs,
        serviceAskedForDelay: asked !== undefined,
        elapsedMs,
        budgetMs: policy.budgetMs,
      });
      await sleep(delayMs, request);
    }
  }
}

function withHistory(error: unknown, history: RetryHistory): unknown {
  if (typeof error === "object" && error !== null) {
    Object.defineProperty(error, RETRY_HISTORY, { value: Object.freeze(history), enumerable: false });
  }
  return error;
}

function isSafeMethod(method: HttpMethod): boolean {
  return method === "GET" || method === "HEAD";
}

function hasRequestId(body: unknown): boolean {
  if (typeof body !== "object" || body === null || !("requestId" in body)) return false;
  return typeof body.requestId === "string" && body.requestId !== "";
}

function isTransientFailure(error: unknown): boolean {
  if (ApiConnectionError.isInstance(error) || ApiTimeoutError.isInstance(error)) return true;
  if (!ApiError.isInstance(error)) return false;
  return error.status === 408 || error.status === 429 || error.status >= 500;
}

/**
 * A transient failure in a few words, for a log line or a final message: the status and the
 * service's code and message, or what happened to the connection. Never a hint about client
 * options, which a caller with its own settings (the provider) would not have.
 */
export function describeTransientFailure(error: unknown): string {
  if (ApiError.isInstance(error)) {
    const code = error.code === undefined ? "" : ` ${error.code}`;
    const message = error.serviceMessage === undefined ? "" : ` (${error.serviceMessage})`;
    return `${error.status}${code}${message}`;
  }
  if (ApiTimeoutError.isInstance(error)) return `no answer within ${error.timeoutMs} ms`;
  if (ApiConnectionError.isInstance(error)) return `no connection: ${error.reason}`;
  return error instanceof Error ? error.message : String(error);
}

/** Full jitter: a uniform wait between 0 and the exponential ceiling, so clients do not retry in step. */
function backoffMs(attemptNumber: number, policy: RetryPolicy): number {
  const ceiling = Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** Math.min(attemptNumber - 1, 30));
  return Math.floor(policy.random() * ceiling);
}

/** The wait the service asked for (delta-seconds or HTTP date), capped; undefined when none or unreadable. */
function retryAfterMs(error: unknown, policy: RetryPolicy): number | undefined {
  if (!ApiError.isInstance(error)) return undefined;
  const header = error.headers["retry-after"]?.trim();
  if (!header) return undefined;
  let waitMs: number;
  if (/^\d+(\.\d+)?$/.test(header)) {
    waitMs = Number(header) * 1000;
  } else {
    const at = Date.parse(header);
    if (Number.isNaN(at)) return undefined;
    waitMs = Math.max(0, at - Date.now());
  }
  return Math.min(waitMs, policy.maxRetryAfterMs);
}

/** Waits, but gives up at once when the caller aborts: an abort is never retried. */
function sleep(ms: number, request: RetriedRequest): Promise<void> {
  const { signal } = request;
  return new Promise((resolve, reject) => {
    const abort = () => {
      clearTimeout(timer);
      reject(new ApiAbortError(request.method, request.path, signal?.reason));
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener("abort", abort);
      resolve();
    }, ms);
    if (signal?.aborted) abort();
    else signal?.addEventListener("abort", abort, { once: true });
  });
}
