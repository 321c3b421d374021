/**
 * Counts API requests per organization, by method and route pattern (`POST /v2/portfolio-wallets`,
 * `GET /v2/portfolio-wallets/:id`), so a test can assert that a client made no mutating call.
 * Admin calls (`/_sandbox/...`) are not counted; requests rejected before authentication (401)
 * have no organization and are not counted either.
 */
export interface RequestCounter {
  record(organizationId: string, key: string): void;
  snapshot(organizationId: string): Record<string, number>;
  /** A request of the organization has begun; returns how many are in flight now, this one included. */
  enter(organizationId: string): number;
  /** A request of the organization has ended (answered, refused or dropped). */
  leave(organizationId: string): void;
  /** Requests in flight now, and the most at once since the last reset. */
  inFlight(organizationId: string): { now: number; peak: number };
  /** A request of the organization was refused by the emulated rate limit (domain/rateLimits.ts). */
  recordRateLimited(organizationId: string): void;
  /** Requests refused by the rate limit since the last reset. */
  rateLimited(organizationId: string): number;
  reset(organizationId: string): void;
}

export function createRequestCounter(): RequestCounter {
  const counts = new Map<string, Map<string, number>>();
  const limited = new Map<string, number>();
  const inFlight = new Map<string, { now: number; peak: number }>();
  const inFlightOf = (organizationId: string) => {
    let entry = inFlight.get(organizationId);
    if (entry === undefined) inFlight.set(organizationId, (entry = { now: 0, peak: 0 }));
    return entry;
  };
  return {
    record(organizationId, key) {
      const forOrg = counts.get(organizationId) ?? new Map<string, number>();
      forOrg.set(key, (forOrg.get(key) ?? 0) + 1);
      counts.set(organizationId, forOrg);
    },
    snapshot: (organizationId) =>
      Object.fromEntries([...(counts.get(organizationId) ?? new Map<string, number>())].sort()),
    enter(organizationId) {
      const entry = inFlightOf(organizationId);
      entry.now += 1;
      entry.peak = Math.max(entry.peak, entry.now);
      return entry.now;
    },
    leave(organizationId) {
      const entry = inFlightOf(organizationId);
      entry.now = Math.max(0, entry.now - 1);
      // An idle organization keeps no entry: the map holds only organizations with requests in flight or a peak to report.
      if (entry.now === 0 && entry.peak === 0) inFlight.delete(organizationId);
    },
    inFlight: (organizationId) => ({ ...(inFlight.get(organizationId) ?? { now: 0, peak: 0 }) }),
    recordRateLimited(organizationId) {
      limited.set(organizationId, (limited.get(organizationId) ?? 0) + 1);
    },
    rateLimited: (organizationId) => limited.get(organizationId) ?? 0,
    reset(organizationId) {
      counts.delete(organizationId);
      limited.delete(organizationId);
      const entry = inFlight.get(organizationId);
      if (entry === undefined) return;
      if (entry.now === 0) inFlight.delete(organizationId);
      else entry.peak = entry.now;
    },
  };
}
