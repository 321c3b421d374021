import { withSettingHint } from "../sdk/nodejs/retryWording.ts";
import type { ConfigSource } from "../sdk/nodejs/stackSettings.ts";
import { timedCall } from "./callTimings.ts";
import { portfolioWalletProvider } from "./portfolioWallet.ts";
import { providerProcess } from "./providerProcess.ts";
import type { ProviderMethod } from "../sdk/nodejs/resources/resourceProvider.cts";
import {
  RESOURCE_DESCRIPTORS,
  RESOURCE_KINDS,
  resourceKindOfUrn,
  type ResourceKind,
} from "../sdk/nodejs/resources/resourceTypes.ts";
import { checkedInputsOf, diffInputsOf } from "./inputs.ts";
import type {
  EngineArgs,
  MethodAnswer,
  MethodArgs,
  ResourceImplementation,
  ResourceMethod,
} from "./resourceImplementation.ts";
import { walletStrategyProvider } from "./walletStrategy.ts";
import { webhookRegistrationProvider } from "./webhookRegistration.ts";

/**
 * The provider implementation, as both adapters reach it: the dynamic-provider process loads this
 * module by package name on every call of the serialized provider (sdk/nodejs/resources/resourceProvider.cts;
 * keeping the implementation here keeps `__provider` small, free of captured values, and unchanged
 * across versions of this package), and the native plugin imports it (provider/native/).
 */

export type { ResourceKind } from "../sdk/nodejs/resources/resourceTypes.ts";
export type { ProviderMethod } from "../sdk/nodejs/resources/resourceProvider.cts";
export type { ResourceMethod } from "./resourceImplementation.ts";

/** The implementation of each kind, keyed by the kind of its descriptor (sdk/nodejs/resources/resourceTypes.ts). */
const IMPLEMENTATIONS: { [K in ResourceKind]: ResourceImplementation<K> } = {
  portfolioWallet: portfolioWalletProvider,
  walletStrategy: walletStrategyProvider,
  webhookRegistration: webhookRegistrationProvider,
};

/**
 * Hands the stack configuration to this process: the same for every kind, kept for the later calls
 * (providerProcess.ts).
 */
export function configure(config: ConfigSource | undefined): void {
  providerProcess.configure(config);
}

/**
 * The method's arguments as the implementation receives them: the inputs of create, update and
 * diff read once into the kind's checked inputs (inputs.ts), the rest as they are.
 */
function typedArgs<K extends ResourceKind, M extends ResourceMethod>(
  kind: K,
  method: M,
  args: EngineArgs<K, M>,
): MethodArgs<K, M> {
  const engine = args as unknown[];
  const news = engine.at(-1) as Record<string, unknown>;
  switch (method as ResourceMethod) {
    case "create":
      return [checkedInputsOf(kind, news)] as MethodArgs<K, M>;
    case "update":
      return [engine[0], engine[1], checkedInputsOf(kind, news)] as MethodArgs<K, M>;
    case "diff":
      return [engine[0], engine[1], diffInputsOf(kind, news)] as MethodArgs<K, M>;
    case "check":
    case "read":
    case "delete":
      return args as MethodArgs<K, M>;
  }
}

/**
 * Calls one method of one kind's implementation, in that kind's types: the engine's inputs are
 * read here, once, into the kind's checked inputs. Client errors get the Pulumi setting to change
 * (withSettingHint).
 */
export async function callResource<K extends ResourceKind, M extends ResourceMethod>(
  kind: K,
  method: M,
  ...args: EngineArgs<K, M>
): Promise<MethodAnswer<K, M>> {
  const call: ResourceImplementation<K>[M] = IMPLEMENTATIONS[kind][method];
  try {
    return await providerProcess.engineLog.forResource(resourceUrnOf(args), () =>
      timedCall(method, kind, () =>
        call(() => providerProcess.connection(), ...typedArgs(kind, method, args)),
      ),
    );
  } catch (error) {
    throw withSettingHint(error);
  }
}

/** The resource a call is about: every resource's inputs and state carry `resourceUrn`; the newest come last. */
function resourceUrnOf(args: readonly unknown[]): string | undefined {
  return args
    .map((arg) =>
      arg !== null && typeof arg === "object" ? (arg as { resourceUrn?: unknown }).resourceUrn : undefined,
    )
    .findLast((value): value is string => typeof value === "string");
}

const CLASS_NAMES = RESOURCE_KINDS.map((kind) => RESOURCE_DESCRIPTORS[kind].type).join(", ");

/**
 * The dynamic provider's entry (what the serialized provider calls, with the engine's untyped
 * values): a method for the resource its arguments belong to. Every resource's inputs and state
 * carry `resourceUrn` (set by the resource classes), and the type token inside it names the kind;
 * the newest inputs come last in each method's arguments, so they are looked at first. The
 * arguments are the engine's, in the dynamic provider's order: state this package wrote, and inputs
 * check() judges.
 */
export async function callProvider(method: ProviderMethod, args: unknown[]): Promise<unknown> {
  if (method === "configure") return configure(args[0] as ConfigSource | undefined);
  const urn = resourceUrnOf(args);
  const kind = urn === undefined ? undefined : resourceKindOfUrn(urn);
  if (kind === undefined) {
    throw new Error(
      `portfolio-wallet provider: cannot tell which resource "${method}" is for (resourceUrn ${urn ?? "missing"}). ` +
        `The state of this resource was not written by a resource of @portfolio-wallet/pulumi (${CLASS_NAMES}).`,
    );
  }
  return callResource(kind, method, ...(args as EngineArgs<ResourceKind, ResourceMethod>));
}
