import { createHash } from "node:crypto";
import type { StrategyCatalogEntry } from "../sdk/nodejs/contract/catalog.ts";
import {
  AdaptiveConcurrencyLimiter,
  PortfolioWalletClient,
  type RetryNotice,
  type Transport,
} from "../sdk/nodejs/client/index.ts";
import { deploymentRetryOptions } from "../sdk/nodejs/client/serviceClient.ts";
import {
  resolveProviderSettings,
  type ConfigSource,
  type ProviderSettings,
} from "../sdk/nodejs/stackSettings.ts";
import { retryNoticeText } from "../sdk/nodejs/retryWording.ts";
import type { EngineLog, LogSeverity } from "./engineLog.ts";

/**
 * What a provider call needs to talk to the service: the settings it runs with, the client (one
 * keep-alive connection pool), and the strategy catalog, read at most once per deployment.
 * These live in the provider process only; nothing here is serialized into state.
 */
export interface ServiceConnection {
  settings: ProviderSettings;
  client: PortfolioWalletClient;
  /** The strategy catalog, fetched once for these settings; a failed fetch is tried again next time. */
  catalog(): Promise<StrategyCatalogEntry[]>;
  /** Says a message in the Pulumi output, on the resource being worked on (engineLog.ts). */
  say(severity: LogSeverity, message: string): void;
}

/** A retry's wait from this long on is said in the output that stays (a pipeline's log), not only as a status. */
const WAIT_WORTH_SAYING_MS = 3_000;

/**
 * The connections of one provider process, one per distinct service, token and retry budget (a
 * deployment uses one; tests reconfigure). Every client of the process shares one concurrency
 * limiter, so when the service throttles, the whole deployment slows down rather than each of its
 * parallel steps retrying on its own; and each says its retries through the engine, so a pipeline
 * that waits shows what it waits for. Closed when the process ends (see providerProcess.ts).
 */
export class ServiceConnectionPool {
  readonly #bySettings = new Map<string, ServiceConnection>();
  readonly #limiter = new AdaptiveConcurrencyLimiter();
  readonly #engineLog: EngineLog | undefined;
  readonly #transport: Transport | undefined;

  /**
   * @param options.engineLog Where retries and messages are said (the engine's log). Default: nowhere.
   * @param options.transport The HTTP engine of every client of the pool, owned by the caller. Default:
   *   each client's own undici pool. Tests pass a model of the service that runs on a fake clock.
   */
  constructor(options: { engineLog?: EngineLog; transport?: Transport } = {}) {
    this.#engineLog = options.engineLog;
    this.#transport = options.transport;
  }

  /** The requests in flight and the current limit: what the deployment's throttling has done. */
  get limiter(): AdaptiveConcurrencyLimiter {
    return this.#limiter;
  }

  /** The connection for a configuration; its settings are resolved (and checked) on every call. */
  for(source: ConfigSource | undefined): ServiceConnection {
    const settings = resolveProviderSettings(source);
    // Keyed by a hash so the token is never kept as a readable map key.
    const key = createHash("sha256")
      .update(`${settings.baseUrl}\n${settings.apiToken}\n${settings.retryTimeoutMs}`)
      .digest("hex");
    let connection = this.#bySettings.get(key);
    if (connection === undefined) {
      const client = new PortfolioWalletClient({
        baseUrl: settings.baseUrl,
        apiToken: settings.apiToken,
        ...deploymentRetryOptions(settings),
        concurrencyLimiter: this.#limiter,
        onRetry: (notice) => this.#sayRetry(notice),
        ...(this.#transport === undefined ? {} : { transport: this.#transport }),
      });
      let catalogRead: Promise<StrategyCatalogEntry[]> | undefined;
      connection = {
        settings,
        client,
        catalog() {
          catalogRead ??= client.catalog.listStrategies().then((response) => response.strategies);
          catalogRead.catch(() => (catalogRead = undefined));
          return catalogRead;
        },
        say: (severity, message) => this.#engineLog?.say(severity, message),
      };
      this.#bySettings.set(key, connection);
    }
    // The same client and catalog, with the settings of this call (approver, timeout).
    return { ...connection, settings };
  }

  /** Closes every connection's pool. */
  async closeAll(): Promise<void> {
    const connections = [...this.#bySettings.values()];
    this.#bySettings.clear();
    await Promise.allSettled(connections.map((entry) => entry.client.close()));
  }

  #sayRetry(notice: RetryNotice): void {
    this.#engineLog?.say("info", retryNoticeText(notice), {
      ephemeral: notice.delayMs < WAIT_WORTH_SAYING_MS,
    });
  }
}
