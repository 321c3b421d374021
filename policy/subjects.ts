import {
  allocationFieldsOf,
  carriesAllocation,
  RESOURCE_DESCRIPTORS,
  resourceKindOfType,
  type ResourceKind,
} from "../sdk/nodejs/resources/resourceTypes.ts";
import {
  summedWeightsByKeyOf,
  type TargetPosition,
  type TargetWeights,
} from "../sdk/nodejs/contract/index.ts";
import type { AllocationManager } from "./rules.ts";

/**
 * What the rules need of the resources the engine shows a policy: this package's resources
 * recognised by their type token (the dynamic resources' or the native provider's), and their target
 * weights, read where each kind's descriptor keeps them (`allocationFields`): from the inputs the
 * provider's check() produced (the map) or, before it ran, from the program's positions. A value
 * not known until `up` (an output of another resource) reads as undefined: it is not judged.
 */

/** The kind of resource a type token names, dynamic or native; undefined for other packages' resources. */
export const kindOf = resourceKindOfType;

/** What a resource is to a wallet's allocation (resourceDescriptor.ts); `none` for other packages' resources. */
export function allocationRoleOf(type: string): "owns" | "manages" | "none" {
  const kind = kindOf(type);
  return kind === undefined ? "none" : RESOURCE_DESCRIPTORS[kind].allocation;
}

export function isAllocationResource(type: string): boolean {
  return carriesAllocation(kindOf(type));
}

const isWeight = (value: unknown): value is number => typeof value === "number" && Number.isFinite(value);

/**
 * The target weights a resource of `kind` sets, read where its descriptor keeps them
 * (`allocationFields`); undefined for a kind without an allocation, or while a weight is not known.
 */
export function targetWeightsOf(
  kind: ResourceKind | undefined,
  props: Record<string, unknown>,
): TargetWeights | undefined {
  const fields = allocationFieldsOf(kind);
  if (fields === undefined) return undefined;
  const map = props[fields.weights];
  if (map !== null && typeof map === "object" && !Array.isArray(map)) {
    const weights = map as Record<string, unknown>;
    return Object.values(weights).every(isWeight) ? { ...(weights as TargetWeights) } : undefined;
  }
  const positions = props[fields.positions];
  if (!Array.isArray(positions)) return undefined;
  const known = (positions as unknown[]).map(
    (position) => (position ?? {}) as Partial<Record<string, unknown>>,
  );
  if (!known.every((p) => typeof p["positionKey"] === "string" && isWeight(p["targetWeightBps"])))
    return undefined;
  // Positions nothing has checked yet: a repeated positionKey's weights add up, as this reader always
  // did (check() refuses a repeated key, so this differs from the report's reading on no input that passes).
  return summedWeightsByKeyOf(known as TargetPosition[]);
}

const text = (value: unknown) => (typeof value === "string" && value !== "" ? value : undefined);

/**
 * The wallet a resource of `kind` names in its props, where its descriptor keeps it: its wallet id,
 * or the id of the wallet it adopts (a wallet the program adopts is known by the id it names,
 * before the state holds it); undefined when not known.
 */
export function walletIdIn(
  kind: ResourceKind | undefined,
  props: Record<string, unknown>,
): string | undefined {
  const fields = allocationFieldsOf(kind);
  if (fields === undefined) return undefined;
  return (
    text(props[fields.walletId]) ??
    (fields.adoptWalletId === undefined ? undefined : text(props[fields.adoptWalletId]))
  );
}

/** Which wallet a resource manages the allocation of, when known. */
export function managerOf(resource: {
  type: string;
  name: string;
  props: Record<string, unknown>;
}): AllocationManager | undefined {
  const kind = kindOf(resource.type);
  if (!carriesAllocation(kind)) return undefined;
  return {
    resource: resource.name,
    kind: RESOURCE_DESCRIPTORS[kind].type,
    walletId: walletIdIn(kind, resource.props),
  };
}
