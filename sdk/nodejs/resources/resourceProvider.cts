/**
 * The dynamic provider that every resource of this package hands to Pulumi: the value Pulumi
 * serializes into each resource's `__provider`.
 *
 * Why a CommonJS module: Pulumi's closure serializer recognises a captured value that is the
 * `module.exports` of a file under `node_modules`, and records a reference to it,
 * `require("@portfolio-wallet/pulumi/provider")`, instead of its code. So for an installed
 * package `__provider` is about 250 bytes, and it stays the same when the package's version or
 * internals change: an upgrade is never a diff on every resource (pulumi/pulumi#3002). Outside
 * `node_modules` (this repository's own programs) the serializer copies the methods by value;
 * they capture nothing, so that works too.
 *
 * Why the methods capture nothing: each call loads the implementation
 * (`@portfolio-wallet/pulumi/provider/implementation`) from the package installed where the
 * program lives, which is the dynamic-provider process's working directory. No setting, client
 * or secret is ever held here, so none can reach Pulumi state.
 *
 * One object serves all three resource kinds: each call names its kind through the
 * `resourceUrn` input the resource classes set (see provider/implementation.ts).
 *
 * Keep this file free of imports other than types: a `require` here would be serialized too.
 */
import type { ResourceProvider } from "@pulumi/pulumi/dynamic/index.js";

/** The dynamic provider's methods, each forwarded by name to the implementation. */
export type ProviderMethod = "configure" | "check" | "diff" | "create" | "read" | "update" | "delete";

/** What the implementation module (provider/implementation.ts) offers this object. */
export interface ProviderImplementationModule {
  callProvider(method: ProviderMethod, args: unknown[]): Promise<unknown>;
}

function callImplementation(method: ProviderMethod, args: unknown[]): Promise<never> {
  // A bare specifier: the installed package imports itself; copied by value (outside node_modules),
  // the code resolves it from the working directory, the program's directory.
  return import("@portfolio-wallet/pulumi/provider/implementation").then(
    (implementation: ProviderImplementationModule) =>
      implementation.callProvider(method, args) as Promise<never>,
  );
}

const resourceProvider: ResourceProvider = {
  configure: (request) => callImplementation("configure", [request.config]),
  check: (olds, news) => callImplementation("check", [olds, news]),
  diff: (id, olds, news) => callImplementation("diff", [id, olds, news]),
  create: (inputs) => callImplementation("create", [inputs]),
  read: (id, props) => callImplementation("read", [id, props]),
  update: (id, olds, news) => callImplementation("update", [id, olds, news]),
  delete: (id, props) => callImplementation("delete", [id, props]),
};

module.exports = resourceProvider;
