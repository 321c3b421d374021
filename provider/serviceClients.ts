import { createHash } from "node:crypto";
import type { StrategyCatalogEntry } from "../sdk/contract/catalog.ts";
import { PortfolioWalletClient } from "../sdk/client/index.ts";
import { resolveProviderSettings, type ConfigSource, type ProviderSettings } from "../sdk/stackSettings.ts";

/**
 * What a provider call needs to talk to the service: the settings it runs with, a client (one
 * keep-alive connection pool), and the strategy catalog, read at most once per deployment.
 * These live in the dynamic-provider process only; nothing here is serialized into state.
 */
export interface ServiceClients {
  settings: ProviderSettings;
  service: PortfolioWalletClient;
  /** The strategy catalog, fetched once for these settings; a failed fetch is tried again next time. */
  catalog(): Promise<StrategyCatalogEntry[]>;
}

/**
 * The clients of one dynamic-provider process, one per distinct service and token (a deployment
 * uses one; tests reconfigure). Closed when the process ends (see providerProcess.ts).
 */
export class ServiceClientPool {
  readonly #bySettings = new Map<string, ServiceClients>();

  /** The clients for a configuration; its settings are resolved (and checked) on every call. */
  for(source: ConfigSource | undefined): ServiceClients {
    const settings = resolveProviderSettings(source);
    // Keyed by a hash so the token is never kept as a readable map key.
    const key = createHash("sha256").update(`${settings.baseUrl}\n${settings.apiToken}`).digest("hex");
    let clients = this.#bySettings.get(key);
    if (clients === undefined) {
      const service = new PortfolioWalletClient({ baseUrl: settings.baseUrl, apiToken: settings.apiToken });
      let catalogRead: Promise<StrategyCatalogEntry[]> | undefined;
      clients = {
        settings,
        service,
        catalog() {
          catalogRead ??= service.catalog.listStrategies().then((response) => response.strategies);
          catalogRead.catch(() => (catalogRead = undefined));
          return catalogRead;
        },
      };
      this.#bySettings.set(key, clients);
    }
    // The same client and catalog, with the settings of this call (approver, timeout).
    return { ...clients, settings };
  }

  /** Closes every client's connection pool. */
  async closeAll(): Promise<void> {
    const clients = [...this.#bySettings.values()];
    this.#bySettings.clear();
    await Promise.allSettled(clients.map((entry) => entry.service.close()));
  }
}
