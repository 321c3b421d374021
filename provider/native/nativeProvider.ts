import { fieldProblemsOf } from "../../sdk/contract/errors.ts";
import { READ_FUNCTIONS, type ReadFunctionName } from "../../sdk/functions/readFunctions.ts";
import { withSettingHint, type ConfigSource } from "../../sdk/stackSettings.ts";
import { PACKAGE_NAME, resourceKindOfType, type ResourceKind } from "../../sdk/resources/resourceTypes.ts";
import type { CheckFailure } from "../check.ts";
import { callProviderOf } from "../implementation.ts";
import { providerProcess } from "../providerProcess.ts";
import { positionsOf } from "../inputs.ts";
import type { ResourceDiff } from "../resourceDiff.ts";
import { SECRET_OUTPUTS } from "../resourceOutputs.ts";
import { plainProperties, withSecrets } from "./propertyValues.ts";

/**
 * The native provider's resource methods, in plain values: the one implementation
 * (provider/implementation.ts, which the dynamic resources use too) called with what a native
 * provider is given, and its answers put the way the engine wants them. This adapter adds no
 * resource behaviour of its own; it only
 * - names the resource kind from the type token and passes the URN the engine gives on every call
 *   (the dynamic resources carry it as the `resourceUrn` input; here it never enters state);
 * - unwraps secrets for the implementation and wraps again every output that came from a secret,
 *   plus the outputs that are always secret (resourceOutputs.ts);
 * - hands the implementation's property-by-property diff on as the engine's detailed diff.
 */

type Properties = Record<string, unknown>;

/** What every resource request names: the resource's URN and type token. */
export interface ResourceRef {
  urn: string;
  type: string;
}

/**
 * Properties that carry a secret input on under another name: the allocation's program form
 * (`positions`) becomes the checked map (`targetWeightsBps`) and shows in the latest strategy change.
 */
const SECRET_CARRIED_TO: Record<string, readonly string[]> = {
  positions: ["targetWeightsBps", "strategyChange"],
  targetWeightsBps: ["strategyChange"],
};

function secretOutputsOf(kind: ResourceKind, secretInputs: Iterable<string>): Set<string> {
  const names = new Set<string>(SECRET_OUTPUTS[kind]);
  for (const name of secretInputs) {
    names.add(name);
    for (const carried of SECRET_CARRIED_TO[name] ?? []) names.add(carried);
  }
  return names;
}

export function kindOf(resource: ResourceRef): ResourceKind {
  const kind = resourceKindOfType(resource.type);
  if (kind === undefined) {
    throw new Error(
      `the portfolio-wallet provider has no resource type "${resource.type}"; its types are ` +
        "portfolio-wallet:index:PortfolioWallet, portfolio-wallet:index:WalletStrategy and " +
        "portfolio-wallet:index:WebhookRegistration",
    );
  }
  return kind;
}

/** The implementation's view of a resource's properties: plain values and the URN it derives requestIds from. */
function withUrn(resource: ResourceRef, properties: Properties): Properties {
  return { ...properties, resourceUrn: resource.urn };
}

/** What goes back to the engine: never the URN (the engine knows it), secrets wrapped. */
function forEngine(properties: Properties, secretNames: ReadonlySet<string>): Properties {
  const { resourceUrn: _urn, ...rest } = properties;
  return withSecrets(rest, secretNames);
}

/**
 * The allocation in the program's form beside the checked map, in inputs read from the service (a
 * refresh, or `pulumi import`): the schema's input is `positions`, so code generated from an
 * import carries the wallet's allocation and previews as no change.
 */
function withProgramForm(kind: ResourceKind, inputs: Properties): Properties {
  if (kind === "webhookRegistration" || inputs["targetWeightsBps"] === undefined) return inputs;
  return { ...inputs, positions: positionsOf(inputs["targetWeightsBps"] as Record<string, number>) };
}

export interface CheckAnswer {
  inputs: Properties;
  failures: CheckFailure[];
}

export const nativeProvider = {
  configure(config: ConfigSource): Promise<unknown> {
    return callProviderOf("portfolioWallet", "configure", [config]);
  },

  async check(resource: ResourceRef, oldInputs: Properties, newInputs: Properties): Promise<CheckAnswer> {
    const kind = kindOf(resource);
    const olds = plainProperties(oldInputs);
    const news = plainProperties(newInputs);
    // Old inputs are empty on a create: only an update has any, and the implementation tells them apart so.
    const oldArgument = Object.keys(olds.plain).length === 0 ? {} : withUrn(resource, olds.plain);
    const result = (await callProviderOf(kind, "check", [oldArgument, withUrn(resource, news.plain)])) as
      { inputs: Properties } | { failures: CheckFailure[] };
    if ("failures" in result) return { inputs: newInputs, failures: result.failures };
    return { inputs: forEngine(result.inputs, secretOutputsOf(kind, news.secretNames)), failures: [] };
  },

  async diff(resource: ResourceRef, id: string, oldOutputs: Properties, newInputs: Properties) {
    const kind = kindOf(resource);
    const olds = plainProperties(oldOutputs).plain;
    const news = plainProperties(newInputs).plain;
    return (await callProviderOf(kind, "diff", [
      id,
      withUrn(resource, olds),
      withUrn(resource, news),
    ])) as ResourceDiff;
  },

  async create(resource: ResourceRef, inputs: Properties): Promise<{ id: string; outputs: Properties }> {
    const kind = kindOf(resource);
    const news = plainProperties(inputs);
    const result = (await callProviderOf(kind, "create", [withUrn(resource, news.plain)])) as {
      id: string;
      outs: Properties;
    };
    return { id: result.id, outputs: forEngine(result.outs, secretOutputsOf(kind, news.secretNames)) };
  },

  /** A refresh, or an import (no outputs or inputs yet). An empty id: the resource is gone. */
  async read(
    resource: ResourceRef,
    id: string,
    oldOutputs: Properties,
    oldInputs: Properties,
  ): Promise<{ id: string; outputs: Properties; inputs: Properties }> {
    const kind = kindOf(resource);
    const outputs = plainProperties(oldOutputs);
    const inputs = plainProperties(oldInputs);
    const result = (await callProviderOf(kind, "read", [id, withUrn(resource, outputs.plain)])) as {
      id: string;
      props: Properties;
      inputs?: Properties;
    };
    if (result.id === "") return { id: "", outputs: {}, inputs: {} };
    const secretNames = secretOutputsOf(kind, [...outputs.secretNames, ...inputs.secretNames]);
    return {
      id: result.id,
      outputs: forEngine(result.props, secretNames),
      inputs: forEngine(withProgramForm(kind, result.inputs ?? {}), secretNames),
    };
  },

  async update(
    resource: ResourceRef,
    id: string,
    oldOutputs: Properties,
    newInputs: Properties,
  ): Promise<{ outputs: Properties }> {
    const kind = kindOf(resource);
    const olds = plainProperties(oldOutputs);
    const news = plainProperties(newInputs);
    const result = (await callProviderOf(kind, "update", [
      id,
      withUrn(resource, olds.plain),
      withUrn(resource, news.plain),
    ])) as { outs: Properties };
    return { outputs: forEngine(result.outs, secretOutputsOf(kind, news.secretNames)) };
  },

  async delete(resource: ResourceRef, id: string, oldOutputs: Properties): Promise<void> {
    const kind = kindOf(resource);
    await callProviderOf(kind, "delete", [id, withUrn(resource, plainProperties(oldOutputs).plain)]);
  },

  /**
   * A read-only function (`portfolio-wallet:index:getQuote`, ...): its arguments checked against
   * the contract (every problem at once, before any request), then its one read.
   */
  async invoke(token: string, args: Properties): Promise<{ result: Properties; failures: CheckFailure[] }> {
    const name = token.startsWith(`${PACKAGE_NAME}:index:`)
      ? token.slice(`${PACKAGE_NAME}:index:`.length)
      : "";
    if (!Object.hasOwn(READ_FUNCTIONS, name)) {
      throw new Error(
        `the portfolio-wallet provider has no function "${token}"; its functions are ` +
          Object.keys(READ_FUNCTIONS)
            .map((fn) => `${PACKAGE_NAME}:index:${fn}`)
            .join(", "),
      );
    }
    const fn = READ_FUNCTIONS[name as ReadFunctionName];
    const parsed = fn.args.safeParse(plainProperties(args).plain);
    if (!parsed.success) {
      const failures = fieldProblemsOf(parsed.error).map((p) => ({ property: p.field, reason: p.reason }));
      return { result: {}, failures };
    }
    try {
      const call = fn.call as (client: unknown, args: unknown) => Promise<Properties>;
      return { result: await call(providerProcess.connection().client, parsed.data), failures: [] };
    } catch (error) {
      throw withSettingHint(error);
    }
  },
};
