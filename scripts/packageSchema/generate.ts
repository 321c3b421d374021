// The native provider's package schema (provider/native/schema.json), generated and never edited
// by hand: types from the zod schemas (the contract; each resource's descriptor: its input and
// output schemas and secret outputs), descriptions from the TypeScript docs (the JSDoc of the
// resource classes, of their outputs in the descriptors, and of the functions; the settings table). `pulumi package get-schema` on the plugin answers it, and the Python and Go
// SDKs are generated from it (scripts/sdkgen/).
//
//   node scripts/packageSchema/generate.ts           writes provider/native/schema.json
//   node scripts/packageSchema/generate.ts --check   fails when the committed file is not what it generates
import { readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { z } from "zod";
import * as contract from "../../sdk/nodejs/contract/index.ts";
import { READ_FUNCTIONS } from "../../sdk/nodejs/functions/readFunctions.ts";
import { nativeTypeToken, PACKAGE_NAME } from "../../sdk/nodejs/resources/resourceDescriptor.ts";
import { RESOURCE_DESCRIPTORS } from "../../sdk/nodejs/resources/resourceTypes.ts";
import {
  StrategyChangeStateSchema,
  SupersededFailureSchema,
  TargetPositionSchema,
} from "../../sdk/nodejs/resources/strategyChangeState.ts";
import { SETTINGS, type SettingName } from "../../sdk/nodejs/stackSettings.ts";
import { functionDocs, resourceDocs } from "./docComments.ts";
import { PulumiTypeCollector, type PulumiPropertySpec } from "./pulumiTypes.ts";

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..", "..");
export const SCHEMA_FILE = path.join(repoRoot, "provider", "native", "schema.json");

/** Inputs the resource classes set themselves; a native provider is told the URN instead. */
const INTERNAL_INPUTS = new Set(["resourceUrn"]);

const withDescription = (
  property: PulumiPropertySpec,
  description: string | undefined,
): PulumiPropertySpec =>
  description === undefined || description === "" ? property : { ...property, description };

/** The repository's GitHub path, from package.json (`github.com/owner/name`). */
function repositoryPath(manifest: { repository?: { url?: string } }): string {
  const url = manifest.repository?.url ?? "";
  const match = /github\.com[/:]([^/]+\/[^/.]+)/.exec(url);
  if (match === null)
    throw new Error(`package.json repository.url must name a GitHub repository (got "${url}")`);
  return `github.com/${match[1]}`;
}

export function generatePackageSchema(): Record<string, unknown> {
  const manifest = JSON.parse(readFileSync(path.join(repoRoot, "package.json"), "utf8")) as {
    version: string;
    description: string;
    license: string;
    homepage?: string;
    repository?: { url?: string };
  };
  const types = new PulumiTypeCollector(PACKAGE_NAME);
  // Every object schema of the contract is a named type wherever it appears (`QuoteOption`, ...),
  // named by the rule that names the OpenAPI document's components.
  for (const [name, value] of Object.entries(contract)) {
    if (name.endsWith("Schema") && value instanceof z.ZodObject)
      types.name(value, contract.schemaComponentName(name));
  }
  for (const [name, value] of Object.entries({
    StrategyChangeStateSchema,
    TargetPositionSchema,
    SupersededFailureSchema,
  }))
    types.name(value, contract.schemaComponentName(name));
  // Schemas whose JSON Schema form cannot say what they check (an allocation, a refined array) are
  // typed as the contract documents them, as in the OpenAPI document.
  for (const [schema, documentedAs] of contract.DOCUMENTED_AS)
    types.override(schema, types.typeOf(documentedAs, "input", "DocumentedAs"));

  const settingType = (name: SettingName) => ("type" in SETTINGS[name] ? SETTINGS[name].type : "string");
  const configVariables = Object.fromEntries(
    (Object.keys(SETTINGS) as SettingName[]).map((name) => [
      name,
      {
        type: settingType(name),
        description: `${SETTINGS[name].description} Environment variable: \`${SETTINGS[name].env}\`.`,
        ...(SETTINGS[name].secret ? { secret: true } : {}),
      },
    ]),
  );

  // Each resource from its descriptor (sdk/nodejs/resources/*Descriptor.ts).
  const resources = Object.fromEntries(
    Object.values(RESOURCE_DESCRIPTORS).map((descriptor) => {
      const className = descriptor.type;
      const secretOutputs: readonly string[] = descriptor.secretOutputs;
      const docs = resourceDocs(repoRoot, descriptor.classFile, className);
      const inputs = types.objectProperties(descriptor.inputs, "input", className);
      const outputs = types.objectProperties(descriptor.outputs, "output", className);
      const inputProperties = Object.fromEntries(
        Object.entries(inputs.properties)
          .filter(([name]) => !INTERNAL_INPUTS.has(name))
          .map(([name, property]) => [name, withDescription(property, docs.inputs[name])]),
      );
      const properties = Object.fromEntries(
        Object.entries(outputs.properties).map(([name, property]) => [
          name,
          {
            ...withDescription(property, docs.outputs[name] || docs.inputs[name]),
            ...(secretOutputs.includes(name) ? { secret: true } : {}),
          },
        ]),
      );
      return [
        nativeTypeToken(descriptor),
        {
          description: docs.description,
          inputProperties,
          requiredInputs: inputs.required.filter((name) => !INTERNAL_INPUTS.has(name)),
          properties,
          required: outputs.required,
        },
      ];
    }),
  );

  const functionDescriptions = functionDocs(repoRoot, "sdk/nodejs/functions/index.ts");
  const functions = Object.fromEntries(
    Object.entries(READ_FUNCTIONS).map(([name, fn]) => {
      const owner = `${name[0]!.toUpperCase()}${name.slice(1)}`;
      const args = types.objectProperties(fn.args, "input", `${owner}Args`);
      const result = types.objectProperties(fn.result, "output", `${owner}Result`);
      return [
        `${PACKAGE_NAME}:index:${name}`,
        {
          description: functionDescriptions[name] ?? "",
          ...(Object.keys(args.properties).length > 0 ? { inputs: functionObject(args) } : {}),
          outputs: functionObject(result),
        },
      ];
    }),
  );

  const repository = repositoryPath(manifest);
  return {
    name: PACKAGE_NAME,
    displayName: "Portfolio Wallet Yield Service",
    version: manifest.version,
    description: manifest.description,
    keywords: ["pulumi", "portfolio-wallet", "stablecoin", "treasury", "yield", "kind/native"],
    homepage: manifest.homepage,
    repository: `https://${repository}`,
    license: manifest.license,
    publisher: "Portfolio Wallet",
    // The code `pulumi import` prints for Java names input types com.<namespace>.<package>.inputs.*
    // (pulumi-java's program generator reads the namespace there, not java.basePackage), so this
    // makes it com.portfoliowallet.portfoliowallet.inputs, the SDK's own package (java.basePackage below).
    namespace: "portfoliowallet",
    // Versions go into the SDKs' own metadata (pyproject.toml, a go.mod of the Go SDK), so each SDK
    // asks the engine for the plugin of exactly its version.
    meta: { supportPack: true },
    config: { variables: configVariables },
    provider: {
      description:
        "The provider of the Portfolio Wallet Yield Service: where the service is, and the approver.",
      inputProperties: configVariables,
    },
    resources,
    functions,
    types: Object.fromEntries(Object.entries(types.types).sort(([a], [b]) => a.localeCompare(b))),
    language: {
      python: {
        packageName: "pulumi_portfolio_wallet",
        requires: { pulumi: ">=3.0.0,<4.0.0" },
        pyproject: { enabled: true },
        respectSchemaVersion: true,
      },
      go: {
        importBasePath: `${repository}/sdk/go/portfoliowallet`,
        generateResourceContainerTypes: true,
        respectSchemaVersion: true,
      },
      // Java package com.portfoliowallet.portfoliowallet; Maven coordinates in sdk/java/pom.xml
      // (scripts/generateSdks.ts). Without it the generator would put the SDK in Pulumi's own com.pulumi.
      java: { basePackage: "com.portfoliowallet" },
    },
  };
}

export function packageSchemaText(): string {
  return `${JSON.stringify(generatePackageSchema(), null, 2)}\n`;
}

if (process.argv[1] !== undefined && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const text = packageSchemaText();
  if (process.argv.includes("--check")) {
    if (readFileSync(SCHEMA_FILE, "utf8") !== text) {
      console.error(
        `${path.relative(repoRoot, SCHEMA_FILE)} is out of date: run node scripts/packageSchema/generate.ts`,
      );
      process.exit(1);
    }
  } else {
    writeFileSync(SCHEMA_FILE, text);
    console.error(`wrote ${path.relative(repoRoot, SCHEMA_FILE)}`);
  }
}

/**
 * A function's arguments or result as the schema states them. An empty `required` is left out, as
 * the engine leaves it out of what `pulumi package get-schema` prints, so the two are the same text.
 */
function functionObject(object: { properties: Record<string, unknown>; required: string[] }) {
  return {
    type: "object",
    properties: object.properties,
    ...(object.required.length > 0 ? { required: object.required } : {}),
  };
}
