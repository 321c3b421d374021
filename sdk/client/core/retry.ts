import { ApiAbortError, ApiConnectionError, ApiError, ApiTimeoutError } from "./errors.ts";
import type { HttpMethod } from "./transport.ts";

/** How a client retries; built once from the client options. */
export interface RetryPolicy {
  /** Retries after the first attempt (0 = never retry). */
  maxRetries: number;
  /** Backoff ceiling of the first retry, in milliseconds; doubles on each retry. */
  baseDelayMs: number;
  /** Largest backoff ceiling, in milliseconds. */
  maxDelayMs: number;
  /** Largest wait a `Retry-After` header can impose, in milliseconds. */
  maxRetryAfterMs: number;
  /** Source of jitter in [0, 1); replaceable so tests are deterministic. */
  random: () => number;
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

/**
 * The one retry policy of the client. Runs `attempt` until it succeeds, fails for good, or the
 * attempts run out; waits between attempts with exponential backoff and full jitter, or for as
 * long as the service's `Retry-After` says (capped).
 *
 * Retried: connection errors, timeouts, 408, 429 and 5xx, and only when the request is safe to
 * repeat: GET, HEAD, a POST that only reads, or a mutation carrying a requestId. A mutation without a requestId is never retried: after a timeout or a dropped
 * connection the service may already have applied it, and only the requestId lets the service
 * recognize the repeat and answer with the original result instead of acting twice (a second
 * wallet, a second payout). With a requestId, the same body, hence the same requestId, is sent
 * on every attempt; a fresh key per attempt would defeat the point.
 */
export async function withRetries<T>(
  policy: RetryPolicy,
  request: RetriedRequest,
  attempt: (attemptNumber: number) => Promise<T>,
): Promise<T> {
  const repeatable = isSafeMethod(request.method) || request.readOnly === true || hasRequestId(request.body);
  for (let attemptNumber = 1; ; attemptNumber++) {
    try {
      return await attempt(attemptNumber);
    } catch (error) {
      const retriesLeft = attemptNumber <= policy.maxRetries;
      if (!repeatable || !retriesLeft || !isTransientFailure(error)) throw error;
      const delayMs = retryAfterMs(error, policy) ?? backoffMs(attemptNumber, policy);
      await sleep(delayMs, request);
    }
  }
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

/** Full jitter: a uniform wait between 0 and the exponential ceiling, so clients do not retry in step. */
function backoffMs(attemptNumber: number, policy: RetryPolicy): number {
  const ceiling = Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** (attemptNumber - 1));
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
