import * as pulumi from "@pulumi/pulumi";

/** The full type token of a dynamic resource of this package, e.g. `pulumi-nodejs:dynamic/portfoliowallet:PortfolioWallet`. */
export function dynamicTypeToken(module: string, type: string): string {
  return `pulumi-nodejs:dynamic/${module}:${type}`;
}

/**
 * The URN the engine will give this resource, computed in the program. The provider derives
 * every requestId from it (dynamic providers are not told their URN), which is what makes a
 * retried or resumed `pulumi up` idempotent.
 */
export function resourceUrnOf(
  name: string,
  typeToken: string,
  opts: pulumi.CustomResourceOptions | undefined,
) {
  return pulumi.createUrn(name, typeToken, opts?.parent);
}
