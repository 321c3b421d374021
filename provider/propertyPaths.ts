/**
 * Property paths as the engine writes them (`targetWeightsBps.tbills`, `targetWeightsBps["a.b"]`,
 * `positions[1].targetWeightBps`): built and split here only.
 */

const PLAIN_KEY = /^[A-Za-z_][A-Za-z0-9_]*$/;

/** The path of `key` inside `parent`: `targetWeightsBps.tbills`, or `targetWeightsBps["a.b"]`. */
export function propertyPath(parent: string, key: string): string {
  return PLAIN_KEY.test(key) ? `${parent}.${key}` : `${parent}[${JSON.stringify(key)}]`;
}

/** The top-level property a path starts with: `targetWeightsBps` of `targetWeightsBps.tbills`. */
export function topLevelProperty(path: string): string {
  return path.split(/[.[]/)[0] ?? "";
}
