import { AllocationSchema, TargetAllocation } from "../sdk/nodejs/contract/allocation.ts";
import type { CheckedInputsOf } from "../sdk/nodejs/resources/resourceDescriptor.ts";
import {
  allocationFieldsOf,
  RESOURCE_DESCRIPTORS,
  type DescriptorOf,
  type ResourceKind,
} from "../sdk/nodejs/resources/resourceTypes.ts";
import { containsUnknown, UNKNOWN_INPUT } from "./check.ts";

/**
 * A resource's inputs, read once: the engine hands create, update and diff the inputs check()
 * returned, as untyped JSON, and this is where they become the kind's checked inputs, typed by its
 * descriptor (`checkedInputs`), with the allocation as the one value (TargetAllocation). Nothing
 * after this parses them again (pulumi-go-provider's `infer` decodes each method's `I` so).
 */

export type { OnDelete } from "../sdk/nodejs/resources/resourceTypes.ts";
export type { TargetPosition } from "../sdk/nodejs/contract/allocation.ts";

/** The checked inputs of kind K, typed: what create and update receive. */
export type CheckedInputs<K extends ResourceKind> = CheckedInputsOf<DescriptorOf<K>>;

/** The value an input has during a preview while it is not known yet (check.ts). */
export type UnknownInput = typeof UNKNOWN_INPUT;

/**
 * What diff receives: the checked inputs, any of them still unknown during a preview (an output
 * of a resource not yet created); then check() could not judge them, and the engine passes them on
 * as the program gave them (the allocation as `positions`).
 */
export type DiffInputs<K extends ResourceKind> = {
  [P in keyof CheckedInputs<K>]: CheckedInputs<K>[P] | UnknownInput;
};

/** Inputs as the engine hands them on, untyped: a program's (to check), or check()'s answer. */
type EngineInputs = Record<string, unknown>;

/**
 * The allocation's map form in `news`: as check() returned it, or from the program's `positions`
 * (inputs check() could not finish with during a preview, and tests that skip check).
 */
function withCheckedWeights(kind: ResourceKind, news: EngineInputs): EngineInputs {
  const fields = allocationFieldsOf(kind);
  if (fields === undefined || news[fields.weights] !== undefined || news[fields.positions] === undefined)
    return news;
  const positions = news[fields.positions];
  const weights = containsUnknown(positions)
    ? UNKNOWN_INPUT
    : TargetAllocation.ofPositions(AllocationSchema.parse(positions)).weightsBps;
  return { ...news, [fields.weights]: weights };
}

/** The checked inputs of create and update, typed; throws (zod) on inputs check() would not have passed. */
export function checkedInputsOf<K extends ResourceKind>(kind: K, news: EngineInputs): CheckedInputs<K> {
  const schema: DescriptorOf<K>["checkedInputs"] = RESOURCE_DESCRIPTORS[kind].checkedInputs;
  return schema.parse(withCheckedWeights(kind, news)) as CheckedInputs<K>;
}

/** diff's inputs, typed: each checked input, or UNKNOWN_INPUT while it is not known. */
export function diffInputsOf<K extends ResourceKind>(kind: K, news: EngineInputs): DiffInputs<K> {
  const values = withCheckedWeights(kind, news);
  const shape: Record<string, { parse(value: unknown): unknown }> =
    RESOURCE_DESCRIPTORS[kind].checkedInputs.shape;
  return Object.fromEntries(
    Object.entries(shape).map(([name, schema]) => [
      name,
      containsUnknown(values[name]) ? UNKNOWN_INPUT : schema.parse(values[name]),
    ]),
  ) as DiffInputs<K>;
}
