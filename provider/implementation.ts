import type * as dynamic from "@pulumi/pulumi/dynamic/index.js";
import { withSettingHint, type ConfigSource } from "../sdk/stackSettings.ts";
import { timedCall } from "./callTimings.ts";
import { portfolioWalletProvider } from "./portfolioWallet.ts";
import { providerProcess } from "./providerProcess.ts";
import type { ResourceDiff } from "./resourceDiff.ts";
import type { ProviderMethod } from "../sdk/resources/resourceProvider.cts";
import { resourceKindOfUrn, type ResourceKind } from "../sdk/resources/resourceTypes.ts";
import type { ServiceConnection } from "./serviceConnection.ts";
import { walletStrategyProvider } from "./walletStrategy.ts";
import { webhookRegistrationProvider } from "./webhookRegistration.ts";

/**
 * The provider implementation, as the dynamic-provider process loads it: the serialized provider
 * (sdk/resources/resourceProvider.cts) imports this module, by package name, on every call. Keeping
 * the implementation here rather than in the serialized object keeps `__provider` small, free of
 * captured values, and unchanged across versions of this package.
 */

export type { ResourceKind } from "../sdk/resources/resourceTypes.ts";
export type { ProviderMethod } from "../sdk/resources/resourceProvider.cts";

/**
 * What each implementation offers: the dynamic provider's methods, each taking first the way to
 * the service (the connection, made on first use from the configuration). Old state comes in as
 * `never` so that each implementation can name its own state type; a method whose parameters do
 * not line up fails to compile.
 */
type Connect = () => ServiceConnection;
interface ProviderImplementation {
  check(connect: Connect, olds: Record<string, unknown>, news: Record<string, unknown>): Promise<unknown>;
  diff(connect: Connect, id: string, olds: never, news: Record<string, unknown>): Promise<ResourceDiff>;
  create(connect: Connect, news: Record<string, unknown>): Promise<dynamic.CreateResult>;
  read(connect: Connect, id: string, props: never): Promise<dynamic.ReadResult>;
  update(
    connect: Connect,
    id: string,
    olds: never,
    news: Record<string, unknown>,
  ): Promise<dynamic.UpdateResult>;
  delete(connect: Connect, id: string, props: never): Promise<void>;
}

const implementations = {
  portfolioWallet: portfolioWalletProvider,
  walletStrategy: walletStrategyProvider,
  webhookRegistration: webhookRegistrationProvider,
} as const satisfies Record<ResourceKind, ProviderImplementation>;

type ResourceMethod = Exclude<ProviderMethod, "configure">;

/**
 * Calls one method of one kind's implementation. `configure` is the same for every kind: the
 * stack configuration it hands over is kept for the later calls of this process
 * (providerProcess.ts). Client errors get the Pulumi setting to change (withSettingHint).
 */
export async function callProviderOf(
  kind: ResourceKind,
  method: ProviderMethod,
  args: unknown[],
): Promise<unknown> {
  if (method === "configure") {
    providerProcess.configure(args[0] as ConfigSource | undefined);
    return undefined;
  }
  const implementation = implementations[kind] as unknown as
    Record<ResourceMethod, (...a: unknown[]) => Promise<unknown>> | undefined;
  if (implementation === undefined) throw new Error(`unknown portfolio-wallet resource kind "${kind}"`);
  try {
    return await providerProcess.engineLog.forResource(resourceUrnOf(args), () =>
      timedCall(method, kind, () => implementation[method](() => providerProcess.connection(), ...args)),
    );
  } catch (error) {
    throw withSettingHint(error);
  }
}

/** The resource a call is about: every resource's inputs and state carry `resourceUrn`; the newest come last. */
function resourceUrnOf(args: unknown[]): string | undefined {
  return args
    .map((arg) =>
      arg !== null && typeof arg === "object" ? (arg as { resourceUrn?: unknown }).resourceUrn : undefined,
    )
    .findLast((value): value is string => typeof value === "string");
}

/**
 * Calls a method for the resource its arguments belong to. Every resource's inputs and state
 * carry `resourceUrn` (set by the resource classes), and the type token inside it names the kind;
 * the newest inputs come last in each method's arguments, so they are looked at first.
 */
export async function callProvider(method: ProviderMethod, args: unknown[]): Promise<unknown> {
  if (method === "configure") return callProviderOf("portfolioWallet", method, args);
  const urn = resourceUrnOf(args);
  const kind = urn === undefined ? undefined : resourceKindOfUrn(urn);
  if (kind === undefined) {
    throw new Error(
      `portfolio-wallet provider: cannot tell which resource "${method}" is for (resourceUrn ${urn ?? "missing"}). ` +
        "The state of this resource was not written by a PortfolioWallet, WalletStrategy or WebhookRegistration of " +
        "@portfolio-wallet/pulumi.",
    );
  }
  return callProviderOf(kind, method, args);
}
