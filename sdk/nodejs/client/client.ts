import { HttpUrlSchema } from "../contract/index.ts";
import { API_TOKEN_ENV, BASE_URL_ENV } from "./core/environment.ts";
import { PortfolioWalletError } from "./core/errors.ts";
import { Requester } from "./core/requester.ts";
import type { AdaptiveConcurrencyLimiter } from "./core/concurrencyLimiter.ts";
import type { RetryNotice, RetryPolicy } from "./core/retry.ts";
import type { Transport } from "./core/transport.ts";
import { UndiciTransport } from "./core/undiciTransport.ts";
import { CLIENT_VERSION } from "./internal/version.ts";
import { Catalog } from "./resources/catalog.ts";
import { Deposits } from "./resources/deposits.ts";
import { Quotes } from "./resources/quotes.ts";
import { Statements } from "./resources/statements.ts";
import { Wallets } from "./resources/wallets.ts";
import { WebhookRegistrations } from "./resources/webhookRegistrations.ts";
import { Withdrawals } from "./resources/withdrawals.ts";
import { YieldMetricsResource } from "./resources/yieldMetrics.ts";

/** Every setting of a client, read once when the client is constructed. */
export interface PortfolioWalletClientOptions {
  /**
   * Base URL of the service, such as `https://api.example.com` or a local sandbox's
   * `http://127.0.0.1:8787`. Default: environment variable `PORTFOLIO_WALLET_BASE_URL`. Required.
   */
  baseUrl?: string;
  /**
   * API token, sent as `Authorization: Bearer <token>` and never put in messages.
   * Default: environment variable `PORTFOLIO_WALLET_API_TOKEN`. Required.
   */
  apiToken?: string;
  /** Time allowed for each attempt (not the whole call), in milliseconds. Default 30000. */
  timeoutMs?: number;
  /**
   * Retries after the first attempt for transient failures; 0 disables retrying. Default 2.
   * `Infinity` retries until `retryTimeoutMs` runs out (which it then requires).
   */
  maxRetries?: number;
  /**
   * Time within which a call may still be retried, in milliseconds from its first attempt. Default:
   * none (only `maxRetries` bounds a call). A pipeline that must ride out minutes of throttling or an
   * outage sets this with `maxRetries: Infinity`, as the Pulumi provider does.
   */
  retryTimeoutMs?: number;
  /** Backoff ceiling before the first retry, in milliseconds; doubles per retry. Default 500. */
  retryBaseDelayMs?: number;
  /** Largest backoff ceiling, in milliseconds. Default 8000. */
  retryMaxDelayMs?: number;
  /** Largest wait a `Retry-After` header can impose, in milliseconds. Default 60000. */
  maxRetryAfterMs?: number;
  /** Called before each retry's wait, with the request, what went wrong and the wait. Default: none. */
  onRetry?: (notice: RetryNotice) => void;
  /**
   * Bounds the requests in flight once the service throttles (429, 503), adapting to its answers.
   * Share one between the clients of a process to slow all of them down together. Default: none.
   */
  concurrencyLimiter?: AdaptiveConcurrencyLimiter;
  /**
   * HTTP engine. Default: an undici keep-alive pool owned (and closed) by the client. A
   * transport given here belongs to the caller, who closes it.
   */
  transport?: Transport;
  /** Where the environment variables are read from. Default `process.env`. */
  env?: Readonly<Record<string, string | undefined>>;
}

const DEFAULTS = {
  timeoutMs: 30_000,
  maxRetries: 2,
  retryBaseDelayMs: 500,
  retryMaxDelayMs: 8_000,
  maxRetryAfterMs: 60_000,
} as const;

/**
 * Typed client of the Portfolio Wallet Yield Service. Holds one connection pool: create one
 * per process (or per provider configuration), reuse it, and `close()` it when done.
 *
 * @example
 * const client = new PortfolioWalletClient({ baseUrl, apiToken });
 * for await (const wallet of client.wallets.list({ pageSize: 50 })) console.log(wallet.id);
 * await client.close();
 */
export class PortfolioWalletClient {
  /** Portfolio wallets: create, retrieve, list, updateStrategy. */
  readonly wallets: Wallets;
  /** Allocation quotes. */
  readonly quotes: Quotes;
  /** Strategy catalog and yield sources. */
  readonly catalog: Catalog;
  /** Withdrawals of a wallet. */
  readonly withdrawals: Withdrawals;
  /** Deposits of a wallet. */
  readonly deposits: Deposits;
  /** Yield metrics over a period. */
  readonly yieldMetrics: YieldMetricsResource;
  /** A wallet's statement over a period, made from the deposits, withdrawals and yield metrics. */
  readonly statements: Statements;
  /** Webhook registrations. */
  readonly webhookRegistrations: WebhookRegistrations;
  /** The resolved base URL (never the token). */
  readonly baseUrl: string;

  readonly #requester: Requester;
  readonly #ownedTransport: Transport | undefined;
  #closing: Promise<void> | undefined;

  constructor(options: PortfolioWalletClientOptions = {}) {
    const env = options.env ?? process.env;
    const settings = resolveSettings(options, env);
    const transport = options.transport ?? new UndiciTransport();
    this.#ownedTransport = options.transport ? undefined : transport;
    this.baseUrl = settings.baseUrl.toString();
    this.#requester = new Requester({
      baseUrl: settings.baseUrl,
      apiToken: settings.apiToken,
      timeoutMs: settings.timeoutMs,
      retryPolicy: settings.retryPolicy,
      concurrencyLimiter: options.concurrencyLimiter,
      transport,
      userAgent: `portfolio-wallet-client/${CLIENT_VERSION} node/${process.versions.node}`,
    });
    this.wallets = new Wallets(this.#requester);
    this.quotes = new Quotes(this.#requester);
    this.catalog = new Catalog(this.#requester);
    this.withdrawals = new Withdrawals(this.#requester);
    this.deposits = new Deposits(this.#requester);
    this.yieldMetrics = new YieldMetricsResource(this.#requester);
    this.statements = new Statements(this);
    this.webhookRegistrations = new WebhookRegistrations(this.#requester);
  }

  /** Refuses further calls and closes the client's own connection pool. Safe to call twice. */
  close(): Promise<void> {
    this.#requester.markClosed();
    this.#closing ??= this.#ownedTransport?.close?.() ?? Promise.resolve();
    return this.#closing;
  }
}

interface Settings {
  baseUrl: URL;
  apiToken: string;
  timeoutMs: number;
  retryPolicy: RetryPolicy;
}

/** Validates every option at once, so one error lists every problem. */
function resolveSettings(
  options: PortfolioWalletClientOptions,
  env: Readonly<Record<string, string | undefined>>,
): Settings {
  const problems: string[] = [];
  const baseUrlText = options.baseUrl ?? env[BASE_URL_ENV];
  let baseUrl: URL | undefined;
  if (!baseUrlText) {
    problems.push(`baseUrl is missing: pass it or set ${BASE_URL_ENV}`);
  } else if (!HttpUrlSchema.safeParse(baseUrlText).success) {
    problems.push(`baseUrl ${JSON.stringify(baseUrlText)} is not an absolute http(s) URL`);
  } else {
    baseUrl = new URL(baseUrlText);
  }
  const apiToken = options.apiToken ?? env[API_TOKEN_ENV];
  if (!apiToken) problems.push(`apiToken is missing: pass it or set ${API_TOKEN_ENV}`);

  const number = (name: keyof typeof DEFAULTS, min: number): number => {
    const value = options[name] ?? DEFAULTS[name];
    if (!Number.isInteger(value) || value < min)
      problems.push(`${name} must be a whole number >= ${min}; got ${value}`);
    return value;
  };
  const timeoutMs = number("timeoutMs", 1);
  const unboundedRetries = options.maxRetries === Infinity;
  const retryTimeoutMs = options.retryTimeoutMs;
  if (retryTimeoutMs !== undefined && (!Number.isInteger(retryTimeoutMs) || retryTimeoutMs < 0))
    problems.push(`retryTimeoutMs must be a whole number >= 0; got ${retryTimeoutMs}`);
  if (unboundedRetries && retryTimeoutMs === undefined)
    problems.push("maxRetries Infinity needs retryTimeoutMs, or a call could retry forever");
  const retryPolicy: RetryPolicy = {
    maxRetries: unboundedRetries ? Infinity : number("maxRetries", 0),
    budgetMs: retryTimeoutMs,
    baseDelayMs: number("retryBaseDelayMs", 0),
    maxDelayMs: number("retryMaxDelayMs", 0),
    maxRetryAfterMs: number("maxRetryAfterMs", 0),
    random: Math.random,
    onRetry: options.onRetry,
  };
  if (problems.length > 0 || !baseUrl || !apiToken) {
    throw new PortfolioWalletError(`Invalid PortfolioWalletClient options: ${problems.join("; ")}.`);
  }
  return { baseUrl, apiToken, timeoutMs, retryPolicy };
}
