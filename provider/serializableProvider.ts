import type * as dynamic from "@pulumi/pulumi/dynamic/index.js";
import type { ResourceKind } from "./dispatch.ts";

/**
 * The object Pulumi serializes into every resource's `__provider`. It captures nothing but the
 * resource kind: each call resolves this package from the program's directory inside the
 * dynamic-provider process and imports the real implementation (provider/dispatch.ts). So no
 * token, key or client is ever captured, and state stays small.
 */
export function serializableProvider(kind: ResourceKind): dynamic.ResourceProvider {
  const call = async (method: string, args: unknown[]): Promise<never> => {
    const { createRequire } = process.getBuiltinModule("node:module");
    const { pathToFileURL } = process.getBuiltinModule("node:url");
    const entry = createRequire(`${process.cwd()}/`).resolve("@portfolio-wallet/pulumi/provider/dispatch");
    const implementation = await import(pathToFileURL(entry).href);
    return implementation.dispatch(kind, method, args) as never;
  };
  return {
    configure: (request) => call("configure", [request.config]),
    check: (olds, news) => call("check", [olds, news]),
    diff: (id, olds, news) => call("diff", [id, olds, news]),
    create: (inputs) => call("create", [inputs]),
    read: (id, props) => call("read", [id, props]),
    update: (id, olds, news) => call("update", [id, olds, news]),
    delete: (id, props) => call("delete", [id, props]),
  };
}
