/**
 * The service's rate limit, emulated (docs/sandbox.md "Rate limit"): per organization, a token
 * bucket of `burst` requests refilled at `requestsPerSecond`, on the host's real clock (a rate
 * limit is about real load, whatever the sandbox clock says). A request that finds the bucket
 * empty is answered 429 with the seconds until a token is back.
 */
export interface RateLimit {
  requestsPerSecond: number;
  burst: number;
}

export interface RateLimiter {
  /** Takes a token for one request: null when it may go on, else the whole seconds to wait (≥ 1). */
  take(organizationId: string, nowMs: number): number | null;
  /** The organization's limit: its own if one was set, else the sandbox's; null for none. */
  limitOf(organizationId: string): RateLimit | null;
  /** Sets the organization's own limit (null: none for it), with a full bucket. */
  set(organizationId: string, limit: RateLimit | null): void;
  /** Fills every organization's bucket (a restored snapshot starts with no load counted). */
  refillAll(): void;
}

/** The burst a limit gets when none is given: one second of requests, at least one. */
export const defaultBurst = (requestsPerSecond: number): number => Math.max(1, Math.ceil(requestsPerSecond));

export function createRateLimiter(sandboxLimit: RateLimit | null): RateLimiter {
  const own = new Map<string, RateLimit | null>();
  const buckets = new Map<string, { tokens: number; atMs: number }>();
  const limitOf = (organizationId: string) =>
    own.has(organizationId) ? (own.get(organizationId) ?? null) : sandboxLimit;
  return {
    limitOf,
    take(organizationId, nowMs) {
      const limit = limitOf(organizationId);
      if (limit === null) return null;
      const bucket = buckets.get(organizationId) ?? { tokens: limit.burst, atMs: nowMs };
      const refilled = Math.min(
        limit.burst,
        bucket.tokens + (Math.max(0, nowMs - bucket.atMs) * limit.requestsPerSecond) / 1000,
      );
      if (refilled >= 1) {
        buckets.set(organizationId, { tokens: refilled - 1, atMs: nowMs });
        return null;
      }
      buckets.set(organizationId, { tokens: refilled, atMs: nowMs });
      return Math.max(1, Math.ceil((1 - refilled) / limit.requestsPerSecond));
    },
    set(organizationId, limit) {
      own.set(organizationId, limit);
      buckets.delete(organizationId);
    },
    refillAll() {
      buckets.clear();
    },
  };
}
