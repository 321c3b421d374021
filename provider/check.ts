import type { z } from "zod";
import { type StrategyCatalogEntry, unknownPositionKeyProblems } from "../sdk/nodejs/contract/catalog.ts";
import { fieldProblemsOf, safeParseInContractWording } from "../sdk/nodejs/contract/errors.ts";
import { topLevelProperty } from "./propertyPaths.ts";

/** A check failure as the dynamic provider returns it: `property` is a path such as `positions[1].targetWeightBps`. */
export interface CheckFailure {
  property: string;
  reason: string;
}

/** What check() returns: the inputs to hand on, or every failure. */
export type CheckResult = { inputs: Record<string, unknown> } | { failures: CheckFailure[] };

/**
 * The value the engine sends for an input that is not known yet (during preview, an output of a
 * resource that does not exist yet). Validation skips such inputs instead of failing on them.
 */
export const UNKNOWN_INPUT = "04da6b54-80e4-46f7-96ec-b56ff0331ba9";

export function containsUnknown(value: unknown): boolean {
  if (value === UNKNOWN_INPUT) return true;
  if (Array.isArray(value)) return value.some(containsUnknown);
  if (value !== null && typeof value === "object") return Object.values(value).some(containsUnknown);
  return false;
}

/** Drops the reserved `__provider` input and any top-level input that is still unknown. */
function knownInputs(news: Record<string, unknown>): {
  known: Record<string, unknown>;
  unknownKeys: Set<string>;
} {
  const known: Record<string, unknown> = {};
  const unknownKeys = new Set<string>();
  for (const [key, value] of Object.entries(news)) {
    if (key === "__provider") continue;
    if (containsUnknown(value)) unknownKeys.add(key);
    else known[key] = value;
  }
  return { known, unknownKeys };
}

/**
 * Validates inputs against a contract-based schema and returns every failure at once. Inputs that
 * are unknown during preview are not judged; `complete` is false then, and the caller must not
 * make decisions that need them.
 */
export function validateInputs<T>(
  schema: z.ZodType<T>,
  news: Record<string, unknown>,
): { inputs: T | undefined; failures: CheckFailure[]; complete: boolean } {
  const { known, unknownKeys } = knownInputs(news);
  const parsed = safeParseInContractWording(schema, known);
  if (parsed.success) return { inputs: parsed.data, failures: [], complete: unknownKeys.size === 0 };
  const failures = fieldProblemsOf(parsed.error)
    .filter((problem) => !unknownKeys.has(topLevelProperty(problem.field)))
    .map((problem) => ({ property: problem.field, reason: problem.reason }));
  return { inputs: undefined, failures, complete: unknownKeys.size === 0 };
}

/** The contract's unknown-positionKey rule, as Pulumi check failures. */
export function unknownPositionKeyFailures(
  positions: readonly { positionKey: string }[],
  catalog: readonly StrategyCatalogEntry[],
): CheckFailure[] {
  return unknownPositionKeyProblems(positions, catalog).map((problem) => ({
    property: problem.field,
    reason: problem.reason,
  }));
}

/** A failure for an input the service cannot change in place, with what to do instead. */
export function immutableInputFailure(property: string, current: unknown, why: string): CheckFailure {
  return {
    property,
    reason: `cannot be changed from ${JSON.stringify(current)}: ${why}`,
  };
}
