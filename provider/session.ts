import { createHash } from "node:crypto";
import type { StrategyCatalogEntry } from "../sdk/contract/catalog.ts";
import { PortfolioWalletClient } from "../sdk/client/index.ts";
import { resolveProviderSettings, type ConfigSource, type ProviderSettings } from "../sdk/settings.ts";

/**
 * What one provider process needs to talk to the service: its settings and one client (one
 * keep-alive connection pool). Sessions live in the dynamic-provider process only; nothing here
 * is captured by the serialized provider, so no token reaches Pulumi state.
 */
export interface ProviderSession {
  settings: ProviderSettings;
  client: PortfolioWalletClient;
  /** The strategy catalog, fetched at most once per deployment (one provider process). */
  catalog(): Promise<StrategyCatalogEntry[]>;
}

const sessions = new Map<string, ProviderSession>();

/** The session for the current settings; the same settings reuse the same client and catalog. */
export function sessionFor(source: ConfigSource | undefined): ProviderSession {
  const settings = resolveProviderSettings(source);
  // Keyed by a hash so the token is never kept as a readable map key.
  const key = createHash("sha256").update(`${settings.baseUrl}\n${settings.apiToken}`).digest("hex");
  let session = sessions.get(key);
  if (session === undefined) {
    const client = new PortfolioWalletClient({ baseUrl: settings.baseUrl, apiToken: settings.apiToken });
    let catalogPromise: Promise<StrategyCatalogEntry[]> | undefined;
    session = {
      settings,
      client,
      catalog() {
        catalogPromise ??= client.catalog.listStrategies().then((response) => response.strategies);
        // A failed fetch is not cached: the next check tries again.
        catalogPromise.catch(() => (catalogPromise = undefined));
        return catalogPromise;
      },
    };
    sessions.set(key, session);
  }
  return { ...session, settings };
}
