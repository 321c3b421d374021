import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, test } from "vitest";
import type { z } from "zod";
import { resourceDocs } from "../../scripts/packageSchema/docComments.ts";
import { generatedDifferences } from "../../scripts/generateSdks.ts";
import { repoRoot } from "../../scripts/pulumiEnv.ts";
import { READ_FUNCTIONS } from "../../sdk/nodejs/functions/readFunctions.ts";
import {
  nativeTypeTokenOf,
  RESOURCE_DESCRIPTORS,
  RESOURCE_KINDS,
  type ResourceKind,
} from "../../sdk/nodejs/resources/resourceTypes.ts";
import { SETTINGS } from "../../sdk/nodejs/stackSettings.ts";
import { LanguageProject } from "./harness/languageProject.ts";

/**
 * The package schema and the SDKs are generated, never kept by hand: these fail when the committed
 * files are not what generation gives, and when the schema and the contract (the zod schemas the
 * provider checks inputs with and writes outputs by, the resource classes' declared outputs, the
 * settings table, the read functions) disagree.
 */

type Schema = {
  version: string;
  config: { variables: Record<string, { secret?: boolean; description?: string }> };
  resources: Record<
    string,
    {
      description: string;
      inputProperties: Record<string, { description?: string; secret?: boolean }>;
      requiredInputs: string[];
      properties: Record<string, { description?: string; secret?: boolean }>;
      required: string[];
    }
  >;
  functions: Record<
    string,
    { inputs?: { properties: Record<string, unknown> }; outputs: { properties: Record<string, unknown> } }
  >;
};
const schema = JSON.parse(readFileSync(path.join(repoRoot, "provider/native/schema.json"), "utf8")) as Schema;

const INPUTS = (kind: ResourceKind): z.ZodObject => RESOURCE_DESCRIPTORS[kind].inputs;
const OUTPUTS = (kind: ResourceKind): z.ZodObject => RESOURCE_DESCRIPTORS[kind].outputs;
const SECRET_OUTPUTS = (kind: ResourceKind): readonly string[] => RESOURCE_DESCRIPTORS[kind].secretOutputs;
const kinds = RESOURCE_KINDS;
const keysOf = (object: z.ZodObject) => Object.keys(object.shape).sort();
const requiredOf = (object: z.ZodObject) =>
  Object.entries(object.shape)
    .filter(([, field]) => !(field as z.ZodType).safeParse(undefined).success)
    .map(([name]) => name)
    .sort();

describe("the package schema (provider/native/schema.json)", () => {
  test("the committed schema and SDKs are exactly what generation gives", () => {
    expect(generatedDifferences()).toEqual([]);
  }, 300_000);

  test("carries the package's version", () => {
    const { version } = JSON.parse(readFileSync(path.join(repoRoot, "package.json"), "utf8")) as {
      version: string;
    };
    expect(schema.version).toBe(version);
  });

  test.each(kinds)("%s: inputs are the provider's input schema, outputs its output schema", (kind) => {
    const resource = schema.resources[nativeTypeTokenOf(kind)]!;
    const inputKeys = keysOf(INPUTS(kind)).filter((name) => name !== "resourceUrn");
    expect(Object.keys(resource.inputProperties).sort()).toEqual(inputKeys);
    expect([...resource.requiredInputs].sort()).toEqual(
      requiredOf(INPUTS(kind)).filter((n) => n !== "resourceUrn"),
    );
    expect(Object.keys(resource.properties).sort()).toEqual(keysOf(OUTPUTS(kind)));
    expect([...resource.required].sort()).toEqual(requiredOf(OUTPUTS(kind)));
    const secretOutputs = Object.entries(resource.properties)
      .filter(([, property]) => property.secret === true)
      .map(([name]) => name);
    expect(secretOutputs).toEqual([...SECRET_OUTPUTS(kind)]);
  });

  test.each(kinds)(
    "%s: the TypeScript class declares the same outputs, and every property has its docs",
    (kind) => {
      const className = RESOURCE_DESCRIPTORS[kind].type;
      const docs = resourceDocs(
        repoRoot,
        `sdk/nodejs/resources/${className[0]!.toLowerCase()}${className.slice(1)}.ts`,
        className,
      );
      const resource = schema.resources[nativeTypeTokenOf(kind)]!;
      // adoptWalletId is an input the class does not repeat as an output; everything it declares is in the schema.
      expect(docs.declaredOutputs.filter((name) => !(name in resource.properties))).toEqual([]);
      expect(resource.description).toBe(docs.description);
      const undocumented = [
        ...Object.entries(resource.inputProperties).map(
          ([name, p]) => [`input ${name}`, p.description] as const,
        ),
        ...Object.entries(resource.properties).map(([name, p]) => [`output ${name}`, p.description] as const),
      ]
        .filter(([, description]) => description === undefined || description === "")
        .map(([name]) => name);
      expect(undocumented).toEqual([]);
    },
  );

  test("the configuration is the settings table: every setting, its secrecy and description", () => {
    expect(Object.keys(schema.config.variables).sort()).toEqual(Object.keys(SETTINGS).sort());
    for (const [name, setting] of Object.entries(SETTINGS)) {
      const variable = schema.config.variables[name]!;
      expect(variable.secret ?? false, name).toBe(setting.secret);
      expect(variable.description, name).toContain(setting.description);
      expect(variable.description, name).toContain(setting.env);
    }
  });

  test("the functions are the read functions, arguments and results from their schemas", () => {
    expect(Object.keys(schema.functions).sort()).toEqual(
      Object.keys(READ_FUNCTIONS)
        .map((name) => `portfolio-wallet:index:${name}`)
        .sort(),
    );
    for (const [name, fn] of Object.entries(READ_FUNCTIONS)) {
      const spec = schema.functions[`portfolio-wallet:index:${name}`]!;
      expect(Object.keys(spec.inputs?.properties ?? {}).sort(), name).toEqual(keysOf(fn.args as z.ZodObject));
      expect(Object.keys(spec.outputs.properties).sort(), name).toEqual(keysOf(fn.result as z.ZodObject));
    }
  });
});

describe("pulumi package get-schema", () => {
  test("the CLI, given the plugin installed from its release archive, prints the committed schema", async () => {
    const project = await LanguageProject.create(
      path.join(repoRoot, "test/native/programs/yaml-treasury"),
      "get-schema",
    );
    try {
      const { stdout } = await project.run("pulumi", ["package", "get-schema", "portfolio-wallet"]);
      expect(JSON.parse(stdout)).toEqual(schema);
    } finally {
      project.cleanUp();
    }
  });
});
