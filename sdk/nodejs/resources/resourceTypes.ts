import { portfolioWalletDescriptor } from "./portfolioWalletDescriptor.ts";
import {
  dynamicTypeToken,
  nativeTypeToken,
  type AllocationFields,
  type CheckedInputsOf,
  type ResourceDescriptor,
  type ResourceOutputs,
} from "./resourceDescriptor.ts";
import { urnParts } from "./urn.ts";
import { walletStrategyDescriptor } from "./walletStrategyDescriptor.ts";
import { webhookRegistrationDescriptor } from "./webhookRegistrationDescriptor.ts";

/**
 * The resource kinds of this package: one descriptor each (resourceDescriptor.ts). Kept apart from
 * the classes so the provider process can read them without loading a resource class. Each kind
 * has two type tokens: the dynamic resource classes register under `pulumi-nodejs:dynamic/...`,
 * and the native provider plugin serves `portfolio-wallet:index:<type>` (programs in any language).
 */
export const RESOURCE_DESCRIPTORS = {
  portfolioWallet: portfolioWalletDescriptor,
  walletStrategy: walletStrategyDescriptor,
  webhookRegistration: webhookRegistrationDescriptor,
} as const;
export type ResourceKind = keyof typeof RESOURCE_DESCRIPTORS;
export type DescriptorOf<K extends ResourceKind> = (typeof RESOURCE_DESCRIPTORS)[K];
export const RESOURCE_KINDS = Object.keys(RESOURCE_DESCRIPTORS) as ResourceKind[];
/** The class names of the kinds (`PortfolioWallet`, ...), each its descriptor's `type`. */
export type ResourceTypeName = DescriptorOf<ResourceKind>["type"];

/**
 * A kind's inputs or outputs as something holds them before anything checked them (the engine's
 * inputs before check(), a stack's exported state): the descriptor's names, each value unknown. A
 * reader outside the descriptor names a property through this, so a misspelt or renamed one does
 * not compile, and checks each value it reads.
 */
export type UncheckedInputs<K extends ResourceKind> = {
  [P in keyof CheckedInputsOf<DescriptorOf<K>>]?: unknown;
};
/** The same for a kind's outputs. */
export type UncheckedOutputs<K extends ResourceKind> = {
  [P in keyof ResourceOutputs<DescriptorOf<K>>]?: unknown;
};

/** The kinds that carry a wallet's target weights (their descriptor's `allocation` is not `none`). */
export type AllocationKind = {
  [K in ResourceKind]: DescriptorOf<K>["allocation"] extends "none" ? never : K;
}[ResourceKind];

export { ON_DELETE_CHOICES, type OnDelete } from "./portfolioWalletDescriptor.ts";
export { PACKAGE_NAME } from "./resourceDescriptor.ts";

/** The dynamic resource's type token of a kind, e.g. `pulumi-nodejs:dynamic/portfoliowallet:PortfolioWallet`. */
export const typeTokenOf = (kind: ResourceKind): string => dynamicTypeToken(RESOURCE_DESCRIPTORS[kind]);

/** The native provider's type token of a kind, e.g. `portfolio-wallet:index:PortfolioWallet`. */
export const nativeTypeTokenOf = (kind: ResourceKind): string => nativeTypeToken(RESOURCE_DESCRIPTORS[kind]);

const KIND_BY_TYPE_TOKEN = new Map(
  RESOURCE_KINDS.flatMap((kind) => [
    [typeTokenOf(kind), kind] as const,
    [nativeTypeTokenOf(kind), kind] as const,
  ]),
);

/** The kind of a type token, dynamic or native; undefined for any other type. */
export function resourceKindOfType(type: string): ResourceKind | undefined {
  return KIND_BY_TYPE_TOKEN.get(type);
}

/**
 * Whether a kind carries a wallet's target weights, its own or a wallet's it manages; false for any
 * other package's resource (no kind).
 */
export function carriesAllocation(kind: ResourceKind | null | undefined): kind is ResourceKind {
  return kind !== null && kind !== undefined && RESOURCE_DESCRIPTORS[kind].allocation !== "none";
}

/** The kind of the resource a URN names, or undefined for any other type. */
export function resourceKindOfUrn(urn: string): ResourceKind | undefined {
  return resourceKindOfType(urnParts(urn).type);
}

/**
 * Where a kind keeps its allocation (its descriptor's `allocationFields`): the names the policy
 * pack, the report, drift, approvals and the adapters read, never their own. Undefined for a kind
 * without an allocation, and for other packages' resources.
 */
export function allocationFieldsOf(kind: ResourceKind | null | undefined): AllocationFields | undefined {
  if (kind === null || kind === undefined) return undefined;
  const descriptor: ResourceDescriptor = RESOURCE_DESCRIPTORS[kind];
  return descriptor.allocationFields;
}
