/**
 * The names the resource classes and the provider implementation share: the resource kinds and
 * their type tokens, and the choices of `onDelete`. Kept apart from the classes so the provider
 * process can read them without loading a resource class.
 */

/** The values of `onDelete`: what `pulumi destroy` does with a wallet (the service has no wallet delete). */
export const ON_DELETE_CHOICES = ["fail-if-funded", "retain"] as const;

/**
 * What `pulumi destroy` (or removing the resource) does with a wallet; see
 * `PortfolioWalletArgs.onDelete`. The provider accepts exactly these values.
 */
export type OnDelete = (typeof ON_DELETE_CHOICES)[number];

/**
 * The three resource kinds of this package and their Pulumi type tokens. Each kind has two: the
 * dynamic resource classes of this package register under `pulumi-nodejs:dynamic/...`, and the
 * native provider plugin serves `portfolio-wallet:index:<type>` (programs in any language). The
 * provider implementation tells the kinds apart by the token inside each resource's URN.
 */
export const RESOURCE_TYPES = {
  portfolioWallet: { module: "portfoliowallet", type: "PortfolioWallet" },
  walletStrategy: { module: "walletstrategy", type: "WalletStrategy" },
  webhookRegistration: { module: "webhookregistration", type: "WebhookRegistration" },
} as const;
export type ResourceKind = keyof typeof RESOURCE_TYPES;

/** The package name of the native provider: its plugin is `pulumi-resource-portfolio-wallet`. */
export const PACKAGE_NAME = "portfolio-wallet";

/** The dynamic resource's type token of a kind, e.g. `pulumi-nodejs:dynamic/portfoliowallet:PortfolioWallet`. */
export function typeTokenOf(kind: ResourceKind): string {
  const { module, type } = RESOURCE_TYPES[kind];
  return `pulumi-nodejs:dynamic/${module}:${type}`;
}

/** The native provider's type token of a kind, e.g. `portfolio-wallet:index:PortfolioWallet`. */
export function nativeTypeTokenOf(kind: ResourceKind): string {
  return `${PACKAGE_NAME}:index:${RESOURCE_TYPES[kind].type}`;
}

const KIND_BY_TYPE_TOKEN = new Map(
  (Object.keys(RESOURCE_TYPES) as ResourceKind[]).flatMap((kind) => [
    [typeTokenOf(kind), kind] as const,
    [nativeTypeTokenOf(kind), kind] as const,
  ]),
);

/** The kind of a type token, dynamic or native; undefined for any other type. */
export function resourceKindOfType(type: string): ResourceKind | undefined {
  return KIND_BY_TYPE_TOKEN.get(type);
}

/**
 * The kind of the resource a URN names, or undefined for any other type. A URN is
 * `urn:pulumi:<stack>::<project>::<parent types $-joined>$<type>::<name>`; the resource's own
 * type is the last `$`-separated part of the third `::` field.
 */
export function resourceKindOfUrn(urn: string): ResourceKind | undefined {
  const qualifiedType = urn.split("::")[2];
  const type = qualifiedType?.split("$").at(-1);
  return type === undefined ? undefined : resourceKindOfType(type);
}
