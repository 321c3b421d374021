import * as pulumi from "@pulumi/pulumi";
import type { StrategyCatalogEntry, YieldSource } from "../contract/catalog.ts";
import type { QuoteOption, QuoteRequest } from "../contract/quote.ts";
import type { PortfolioWallet } from "../contract/wallet.ts";
import type { YieldMetrics, YieldMetricsRequest } from "../contract/yieldMetrics.ts";
import type { PortfolioWalletClient } from "../client/index.ts";
import { withClient } from "../client/serviceClient.ts";
import {
  firstOf,
  fromEnvironment,
  fromStackConfig,
  resolveProviderSettings,
  resolveRetryTimeoutMs,
  type ConfigSource,
} from "../stackSettings.ts";
import { retryNoticeText, withSettingHint } from "../retryWording.ts";
import { READ_FUNCTIONS } from "./readFunctions.ts";

/**
 * Read-only functions for Pulumi programs. They read the same settings as the resources
 * (stack config `portfolio-wallet:baseUrl` and `portfolio-wallet:apiToken`, or the environment)
 * and make only read requests: safe in `pulumi preview`.
 */

/** Overrides for where a function's requests go; by default the stack config / environment decide. */
export interface FunctionOptions {
  baseUrl?: string;
  apiToken?: string;
}

/** The program's stack configuration, read raw so a secret token is used without ever becoming an output. */
const stackConfig: ConfigSource = {
  get: (key) => pulumi.runtime.getConfig(key),
};

/**
 * Runs `call` with a client made from the function's overrides or the stack's settings, under the
 * deployment's retry policy as the provider's: a function in a pipeline rides out throttling too.
 */
async function withFunctionClient<T>(
  options: FunctionOptions | undefined,
  call: (client: PortfolioWalletClient) => Promise<T>,
): Promise<T> {
  const settings =
    options?.baseUrl !== undefined && options.apiToken !== undefined
      ? {
          baseUrl: options.baseUrl,
          apiToken: options.apiToken,
          retryTimeoutMs: resolveRetryTimeoutMs(
            firstOf(fromStackConfig(stackConfig), fromEnvironment(process.env)),
          ),
        }
      : resolveProviderSettings(stackConfig);
  try {
    return await withClient(
      {
        baseUrl: options?.baseUrl ?? settings.baseUrl,
        apiToken: options?.apiToken ?? settings.apiToken,
        onRetry: (notice) => void pulumi.log.info(retryNoticeText(notice)),
      },
      { kind: "deployment", retryTimeoutMs: settings.retryTimeoutMs },
      call,
    );
  } catch (error) {
    throw withSettingHint(error);
  }
}

/** The strategy catalog: yield sources with their liquidity limit and current rate (spec 4.3). */
export function getStrategies(options?: FunctionOptions): Promise<StrategyCatalogEntry[]> {
  return withFunctionClient(
    options,
    async (client) => (await READ_FUNCTIONS.getStrategies.call(client, {})).strategies,
  );
}

/** The yield-source catalog from which positionKeys must be taken (spec 4.2). */
export function getYieldSources(options?: FunctionOptions): Promise<YieldSource[]> {
  return withFunctionClient(
    options,
    async (client) => (await READ_FUNCTIONS.getYieldSources.call(client, {})).yieldSources,
  );
}

/**
 * Pareto-optimal allocations for the constraints (spec 4.1). When they can be met, one option
 * with `constraintsSatisfied: true`; otherwise several, labelled `optimizedFor: "APY"` or
 * `"LIQUIDITY"`. An option's `strategyConfig.positions` can be passed to a wallet as they are.
 */
export function getQuote(request: QuoteRequest = {}, options?: FunctionOptions): Promise<QuoteOption[]> {
  return withFunctionClient(
    options,
    async (client) => (await READ_FUNCTIONS.getQuote.call(client, request)).options,
  );
}

/** One wallet by id, with balances, positions, deposit addresses and blended rate (spec 4.6). */
export function getWallet(walletId: string, options?: FunctionOptions): Promise<PortfolioWallet> {
  return withFunctionClient(options, (client) => READ_FUNCTIONS.getWallet.call(client, { walletId }));
}

/** Yield generated, withdrawn and accrued over a period, globally and per wallet (spec 4.12). */
export function getYieldMetrics(
  request: YieldMetricsRequest = {},
  options?: FunctionOptions,
): Promise<YieldMetrics> {
  return withFunctionClient(options, (client) => READ_FUNCTIONS.getYieldMetrics.call(client, request));
}
