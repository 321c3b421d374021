import { readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import { describe, expect, test } from "vitest";
import { repoRoot } from "../scripts/pulumiEnv.ts";
import { RESOURCE_DESCRIPTORS } from "../sdk/nodejs/resources/resourceTypes.ts";

/**
 * The allocation's one route (docs/architecture.md), held on the source text: where a resource
 * keeps its allocation is said once, in its descriptor (`allocationFields`), and the allocation
 * changes form only through the contract's value (sdk/nodejs/contract/allocation.ts). A reader that
 * names a property itself, or converts between the map and the positions by hand, fails here with
 * the file and line to change.
 */

/** The provider side: what reads a resource's inputs and outputs (the sandbox is the service; it has none). */
const SOURCE_DIRS = ["sdk/nodejs", "provider", "policy", "cli"];

function sourceFiles(dir: string): string[] {
  return readdirSync(path.join(repoRoot, dir)).flatMap((entry) => {
    const relative = `${dir}/${entry}`;
    if (statSync(path.join(repoRoot, relative)).isDirectory()) return sourceFiles(relative);
    return /\.[cm]?ts$/.test(entry) && !entry.endsWith(".d.ts") ? [relative] : [];
  });
}

const SOURCES = SOURCE_DIRS.flatMap(sourceFiles).map((file) => ({
  file,
  text: readFileSync(path.join(repoRoot, file), "utf8"),
}));

/** Each match of `pattern` in a file's text, as `file:line: the matched text`. */
function findings(files: readonly { file: string; text: string }[], pattern: RegExp): string[] {
  return files.flatMap(({ file, text }) =>
    [...text.matchAll(new RegExp(pattern.source, `${pattern.flags.replace("g", "")}g`))].map((match) => {
      const line = text.slice(0, match.index).split("\n").length;
      return `${file}:${line}: ${match[0].replace(/\s+/g, " ").slice(0, 120)}`;
    }),
  );
}

/**
 * Every name a kind gives its inputs and outputs, from the descriptors themselves: the allocation's
 * (walletId, positions, strategyChange, ...) and the rest (label, onDelete, url, ...).
 */
const RESOURCE_PROPERTY_NAMES = [
  ...new Set(
    Object.values(RESOURCE_DESCRIPTORS).flatMap((descriptor) =>
      [descriptor.inputs, descriptor.checkedInputs, descriptor.outputs].flatMap((schema) =>
        Object.keys(schema.shape),
      ),
    ),
  ),
];

/** A property read by a string name, `props["walletId"]` or `outputs?.["strategyChange"]`. */
export const PROPERTY_READ_BY_NAME = new RegExp(
  `\\[\\s*["'\`](?:${RESOURCE_PROPERTY_NAMES.join("|")})["'\`]\\s*\\]`,
);

/**
 * A hand-written conversion between an allocation's map and its positions: `Object.fromEntries`,
 * `Object.entries` or `new Map` within one statement that pairs a positionKey with its targetWeightBps (a
 * map of something else by positionKey, such as each source's rate, is not an allocation).
 */
export const HAND_WRITTEN_CONVERSION =
  /(?:Object\.(?:fromEntries|entries)|new Map)\([^;]*?(?:positionKey[^;]*?targetWeightBps|targetWeightBps[^;]*?positionKey)/;

/** The places that may name the properties: the descriptors, and the one read of the engine's inputs. */
const MAY_NAME_PROPERTIES = (file: string) =>
  file.startsWith("sdk/nodejs/resources/") || file === "provider/inputs.ts";
/** The one place that converts between the forms: the contract's value. */
const MAY_CONVERT = (file: string) => file === "sdk/nodejs/contract/allocation.ts";

/** The matches of `pattern` in the sources outside the files `allowed` lets hold it. */
const findingsOutside = (allowed: (file: string) => boolean, pattern: RegExp) =>
  findings(
    SOURCES.filter(({ file }) => !allowed(file)),
    pattern,
  );

describe("the allocation's one route", () => {
  test("the patterns find what they are for (a guard that cannot fail guards nothing)", () => {
    const violations = [
      {
        file: "cli/x.ts",
        text: 'const w = outputs?.["targetWeightsBps"];\nconst id = props["walletId"];\nconst url = props["url"];',
      },
      {
        file: "cli/y.ts",
        text: "const weights = Object.fromEntries(\n  positions.map((p) => [p.positionKey, p.targetWeightBps]),\n);",
      },
      {
        file: "cli/z.ts",
        text: "Object.entries(weights).map(([positionKey, targetWeightBps]) => ({ positionKey, targetWeightBps }));",
      },
      {
        file: "cli/v.ts",
        text: "const targets = new Map(config.positions.map((p) => [p.positionKey, p.targetWeightBps]));",
      },
    ];
    expect(findings(violations, PROPERTY_READ_BY_NAME)).toHaveLength(3);
    expect(findings(violations, HAND_WRITTEN_CONVERSION)).toHaveLength(3);
    // Neither a typed read nor a conversion of something else is taken for one.
    const fine = [
      {
        file: "cli/w.ts",
        text:
          'inputs.targetWeightsBps; Object.entries(config).filter(([key]) => key !== "x");\n' +
          "Object.fromEntries(rates.map((r) => [r.positionKey, r.currentRateBps]));",
      },
    ];
    expect([...findings(fine, PROPERTY_READ_BY_NAME), ...findings(fine, HAND_WRITTEN_CONVERSION)]).toEqual(
      [],
    );
  });

  test("no read of a resource's properties by a string name outside its descriptor and provider/inputs.ts", () => {
    // Read the allocation's where the kind's descriptor says (allocationFieldsOf(kind)), and any
    // other through the kind's typed inputs or outputs (UncheckedInputs, UncheckedOutputs), so a
    // new or renamed name is the compiler's.
    expect(findingsOutside(MAY_NAME_PROPERTIES, PROPERTY_READ_BY_NAME)).toEqual([]);
  });

  test("no hand-written map ↔ positions conversion of an allocation outside the contract's value", () => {
    // Use TargetAllocation, weightsByKeyOf or positionsOfWeights (sdk/nodejs/contract/allocation.ts).
    expect(findingsOutside(MAY_CONVERT, HAND_WRITTEN_CONVERSION)).toEqual([]);
  });

  test("no second parse of a resource's inputs on the provider's path (create, update and diff get them typed)", () => {
    const outsideProvider = (file: string) => !file.startsWith("provider/");
    expect(findingsOutside(outsideProvider, /\bparseInputs\b/)).toEqual([]);
  });
});
