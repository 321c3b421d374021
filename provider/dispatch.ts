import type * as dynamic from "@pulumi/pulumi/dynamic/index.js";
import type { ConfigSource } from "../sdk/settings.ts";
import { portfolioWalletProvider } from "./portfolioWallet.ts";
import { walletStrategyProvider } from "./walletStrategy.ts";
import { webhookRegistrationProvider } from "./webhookRegistration.ts";

/**
 * The entry point the serialized provider (see serializableProvider.ts) imports inside the
 * dynamic-provider process. Keeping the implementation here, rather than in the serialized
 * closure, keeps `__provider` in state small and free of captured values.
 */

/**
 * What each implementation offers: the dynamic provider's methods, each taking the configuration
 * first (dispatch() prepends it). Old state comes in as `never` so that each implementation can
 * name its own state type; a method whose parameters do not line up fails to compile.
 */
interface ProviderImplementation {
  check(
    config: ConfigSource | undefined,
    olds: Record<string, unknown>,
    news: Record<string, unknown>,
  ): Promise<unknown>;
  diff(
    config: ConfigSource | undefined,
    id: string,
    olds: never,
    news: Record<string, unknown>,
  ): Promise<dynamic.DiffResult>;
  create(config: ConfigSource | undefined, news: Record<string, unknown>): Promise<dynamic.CreateResult>;
  read(config: ConfigSource | undefined, id: string, props: never): Promise<dynamic.ReadResult>;
  update(
    config: ConfigSource | undefined,
    id: string,
    olds: never,
    news: Record<string, unknown>,
  ): Promise<dynamic.UpdateResult>;
  delete(config: ConfigSource | undefined, id: string, props: never): Promise<void>;
}

const implementations = {
  portfolioWallet: portfolioWalletProvider,
  walletStrategy: walletStrategyProvider,
  webhookRegistration: webhookRegistrationProvider,
} as const satisfies Record<string, ProviderImplementation>;
export type ResourceKind = keyof typeof implementations;

type Method = "check" | "diff" | "create" | "read" | "update" | "delete";

/**
 * The stack configuration the engine handed to `configure`. One dynamic-provider process serves
 * one deployment, so one value per process is right; it is read at call time and never serialized.
 */
let configuredSource: ConfigSource | undefined;

export async function dispatch(
  kind: ResourceKind,
  method: Method | "configure",
  args: unknown[],
): Promise<unknown> {
  if (method === "configure") {
    configuredSource = args[0] as ConfigSource | undefined;
    return undefined;
  }
  const implementation = implementations[kind] as unknown as Record<
    Method,
    (...a: unknown[]) => Promise<unknown>
  >;
  if (implementation === undefined) throw new Error(`unknown portfolio-wallet resource kind "${kind}"`);
  return implementation[method](configuredSource, ...args);
}
