// The bad-input matrix: every endpoint of the sandbox (service, admin, console API and signing provider), each
// with bad path parameters, another organization's ids, bad queries, bad bodies of every kind and
// bad credentials. The oracle is the same for all: an answer (no hang), below 500, small, and
// never showing another organization's data.

/** An endpoint: method, path with `{placeholders}`, the body fields it reads and its query parameters. */
export interface Endpoint {
  method: string;
  path: string;
  fields?: string[];
  query?: string[];
  admin?: boolean;
}

export const ENDPOINTS: Endpoint[] = [
  { method: "GET", path: "/v2/portfolio-wallets/strategies" },
  { method: "GET", path: "/v2/portfolio-wallets/yield-sources" },
  {
    method: "POST",
    path: "/v2/portfolio-wallets/quote",
    fields: [
      "requestId",
      "minApyTargetBps",
      "liquidityConstraints",
      "yieldSourceTypeExclusions",
      "yieldSourceExclusions",
    ],
  },
  {
    method: "POST",
    path: "/v2/portfolio-wallets/yield",
    fields: ["periodStartIso", "periodEndIso", "portfolioWalletIds"],
  },
  { method: "POST", path: "/v2/portfolio-wallets", fields: ["requestId", "positions", "label"] },
  { method: "GET", path: "/v2/portfolio-wallets", query: ["pageSize", "cursor"] },
  { method: "GET", path: "/v2/portfolio-wallets/{wallet}" },
  { method: "PATCH", path: "/v2/portfolio-wallets/{wallet}/strategy", fields: ["requestId", "positions"] },
  { method: "GET", path: "/v2/portfolio-wallets/{wallet}/deposits", query: ["pageSize", "cursor"] },
  { method: "GET", path: "/v2/portfolio-wallets/{wallet}/deposits/{deposit}" },
  {
    method: "POST",
    path: "/v2/portfolio-wallets/{wallet}/withdraw",
    fields: ["requestId", "withdrawalAmount", "destinationToken", "destinationChain", "destinationAddress"],
  },
  { method: "GET", path: "/v2/portfolio-wallets/{wallet}/withdrawals", query: ["pageSize", "cursor"] },
  { method: "GET", path: "/v2/portfolio-wallets/{wallet}/withdrawals/{withdrawal}" },
  {
    method: "POST",
    path: "/webhooks/registrations",
    fields: ["requestId", "url", "eventTypes", "description"],
  },
  { method: "GET", path: "/webhooks/registrations", query: ["pageSize", "cursor"] },
  { method: "GET", path: "/webhooks/registrations/{webhook}" },
  { method: "PATCH", path: "/webhooks/registrations/{webhook}/status", fields: ["status", "disabledReason"] },
  { method: "DELETE", path: "/webhooks/registrations/{webhook}" },
  { method: "GET", path: "/_sandbox/admin-scope", admin: true },
  { method: "GET", path: "/_sandbox/policy", admin: true },
  {
    method: "PUT",
    path: "/_sandbox/policy",
    fields: ["strategyUpdateApprovals", "withdrawalApprovals"],
    admin: true,
  },
  { method: "PUT", path: "/_sandbox/catalog/{positionKey}/rate", fields: ["currentRateBps"], admin: true },
  { method: "GET", path: "/_sandbox/clock", admin: true },
  { method: "POST", path: "/_sandbox/clock/advance", fields: ["ms", "seconds"], admin: true },
  { method: "GET", path: "/_sandbox/faults", admin: true },
  {
    method: "POST",
    path: "/_sandbox/faults",
    fields: ["method", "path", "times", "kind", "status", "retryAfterSeconds", "delayMs"],
    admin: true,
  },
  { method: "POST", path: "/_sandbox/faults/strategy-update", fields: ["walletId", "reason"], admin: true },
  {
    method: "POST",
    path: "/_sandbox/faults/withdrawal-leg",
    fields: ["walletId", "legKey", "reason"],
    admin: true,
  },
  { method: "DELETE", path: "/_sandbox/faults/{fault}", admin: true },
  { method: "DELETE", path: "/_sandbox/faults", admin: true },
  { method: "GET", path: "/_sandbox/request-counts", admin: true },
  { method: "GET", path: "/_sandbox/signing-activities/{activity}", admin: true },
  { method: "POST", path: "/_sandbox/signing-activities/{activity}/reject", fields: ["reason"], admin: true },
  { method: "GET", path: "/_sandbox/strategy-updates/{update}", admin: true },
  {
    method: "POST",
    path: "/_sandbox/deposits",
    fields: ["chain", "address", "amount", "txHash"],
    admin: true,
  },
  { method: "GET", path: "/_sandbox/ledger", admin: true },
  { method: "GET", path: "/_sandbox/ledger/entries", query: ["walletId", "limit"], admin: true },
  {
    method: "GET",
    path: "/_sandbox/webhook-deliveries",
    query: ["status", "registrationId", "eventId", "eventType", "limit"],
    admin: true,
  },
  { method: "GET", path: "/_sandbox/signing/api-keys", admin: true },
  { method: "POST", path: "/_sandbox/signing/api-keys", fields: ["publicKey", "userName"], admin: true },
  { method: "DELETE", path: "/_sandbox/signing/api-keys/{publicKey}", admin: true },
  // The console's read API (docs/sandbox.md "Console API"), authenticated like the service's.
  { method: "GET", path: "/_console/api/session" },
  { method: "GET", path: "/_console/api/signing-activities", query: ["status", "limit"] },
  { method: "GET", path: "/_console/api/wallets/{wallet}/strategy-updates", query: ["limit"] },
  { method: "GET", path: "/_console/api/wallets/{wallet}/history" },
  { method: "GET", path: "/_console/api/wallets/{wallet}/deposits", query: ["pageSize", "cursor"] },
  { method: "GET", path: "/_console/api/wallets/{wallet}/withdrawals", query: ["pageSize", "cursor"] },
  {
    method: "GET",
    path: "/_console/api/webhook-deliveries",
    query: ["status", "registrationId", "eventType", "limit"],
  },
  { method: "GET", path: "/_console/api/webhook-deliveries/{delivery}" },
  { method: "POST", path: "/_console/api/webhook-deliveries/{delivery}/redeliver" },
  {
    method: "PATCH",
    path: "/_console/api/webhook-registrations/{webhook}",
    fields: ["url", "eventTypes", "description"],
  },
  {
    method: "POST",
    path: "/_console/api/webhook-registrations/{webhook}/test-events",
    fields: ["eventType"],
  },
  { method: "GET", path: "/_console/api/requests", query: ["method", "status", "walletId", "limit"] },
  { method: "GET", path: "/_console/api/requests/{request}" },
  { method: "GET", path: "/_console/api/ids/{wallet}" },
  { method: "POST", path: "/public/v1/query/get_activity", fields: ["organizationId", "activityId"] },
  {
    method: "POST",
    path: "/public/v1/submit/approve_activity",
    fields: ["type", "timestampMs", "organizationId", "parameters"],
  },
  // Last: a bad value can be a valid tiny limit (0.0000001 requests a second), after which org-a's
  // API requests are 429; admin calls are never limited, and the test lifts the limit at the end.
  { method: "GET", path: "/_sandbox/rate-limit", admin: true },
  { method: "PUT", path: "/_sandbox/rate-limit", fields: ["requestsPerSecond", "burst"], admin: true },
];

/** Values a field should never be trusted to hold. */
export const BAD_VALUES: unknown[] = [
  null,
  true,
  -1,
  0,
  1e308,
  -1e308,
  0.0000001,
  9007199254740993,
  "",
  "x".repeat(100_000),
  "\u0000\ud800💥",
  [],
  [[[[[[[[[[]]]]]]]]]],
  {},
  { __proto__: { polluted: true }, constructor: { prototype: { polluted: true } } },
];

/** Whole bodies that are wrong before any field is read: [content type or null, raw text]. */
export const BAD_BODIES: [string | null, string][] = [
  [null, ""],
  ["text/plain", "hello"],
  ["application/json", ""],
  ["application/json", "{"],
  ["application/json", "null"],
  ["application/json", "[]"],
  ["application/json", '"text"'],
  ["application/json", "123"],
  ["application/json", "1e999"],
  ["application/json", `${"[".repeat(50_000)}${"]".repeat(50_000)}`],
  ["application/json", `{"a":${'{"a":'.repeat(20_000)}1${"}".repeat(20_000)}}`],
  ["application/json", `{"positions":${"[".repeat(20_000)}${"]".repeat(20_000)}}`],
  ["application/json; charset=utf-16", "{}"],
  ["application/vnd.weird+json", '{"__proto__":{"polluted":true}}'],
];

/** Path parameters that are not ids, or not ours. */
export const BAD_IDS = [
  "x",
  "%00",
  "..",
  "%2e%2e%2f%2e%2e",
  "a".repeat(3000),
  "😀",
  "00000000-0000-0000-0000-000000000000",
];

/** Query values that are not what a query expects. */
export const BAD_QUERY_VALUES = [
  "0",
  "101",
  "-1",
  "abc",
  "1e3",
  "",
  "x|y",
  "2026-01-01T00:00:00Z|not-a-uuid",
  "a".repeat(5000),
];
