import { readFileSync } from "node:fs";
import { z } from "zod";
import { allocationFieldsOf, resourceKindOfUrn } from "../sdk/nodejs/resources/resourceTypes.ts";
import { listWalletsById } from "../sdk/nodejs/client/walletsById.ts";
import {
  StrategiesResponseSchema,
  describeFieldProblems,
  fieldProblemsOf,
  type PortfolioWallet,
  type StrategyCatalogEntry,
} from "../sdk/nodejs/contract/index.ts";
import type { PortfolioWalletClient } from "../sdk/nodejs/client/index.ts";
import { API_TOKEN_ENV, BASE_URL_ENV } from "../sdk/nodejs/client/core/environment.ts";
import { withClient } from "../sdk/nodejs/client/serviceClient.ts";
import { fromEnvironment, resolveRetryTimeoutMs } from "../sdk/nodejs/stackSettings.ts";

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
  return withEnvironmentClient(
    env,
    `the strategy catalog is needed and no source is set: set ${BASE_URL_ENV} and ${API_TOKEN_ENV} for the ` +
      `preview, or ${CATALOG_FILE_ENV} to a file of the catalog (see docs/policy.md)`,
    async (client) => (await client.catalog.listStrategies()).strategies,
  );
}

/** A client of the service named in the environment, for one piece of work; `missing` says what to set. */
async function withEnvironmentClient<T>(
  env: NodeJS.ProcessEnv,
  missing: string,
  work: (client: PortfolioWalletClient) => Promise<T>,
): Promise<T> {
  if (!env[BASE_URL_ENV] || !env[API_TOKEN_ENV]) throw new Error(missing);
  // The deployment's retry policy (docs/provider.md, "Retries"): the pack runs inside a pipeline's preview and up.
  const retryTimeoutMs = resolveRetryTimeoutMs(fromEnvironment(env));
  return withClient({ env }, { kind: "deployment", retryTimeoutMs }, work);
}

/**
 * The wallets of the token's organization, by id, for the money rules: read once per run of the
 * pack with the list endpoint's pages (a hundred a request), as the pull-request report reads them.
 * There is no offline source: money lives at the service.
 */
export function walletsOnce(
  env: NodeJS.ProcessEnv = process.env,
): () => Promise<Map<string, PortfolioWallet>> {
  let read: Promise<Map<string, PortfolioWallet>> | undefined;
  return () =>
    (read ??= withEnvironmentClient(
      env,
      `the money rules read the wallets from the service, and it is not named: set ${BASE_URL_ENV} and ` +
        `${API_TOKEN_ENV} for the preview (see docs/policy.md)`,
      listWalletsById,
    ));
}

/**
 * The file of `pulumi stack export` the money rules take wallet ids from: a PortfolioWallet's id is
 * an output, which the engine does not show a policy during a preview.
 */
export const STACK_STATE_FILE_ENV = "PORTFOLIO_WALLET_STACK_STATE_FILE";

/**
 * The wallet id of each resource in the stack's last state, by URN; null when the file is not set
 * (then a PortfolioWallet's wallet is unknown to the money rules, and they say so).
 */
export function stackStateWalletIds(env: NodeJS.ProcessEnv = process.env): Map<string, string> | null {
  const file = env[STACK_STATE_FILE_ENV];
  if (!file) return null;
  let json: unknown;
  try {
    json = JSON.parse(readFileSync(file, "utf8"));
  } catch (error) {
    throw new Error(`${STACK_STATE_FILE_ENV}=${file}: ${(error as Error).message}`, { cause: error });
  }
  const parsed = StackExportSchema.safeParse(json);
  if (!parsed.success) {
    throw new Error(
      `${STACK_STATE_FILE_ENV}=${file} is not the output of \`pulumi stack export\` (expected deployment.resources)`,
    );
  }
  const ids = new Map<string, string>();
  for (const resource of parsed.data.deployment.resources ?? []) {
    // Only a kind with an allocation names a wallet; its descriptor says where.
    const field = allocationFieldsOf(resourceKindOfUrn(resource.urn))?.walletId;
    const walletId = field === undefined ? undefined : resource.outputs?.[field];
    if (typeof walletId === "string" && walletId !== "") ids.set(resource.urn, walletId);
  }
  return ids;
}

const StackExportSchema = z.looseObject({
  deployment: z.looseObject({
    resources: z
      .array(z.looseObject({ urn: z.string(), outputs: z.record(z.string(), z.unknown()).optional() }))
      .nullish(),
  }),
});

/** The catalog of this run, read on first use; a failure is kept and reported by each rule that needs it. */
export function catalogOnce(env: NodeJS.ProcessEnv = process.env): () => Promise<StrategyCatalogEntry[]> {
  let read: Promise<StrategyCatalogEntry[]> | undefined;
  return () => (read ??= readCatalog(env));
}
