/**
 * Counts API requests per organization, by method and route pattern (`POST /v2/portfolio-wallets`,
 * `GET /v2/portfolio-wallets/:id`), so a test can assert that a client made no mutating call.
 * Admin calls (`/_sandbox/...`) are not counted; requests rejected before authentication (401)
 * have no organization and are not counted either.
 */
export interface RequestCounter {
  record(organizationId: string, key: string): void;
  snapshot(organizationId: string): Record<string, number>;
  reset(organizationId: string): void;
}

export function createRequestCounter(): RequestCounter {
  const counts = new Map<string, Map<string, number>>();
  return {
    record(organizationId, key) {
      const forOrg = counts.get(organizationId) ?? new Map<string, number>();
      forOrg.set(key, (forOrg.get(key) ?? 0) + 1);
      counts.set(organizationId, forOrg);
    },
    snapshot: (organizationId) =>
      Object.fromEntries([...(counts.get(organizationId) ?? new Map<string, number>())].sort()),
    reset(organizationId) {
      counts.delete(organizationId);
    },
  };
}
