import { createHash } from "node:crypto";
import type { StrategyCatalogEntry } from "../sdk/contract/catalog.ts";
import { PortfolioWalletClient } from "../sdk/client/index.ts";
import { resolveProviderSettings, type ConfigSource, type ProviderSettings } from "../sdk/stackSettings.ts";

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
}

/**
 * The connections of one provider process, one per distinct service and token (a deployment
 * uses one; tests reconfigure). Closed when the process ends (see providerProcess.ts).
 */
export class ServiceConnectionPool {
  readonly #bySettings = new Map<string, ServiceConnection>();

  /** The connection for a configuration; its settings are resolved (and checked) on every call. */
  for(source: ConfigSource | undefined): ServiceConnection {
    const settings = resolveProviderSettings(source);
    // Keyed by a hash so the token is never kept as a readable map key.
    const key = createHash("sha256").update(`${settings.baseUrl}\n${settings.apiToken}`).digest("hex");
    let connection = this.#bySettings.get(key);
    if (connection === undefined) {
      const client = new PortfolioWalletClient({ baseUrl: settings.baseUrl, apiToken: settings.apiToken });
      let catalogRead: Promise<StrategyCatalogEntry[]> | undefined;
      connection = {
        settings,
        client,
        catalog() {
          catalogRead ??= client.catalog.listStrategies().then((response) => response.strategies);
          catalogRead.catch(() => (catalogRead = undefined));
          return catalogRead;
        },
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
}
