import { readFileSync } from "node:fs";
import {
  StrategiesResponseSchema,
  describeFieldProblems,
  fieldProblemsOf,
  type StrategyCatalogEntry,
} from "../sdk/nodejs/contract/index.ts";
import { PortfolioWalletClient } from "../sdk/nodejs/client/index.ts";
import { API_TOKEN_ENV, BASE_URL_ENV } from "../sdk/nodejs/client/core/environment.ts";
import {
  deploymentRetryOptions,
  fromEnvironment,
  resolveRetryTimeoutMs,
} from "../sdk/nodejs/stackSettings.ts";

/**
 * The strategy catalog the rules read rates, liquidity limits and strategy types from: once per
 * run of the pack (one policy run is one deployment's preview or up). A policy pack is not given
 * the stack's config, so it comes from the environment:
 * - PORTFOLIO_WALLET_CATALOG_FILE: a file holding `GET /v2/portfolio-wallets/strategies` (offline);
 * - else PORTFOLIO_WALLET_BASE_URL and PORTFOLIO_WALLET_API_TOKEN: the service (one read request,
 *   retried through throttling and outages for PORTFOLIO_WALLET_RETRY_TIMEOUT_SECONDS, default 300).
 */
export const CATALOG_FILE_ENV = "PORTFOLIO_WALLET_CATALOG_FILE";

async function readCatalog(env: NodeJS.ProcessEnv): Promise<StrategyCatalogEntry[]> {
  const file = env[CATALOG_FILE_ENV];
  if (file) {
    let json: unknown;
    try {
      json = JSON.parse(readFileSync(file, "utf8"));
    } catch (error) {
      throw new Error(`${CATALOG_FILE_ENV}=${file}: ${(error as Error).message}`, { cause: error });
    }
    const parsed = StrategiesResponseSchema.safeParse(Array.isArray(json) ? { strategies: json } : json);
    if (!parsed.success) {
      throw new Error(
        `${CATALOG_FILE_ENV}=${file} is not a strategy catalog: ${describeFieldProblems(fieldProblemsOf(parsed.error))}`,
      );
    }
    return parsed.data.strategies;
  }
  if (!env[BASE_URL_ENV] || !env[API_TOKEN_ENV]) {
    throw new Error(
      `the strategy catalog is needed and no source is set: set ${BASE_URL_ENV} and ${API_TOKEN_ENV} for the ` +
        `preview, or ${CATALOG_FILE_ENV} to a file of the catalog (see docs/policy.md)`,
    );
  }
  // The deployment's retry policy (docs/provider.md, "Retries"): the pack runs inside a pipeline's preview and up.
  const retryTimeoutMs = resolveRetryTimeoutMs(fromEnvironment(env));
  const client = new PortfolioWalletClient({ env, ...deploymentRetryOptions({ retryTimeoutMs }) });
  try {
    return (await client.catalog.listStrategies()).strategies;
  } finally {
    await client.close();
  }
}

/** The catalog of this run, read on first use; a failure is kept and reported by each rule that needs it. */
export function catalogOnce(env: NodeJS.ProcessEnv = process.env): () => Promise<StrategyCatalogEntry[]> {
  let read: Promise<StrategyCatalogEntry[]> | undefined;
  return () => (read ??= readCatalog(env));
}
