import * as pulumi from "@pulumi/pulumi";
import * as resourceProviderModule from "./resourceProvider.cts";
import {
  dynamicTypeToken,
  outputPlaceholdersOf,
  type OutputProperties,
  type ResourceDescriptor,
} from "./resourceDescriptor.ts";

/**
 * The base of this package's resource classes: how each registers with Pulumi, written once.
 * - The provider is the one serialized provider object (resourceProvider.cts).
 * - `resourceUrn` is added to the inputs: the URN the engine will give the resource. The provider
 *   derives every requestId from it (dynamic providers are not told their URN), which is what
 *   makes a retried or resumed `pulumi up` idempotent; the type token inside it tells the
 *   serialized provider which kind of resource a call is for.
 * - The outputs that are not inputs are registered as placeholders, and the descriptor's secret
 *   outputs as `additionalSecretOutputs`.
 * - Registration runs without stack-trace capture (see withoutStackTraces).
 */
export abstract class PackageResource extends pulumi.dynamic.Resource {
  constructor(
    descriptor: ResourceDescriptor,
    name: string,
    args: object,
    opts: pulumi.CustomResourceOptions | undefined,
  ) {
    const { module, type, secretOutputs } = descriptor;
    // TypeScript does not model `module.exports =` in a .cts file; the provider is that module's
    // `module.exports` itself, the `default` of its namespace in both module formats.
    const provider = (resourceProviderModule as unknown as { default: pulumi.dynamic.ResourceProvider })
      .default;
    const restoreStackTraces = withoutStackTraces();
    try {
      super(
        provider,
        name,
        { ...args, ...placeholdersOf(descriptor), resourceUrn: resourceUrnOf(name, descriptor, opts) },
        secretOutputs.length === 0
          ? opts
          : pulumi.mergeOptions(opts, { additionalSecretOutputs: [...secretOutputs] }),
        module,
        type,
      );
    } finally {
      restoreStackTraces();
    }
  }
}

/**
 * The base class of one kind's resource class: a PackageResource whose instances have the kind's
 * outputs as typed properties (OutputProperties: each output of the descriptor as an Output, with
 * its docs). Pulumi assigns those properties at registration, from the placeholders and inputs.
 */
export function resourceClassOf<D extends ResourceDescriptor>(descriptor: D) {
  abstract class KindResource extends PackageResource {
    constructor(name: string, args: object, opts: pulumi.CustomResourceOptions | undefined) {
      super(descriptor, name, args, opts);
    }
  }
  return KindResource as abstract new (
    name: string,
    args: object,
    opts: pulumi.CustomResourceOptions | undefined,
  ) => PackageResource & OutputProperties<D>;
}

/**
 * The URN the engine will give a resource. Without a parent it is known now: a plain string
 * spares the SDK an Output per resource (the same text pulumi.createUrn builds); under a parent,
 * the parent's URN is an output.
 */
export function resourceUrnOf(
  name: string,
  descriptor: ResourceDescriptor,
  opts: pulumi.CustomResourceOptions | undefined,
): pulumi.Input<string> {
  if (opts?.parent === undefined) {
    return `urn:pulumi:${pulumi.getStack()}::${pulumi.getProject()}::${dynamicTypeToken(descriptor)}::${name}`;
  }
  return pulumi.createUrn(name, dynamicTypeToken(descriptor), opts.parent);
}

const PLACEHOLDERS = new WeakMap<ResourceDescriptor, Record<string, undefined>>();

/** A kind's output placeholders, worked out once per kind rather than per resource. */
function placeholdersOf(descriptor: ResourceDescriptor): Record<string, undefined> {
  let placeholders = PLACEHOLDERS.get(descriptor);
  if (placeholders === undefined)
    PLACEHOLDERS.set(descriptor, (placeholders = outputPlaceholdersOf(descriptor)));
  return placeholders;
}

/**
 * Turns stack-trace capture off until the returned function is called. The SDK captures a stack
 * trace for each of the four promises it makes per property of a resource, to name leaked promises
 * if a program exits early; in a TypeScript program each capture is also source-mapped. Measured
 * with `npm run bench`, that was most of what a PortfolioWallet cost the program over a bare
 * dynamic resource. Only traces captured during the registration call itself are affected; errors
 * keep their messages.
 */
function withoutStackTraces(): () => void {
  const limit = Error.stackTraceLimit;
  Error.stackTraceLimit = 0;
  return () => {
    Error.stackTraceLimit = limit;
  };
}
