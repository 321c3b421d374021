import {
  carriesAllocation,
  RESOURCE_DESCRIPTORS,
  resourceKindOfType,
} from "../sdk/nodejs/resources/resourceTypes.ts";
import type { TargetWeights } from "../sdk/nodejs/contract/index.ts";
import type { AllocationManager } from "./rules.ts";

/**
 * What the rules need of the resources the engine shows a policy: this package's resources
 * recognised by their type token (the dynamic resources' or the native provider's), and their target weights, read from the inputs the provider's
 * check() produced (`targetWeightsBps`) or, before it ran, from the program's `positions`. A value
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

export function targetWeightsOf(props: Record<string, unknown>): TargetWeights | undefined {
  const map = props["targetWeightsBps"];
  if (map !== null && typeof map === "object" && !Array.isArray(map)) {
    const entries = Object.entries(map as Record<string, unknown>);
    return entries.every(([, weight]) => isWeight(weight))
      ? (Object.fromEntries(entries) as TargetWeights)
      : undefined;
  }
  const positions = props["positions"];
  if (!Array.isArray(positions)) return undefined;
  const weights: Record<string, number> = {};
  for (const position of positions as unknown[]) {
    const { positionKey, targetWeightBps } = (position ?? {}) as {
      positionKey?: unknown;
      targetWeightBps?: unknown;
    };
    if (typeof positionKey !== "string" || !isWeight(targetWeightBps)) return undefined;
    weights[positionKey] = (weights[positionKey] ?? 0) + targetWeightBps;
  }
  return weights;
}

/** Which wallet a resource manages the allocation of, when known. */
export function managerOf(resource: {
  type: string;
  name: string;
  props: Record<string, unknown>;
}): AllocationManager | undefined {
  const text = (value: unknown) => (typeof value === "string" && value !== "" ? value : undefined);
  const kind = kindOf(resource.type);
  if (!carriesAllocation(kind)) return undefined;
  const descriptor = RESOURCE_DESCRIPTORS[kind];
  return {
    resource: resource.name,
    kind: descriptor.type,
    // A wallet the program adopts is known by the id it names, before the state holds it.
    walletId:
      text(resource.props["walletId"]) ??
      (descriptor.allocation === "owns" ? text(resource.props["adoptWalletId"]) : undefined),
  };
}
