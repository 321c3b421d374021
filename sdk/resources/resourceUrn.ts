import * as pulumi from "@pulumi/pulumi";
import * as resourceProviderModule from "../../provider/resourceProvider.cts";
import { RESOURCE_TYPES, typeTokenOf, type ResourceKind } from "../../provider/resourceTypes.ts";

/**
 * The URN the engine will give this resource, computed in the program. The provider derives
 * every requestId from it (dynamic providers are not told their URN), which is what makes a
 * retried or resumed `pulumi up` idempotent; the type token inside it also tells the one
 * serialized provider which kind of resource a call is for.
 */
export function resourceUrnOf(
  name: string,
  kind: ResourceKind,
  opts: pulumi.CustomResourceOptions | undefined,
): pulumi.Input<string> {
  // Without a parent the URN is known now: a plain string spares the SDK an Output per resource
  // (the same text pulumi.createUrn builds). Under a parent, the parent's URN is an output.
  if (opts?.parent === undefined) {
    return `urn:pulumi:${pulumi.getStack()}::${pulumi.getProject()}::${typeTokenOf(kind)}::${name}`;
  }
  return pulumi.createUrn(name, typeTokenOf(kind), opts.parent);
}

/**
 * What every resource class passes to `pulumi.dynamic.Resource`: the provider object and the
 * module and type names of the kind's type token.
 */
export function dynamicResourceArgsOf(kind: ResourceKind): {
  provider: pulumi.dynamic.ResourceProvider;
  module: string;
  type: string;
} {
  return {
    // The provider is that CommonJS module's `module.exports` itself (see its header for why): the
    // `default` of its namespace, in the ES-module build and the CommonJS build alike. TypeScript
    // does not model `module.exports =` in a .cts file, so the shape is stated here.
    provider: (resourceProviderModule as unknown as { default: pulumi.dynamic.ResourceProvider }).default,
    ...RESOURCE_TYPES[kind],
  };
}

/**
 * Turns stack-trace capture off until the returned function is called; the resource classes wrap
 * their registration (`super()`) in it. The SDK captures a stack trace for each of the four promises
 * it makes per property of a resource, to name leaked promises if a program exits early; in a
 * TypeScript program each capture is also source-mapped. Measured with `npm run bench`, that was
 * most of what a PortfolioWallet cost the program over a bare dynamic resource. Only traces
 * captured during the registration call itself are affected; errors keep their messages.
 */
export function withoutStackTraces(): () => void {
  const limit = Error.stackTraceLimit;
  Error.stackTraceLimit = 0;
  return () => {
    Error.stackTraceLimit = limit;
  };
}
