// Public surface of the client. Only re-exports; internal/ is never exported.
export { PortfolioWalletClient, type PortfolioWalletClientOptions } from "./client.ts";
export {
  AdaptiveConcurrencyLimiter,
  type ConcurrencyPermit,
  type PermitOutcome,
} from "./core/concurrencyLimiter.ts";
export { API_TOKEN_ENV, BASE_URL_ENV } from "./core/environment.ts";
export {
  ApiAbortError,
  ApiConnectionError,
  ApiError,
  ApiTimeoutError,
  AuthenticationError,
  BadRequestError,
  ConflictError,
  IdempotencyConflictError,
  InternalServerError,
  InvalidRequestError,
  InvalidResponseError,
  NotFoundError,
  PermissionDeniedError,
  PortfolioWalletError,
  RateLimitError,
  UnprocessableEntityError,
  ValidationError,
} from "./core/errors.ts";
export { CursorPage, PagePromise, type PageFetcher } from "./core/pagination.ts";
export type { RequestOptions } from "./core/requester.ts";
export {
  describeTransientFailure,
  retryHistoryOf,
  type RetryHistory,
  type RetryNotice,
} from "./core/retry.ts";
export type { HttpMethod, Transport, TransportRequest, TransportResponse } from "./core/transport.ts";
export { UndiciTransport, type UndiciTransportOptions } from "./core/undiciTransport.ts";
export { Catalog } from "./resources/catalog.ts";
export { Deposits } from "./resources/deposits.ts";
export { Quotes } from "./resources/quotes.ts";
export { StatementError, Statements, type StatementSources } from "./resources/statements.ts";
export { Wallets } from "./resources/wallets.ts";
export { WebhookRegistrations } from "./resources/webhookRegistrations.ts";
export { Withdrawals } from "./resources/withdrawals.ts";
export { YieldMetricsResource } from "./resources/yieldMetrics.ts";
