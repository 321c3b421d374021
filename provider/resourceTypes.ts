/**
 * The three resource kinds of this package and their Pulumi type tokens. The resource classes
 * register under these tokens, and the provider implementation tells the kinds apart by the
 * token inside each resource's URN (one serialized provider serves all three).
 */
export const RESOURCE_TYPES = {
  portfolioWallet: { module: "portfoliowallet", type: "PortfolioWallet" },
  walletStrategy: { module: "walletstrategy", type: "WalletStrategy" },
  webhookRegistration: { module: "webhookregistration", type: "WebhookRegistration" },
} as const;
export type ResourceKind = keyof typeof RESOURCE_TYPES;

/** The full type token of a kind, e.g. `pulumi-nodejs:dynamic/portfoliowallet:PortfolioWallet`. */
export function typeTokenOf(kind: ResourceKind): string {
  const { module, type } = RESOURCE_TYPES[kind];
  return `pulumi-nodejs:dynamic/${module}:${type}`;
}

const KIND_BY_TYPE_TOKEN = new Map(
  (Object.keys(RESOURCE_TYPES) as ResourceKind[]).map((kind) => [typeTokenOf(kind), kind]),
);

/**
 * The kind of the resource a URN names, or undefined for any other type. A URN is
 * `urn:pulumi:<stack>::<project>::<parent types $-joined>$<type>::<name>`; the resource's own
 * type is the last `$`-separated part of the third `::` field.
 */
export function resourceKindOfUrn(urn: string): ResourceKind | undefined {
  const qualifiedType = urn.split("::")[2];
  const type = qualifiedType?.split("$").at(-1);
  return type === undefined ? undefined : KIND_BY_TYPE_TOKEN.get(type);
}
