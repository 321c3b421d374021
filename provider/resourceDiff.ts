import { containsUnknown } from "./check.ts";
import { propertyPath, topLevelProperty } from "./propertyPaths.ts";

export { propertyPath } from "./propertyPaths.ts";

/**
 * What diff() decides for one resource, with every changed property named. The dynamic provider
 * hands the engine `changes`, `replaces` and `deleteBeforeReplace` (the engine then shows its own
 * diff of the inputs); the native provider hands over `detailedDiff` too, which is what a preview
 * prints. Both come from the same decision here, so the two can never disagree.
 */
export interface ResourceDiff {
  changes: boolean;
  /** Top-level properties whose change replaces the resource. */
  replaces: string[];
  deleteBeforeReplace: boolean;
  /** Each changed property by its path (`targetWeightsBps.tbills`, `label`). */
  detailedDiff: Record<string, PropertyChange>;
}

/** One property's change: added, changed in place or removed; `replaces` when it forces a replacement. */
export interface PropertyChange {
  kind: "add" | "update" | "delete";
  replaces: boolean;
}

const same = (a: unknown, b: unknown) => JSON.stringify(a ?? null) === JSON.stringify(b ?? null);

/**
 * The change of one value, or undefined when it is the same. A value still unknown (during a
 * preview, an output of a resource not yet created) counts as changed: the preview then shows an
 * update rather than hiding one.
 */
export function valueChange(
  oldValue: unknown,
  newValue: unknown,
  options: { replaces?: boolean } = {},
): PropertyChange | undefined {
  const replaces = options.replaces ?? false;
  if (containsUnknown(newValue)) return { kind: "update", replaces };
  if (same(oldValue, newValue)) return undefined;
  if (oldValue === undefined || oldValue === null) return { kind: "add", replaces };
  if (newValue === undefined || newValue === null) return { kind: "delete", replaces };
  return { kind: "update", replaces };
}

/** The changes between two maps, entry by entry: what lets a reviewer read `~ tbills: 5000 => 3000`. */
export function mapChanges(
  name: string,
  olds: Readonly<Record<string, unknown>>,
  news: Readonly<Record<string, unknown>>,
): Record<string, PropertyChange> {
  const changes: Record<string, PropertyChange> = {};
  for (const key of new Set([...Object.keys(olds), ...Object.keys(news)])) {
    const change = valueChange(olds[key], news[key]);
    if (change !== undefined) changes[propertyPath(name, key)] = change;
  }
  return changes;
}

/** The diff of a resource from its property changes (undefined entries are unchanged properties). */
export function resourceDiffOf(
  changes: Record<string, PropertyChange | undefined>,
  options: { deleteBeforeReplace?: boolean } = {},
): ResourceDiff {
  const detailedDiff = Object.fromEntries(
    Object.entries(changes).filter((entry): entry is [string, PropertyChange] => entry[1] !== undefined),
  );
  const replaces = [
    ...new Set(
      Object.entries(detailedDiff)
        .filter(([, change]) => change.replaces)
        .map(([path]) => topLevelProperty(path)),
    ),
  ];
  return {
    changes: Object.keys(detailedDiff).length > 0,
    replaces,
    deleteBeforeReplace: options.deleteBeforeReplace ?? false,
    detailedDiff,
  };
}
