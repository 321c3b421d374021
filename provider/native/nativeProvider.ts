import { fieldProblemsOf } from "../../sdk/nodejs/contract/errors.ts";
import { READ_FUNCTIONS, type ReadFunctionName } from "../../sdk/nodejs/functions/readFunctions.ts";
import { withSettingHint } from "../../sdk/nodejs/retryWording.ts";
import type { ConfigSource } from "../../sdk/nodejs/stackSettings.ts";
import {
  nativeTypeTokenOf,
  PACKAGE_NAME,
  allocationFieldsOf,
  RESOURCE_DESCRIPTORS,
  RESOURCE_KINDS,
  resourceKindOfType,
  type ResourceKind,
} from "../../sdk/nodejs/resources/resourceTypes.ts";
import type { CheckFailure } from "../check.ts";
import { callResource, configure } from "../implementation.ts";
import { providerProcess } from "../providerProcess.ts";
import { TargetAllocation } from "../../sdk/nodejs/contract/allocation.ts";
import type { ResourceDiff } from "../resourceDiff.ts";
import type { ReadState, StoredOutputs } from "../resourceImplementation.ts";
import { plainProperties, withSecrets } from "./propertyValues.ts";

/**
 * The native provider's resource methods, in plain values: the one implementation
 * (provider/implementation.ts, which the dynamic resources use too) called with what a native
 * provider is given, and its answers put the way the engine wants them. This adapter adds no
 * resource behaviour of its own; it only
 * - names the resource kind from the type token and passes the URN the engine gives on every call
 *   (the dynamic resources carry it as the `resourceUrn` input; here it never enters state);
 * - unwraps secrets for the implementation and wraps again every output that came from a secret,
 *   plus the outputs that are always secret (both as the kind's descriptor says, sdk/nodejs/resources/);
 * - hands the implementation's property-by-property diff on as the engine's detailed diff.
 */

type Properties = Record<string, unknown>;

/** What every resource request names: the resource's URN and type token. */
export interface ResourceRef {
  urn: string;
  type: string;
}

/** The outputs to mark secret: the kind's always-secret ones, each secret input and where it carries over. */
function secretOutputsOf(kind: ResourceKind, secretInputs: Iterable<string>): Set<string> {
  const { secretOutputs, secretCarriesOver } = RESOURCE_DESCRIPTORS[kind];
  const carriesOver: Readonly<Record<string, readonly string[] | undefined>> = secretCarriesOver;
  const names = new Set<string>(secretOutputs);
  for (const name of secretInputs) {
    names.add(name);
    for (const carried of carriesOver[name] ?? []) names.add(carried);
  }
  return names;
}

export function kindOf(resource: ResourceRef): ResourceKind {
  const kind = resourceKindOfType(resource.type);
  if (kind === undefined) {
    throw new Error(
      `the portfolio-wallet provider has no resource type "${resource.type}"; its types are ` +
        RESOURCE_KINDS.map(nativeTypeTokenOf).join(", "),
    );
  }
  return kind;
}

/** The implementation's view of a resource's inputs: plain values and the URN it derives requestIds from. */
function withUrn(resource: ResourceRef, properties: Properties): Properties {
  return { ...properties, resourceUrn: resource.urn };
}

/**
 * The implementation's view of a resource's state. The engine hands back, untyped, the outputs
 * this provider wrote for the kind (or, for `pulumi import`, nothing yet): the one place that says so.
 */
function stateOf<K extends ResourceKind>(
  _kind: K,
  resource: ResourceRef,
  properties: Properties,
): StoredOutputs<K> {
  return withUrn(resource, properties) as StoredOutputs<K>;
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
  const fields = allocationFieldsOf(kind);
  const weights = fields === undefined ? undefined : inputs[fields.weights];
  if (fields === undefined || weights === undefined) return inputs;
  return {
    ...inputs,
    [fields.positions]: TargetAllocation.ofWeights(weights as Record<string, number>).toPositions(),
  };
}

export interface CheckAnswer {
  inputs: Properties;
  failures: CheckFailure[];
}

export const nativeProvider = {
  configure(config: ConfigSource): void {
    configure(config);
  },

  async check(resource: ResourceRef, oldInputs: Properties, newInputs: Properties): Promise<CheckAnswer> {
    const kind = kindOf(resource);
    const olds = plainProperties(oldInputs);
    const news = plainProperties(newInputs);
    // Old inputs are empty on a create: only an update has any, and the implementation tells them apart so.
    const oldArgument = Object.keys(olds.plain).length === 0 ? {} : withUrn(resource, olds.plain);
    const result = await callResource(kind, "check", oldArgument, withUrn(resource, news.plain));
    if ("failures" in result) return { inputs: newInputs, failures: result.failures };
    return { inputs: forEngine(result.inputs, secretOutputsOf(kind, news.secretNames)), failures: [] };
  },

  async diff(
    resource: ResourceRef,
    id: string,
    oldOutputs: Properties,
    newInputs: Properties,
  ): Promise<ResourceDiff> {
    const kind = kindOf(resource);
    const olds = plainProperties(oldOutputs).plain;
    const news = plainProperties(newInputs).plain;
    return callResource(kind, "diff", id, stateOf(kind, resource, olds), withUrn(resource, news));
  },

  async create(resource: ResourceRef, inputs: Properties): Promise<{ id: string; outputs: Properties }> {
    const kind = kindOf(resource);
    const news = plainProperties(inputs);
    const result = await callResource(kind, "create", withUrn(resource, news.plain));
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
    const state: ReadState<ResourceKind> = stateOf(kind, resource, outputs.plain);
    const result = await callResource(kind, "read", id, state);
    if (!("inputs" in result)) return { id: "", outputs: {}, inputs: {} };
    const secretNames = secretOutputsOf(kind, [...outputs.secretNames, ...inputs.secretNames]);
    return {
      id: result.id,
      outputs: forEngine(result.props, secretNames),
      inputs: forEngine(withProgramForm(kind, result.inputs), secretNames),
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
    const result = await callResource(
      kind,
      "update",
      id,
      stateOf(kind, resource, olds.plain),
      withUrn(resource, news.plain),
    );
    return { outputs: forEngine(result.outs, secretOutputsOf(kind, news.secretNames)) };
  },

  async delete(resource: ResourceRef, id: string, oldOutputs: Properties): Promise<void> {
    const kind = kindOf(resource);
    await callResource(kind, "delete", id, stateOf(kind, resource, plainProperties(oldOutputs).plain));
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
