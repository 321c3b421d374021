import type { ErrorCode } from "../../sdk/nodejs/contract/index.ts";
import type { FairTurns } from "./fairTurns.ts";
import type { FaultRegistry } from "./faults.ts";
import type { RateLimiter } from "./rateLimits.ts";
import type { RequestCounter } from "./requestCounter.ts";

/**
 * What the emulated service does with an API request before any handler sees it: it counts the
 * request, may refuse it under its rate limit, may answer with a fault a test armed, and serves
 * the organizations in turns. These are behaviours of the service, not of HTTP: the functions here
 * say what happens to a request, and the HTTP layer (sandbox/http/emulationMiddleware.ts) only
 * reads the request for them and turns their answers into responses.
 */

/** An answer the service gives in place of handling the request: nothing of the request is applied. */
export interface ServiceRefusal {
  status: number;
  code: ErrorCode;
  message: string;
  /** Sent as `Retry-After`, in whole seconds; undefined: the answer carries none. */
  retryAfterSeconds: number | undefined;
}

/** The parts of the sandbox the emulation reads and updates (SandboxContext has them all). */
export interface ServiceEmulationDeps {
  requestCounter: RequestCounter;
  rateLimiter: RateLimiter;
  fairTurns: FairTurns;
  faults: FaultRegistry;
}

/**
 * Counts the request under `operation` (its method and route pattern, `GET
 * /v2/portfolio-wallets/:id`) and holds it in flight until `handle` has answered or thrown: what a
 * client's concurrency looks like from the service.
 */
export async function countWhileInFlight(
  counter: RequestCounter,
  organizationId: string,
  operation: string,
  handle: () => Promise<void>,
): Promise<void> {
  counter.record(organizationId, operation);
  counter.enter(organizationId);
  try {
    await handle();
  } finally {
    counter.leave(organizationId);
  }
}

/**
 * The service's rate limit (domain/rateLimits.ts) on one request at `nowMs`: null when it may go
 * on, else the 429 it gets, counted as rate limited.
 */
export function rateLimitRefusal(
  deps: Pick<ServiceEmulationDeps, "rateLimiter" | "requestCounter">,
  organizationId: string,
  nowMs: number,
): ServiceRefusal | null {
  const retryAfterSeconds = deps.rateLimiter.take(organizationId, nowMs);
  if (retryAfterSeconds === null) return null;
  deps.requestCounter.recordRateLimited(organizationId);
  const limit = deps.rateLimiter.limitOf(organizationId);
  return {
    status: 429,
    code: "rate_limited",
    message: `rate limit: this organization may send ${limit?.requestsPerSecond ?? 0} requests per second (bursts of ${limit?.burst ?? 0}); nothing was applied. Retry after the Retry-After delay`,
    retryAfterSeconds,
  };
}

/**
 * The request's turn among the organizations' (domain/fairTurns.ts): null to start now, a promise
 * that resolves when its turn comes, or the 429 it gets when its organization's queue is full
 * (counted as rate limited).
 */
export function turnOf(
  deps: Pick<ServiceEmulationDeps, "fairTurns" | "requestCounter">,
  organizationId: string,
): Promise<void> | ServiceRefusal | null {
  const entry = deps.fairTurns.enter(organizationId);
  if (entry === null || !("refused" in entry)) return entry;
  deps.requestCounter.recordRateLimited(organizationId);
  return {
    status: 429,
    code: "rate_limited",
    message: `this organization already has ${entry.refused.waiting} requests waiting for their turn at the sandbox, which serves every organization in turns; nothing was applied. Send fewer at once, and retry after the Retry-After delay`,
    retryAfterSeconds: 1,
  };
}

/**
 * What an injected fault does to the request: answer in its place (nothing applied), wait before
 * it is handled, or let it be applied and then close the connection without an answer.
 */
export type InjectedFault =
  { kind: "refuse"; refusal: ServiceRefusal } | { kind: "delay"; delayMs: number } | { kind: "drop" };

const statusCodeOf = (status: number): ErrorCode =>
  status === 429 ? "rate_limited" : status >= 502 ? "unavailable" : "internal_error";

/** The first armed fault matching the request (domain/faults.ts), one use of it taken; null if none. */
export function injectedFaultOf(
  deps: Pick<ServiceEmulationDeps, "faults" | "requestCounter">,
  organizationId: string,
  method: string,
  path: string,
): InjectedFault | null {
  const inFlight = deps.requestCounter.inFlight(organizationId).now;
  const fault = deps.faults.takeHttpFault(organizationId, method, path, inFlight);
  if (fault === null) return null;
  switch (fault.kind) {
    case "status":
      return {
        kind: "refuse",
        refusal: {
          status: fault.status,
          code: statusCodeOf(fault.status),
          message: `injected fault: the sandbox answered ${fault.status} without applying the request`,
          retryAfterSeconds: fault.retryAfterSeconds ?? (fault.status === 429 ? 1 : undefined),
        },
      };
    case "concurrency":
      return {
        kind: "refuse",
        refusal: {
          status: 429,
          code: "rate_limited",
          message:
            `injected fault: ${inFlight} requests of this organization in flight, more than the ${fault.maxInFlight} ` +
            "allowed; nothing was applied. Retry after the Retry-After delay",
          retryAfterSeconds: fault.retryAfterSeconds ?? 1,
        },
      };
    case "delay":
      return { kind: "delay", delayMs: fault.delayMs };
    case "drop":
      // The request is applied, then the client sees the connection close with no answer: the
      // case an idempotent retry must survive.
      return { kind: "drop" };
  }
}
