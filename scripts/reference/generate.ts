// The API reference of the native provider, generated from its package schema
// (provider/native/schema.json) in the Pulumi Registry's layout, into docs/reference/:
//   _index.md                      the package: what it is, its resources and functions
//   installation-configuration.md  installing the SDK and the plugin per language; every
//                                  configuration key with its environment variable and secrecy
//   api-docs/<name>.md             a page per resource (inputs, outputs with secrets marked, the
//                                  import syntax) and per function (arguments, result), each with
//                                  an example in TypeScript, Python, Go, YAML and Java: each one a
//                                  whole program (imports, Go's package and main, Java's class,
//                                  YAML's name and runtime) that compiles as a user pastes it
//                                  (test/docs/codeBlocks.test.ts compiles every one)
// Written by scripts/generateSdks.ts with the SDKs (`npm run generate`; its `--check`, which a test
// runs, fails when a page is stale). Why a script and not Pulumi's own docs generator
// (pkg/codegen/docs): that package is no longer in github.com/pulumi/pulumi/pkg/v3 (it moved to the
// Registry's own tooling, which the module proxy here does not serve), so it cannot run here.
import { SETTINGS, configKeyOf, type SettingName } from "../../sdk/nodejs/stackSettings.ts";

/** The parts of a package schema the reference reads. */
export interface SchemaProperty {
  type?: string;
  items?: SchemaProperty;
  additionalProperties?: SchemaProperty;
  $ref?: string;
  description?: string;
  secret?: boolean;
  enum?: unknown[];
}
interface ObjectSpec {
  description?: string;
  properties?: Record<string, SchemaProperty>;
  required?: string[];
}
interface ResourceSpec extends ObjectSpec {
  inputProperties: Record<string, SchemaProperty>;
  requiredInputs?: string[];
}
interface FunctionSpec {
  description?: string;
  inputs?: ObjectSpec;
  outputs: ObjectSpec;
}
export interface PackageSchema {
  name: string;
  displayName?: string;
  version: string;
  description?: string;
  repository?: string;
  config: { variables: Record<string, SchemaProperty> };
  resources: Record<string, ResourceSpec>;
  functions: Record<string, FunctionSpec>;
  types: Record<string, ObjectSpec>;
}

/** A value in an example, rendered into each language. `ref` values are variables of the program. */
type ExampleValue =
  string | number | boolean | ExampleValue[] | { [key: string]: ExampleValue } | { ref: string };

/** The example of each resource and function: its arguments. */
const EXAMPLES: Record<string, Record<string, ExampleValue>> = {
  PortfolioWallet: {
    label: "treasury",
    positions: [
      { positionKey: "tbills", targetWeightBps: 6000 },
      { positionKey: "syrupUsdc", targetWeightBps: 4000 },
    ],
  },
  WalletStrategy: {
    walletId: { ref: "walletId" },
    positions: [
      { positionKey: "tbills", targetWeightBps: 3000 },
      { positionKey: "resolvRlp", targetWeightBps: 7000 },
    ],
  },
  WebhookRegistration: {
    url: "https://hooks.example.com/portfolio",
    eventTypes: ["portfolio_wallet.strategy.status_changed"],
  },
  getQuote: { minApyTargetBps: 400 },
  getStrategies: {},
  getYieldSources: {},
  getWallet: { walletId: { ref: "walletId" } },
  getYieldMetrics: { periodStartIso: "2026-01-01T00:00:00Z" },
};

/** The resource name and program variable of each resource's example. */
const EXAMPLE_NAMES: Record<string, { resourceName: string; variable: string }> = {
  PortfolioWallet: { resourceName: "treasury", variable: "treasury" },
  WalletStrategy: { resourceName: "treasury-allocation", variable: "allocation" },
  WebhookRegistration: { resourceName: "treasury-events", variable: "events" },
};

/**
 * The output each example exports, so that the variable it binds is used: Go refuses a program
 * with a variable declared and not used, and a user pasting the example wants to see a value.
 */
const EXAMPLE_EXPORTS: Record<string, string> = {
  PortfolioWallet: "walletId",
  WalletStrategy: "strategyChangeStatus",
  WebhookRegistration: "registrationId",
  getQuote: "options",
  getStrategies: "strategies",
  getYieldSources: "yieldSources",
  getWallet: "totalBalanceUsd",
  getYieldMetrics: "global",
};

/** What `pulumi import` takes as each resource's id. */
const IMPORT_IDS: Record<string, { id: string; what: string }> = {
  PortfolioWallet: { id: "<walletId>", what: "the wallet's id" },
  WalletStrategy: { id: "<walletId>/strategy", what: "the wallet's id followed by `/strategy`" },
  WebhookRegistration: { id: "<registrationId>", what: "the webhook registration's id" },
};

/** The TypeScript call of each function in `@portfolio-wallet/pulumi`, whose signatures are its own. */
const TYPESCRIPT_CALLS: Record<string, string> = {
  getQuote: "const options = await getQuote({ minApyTargetBps: 400 });",
  getStrategies: "const strategies = await getStrategies();",
  getYieldSources: "const yieldSources = await getYieldSources();",
  getWallet: "const wallet = await getWallet(walletId);",
  getYieldMetrics: 'const metrics = await getYieldMetrics({ periodStartIso: "2026-01-01T00:00:00Z" });',
};

const LANGUAGES = ["TypeScript", "Python", "Go", "YAML", "Java"] as const;

const shortName = (token: string) => token.split(":").at(-1)!;
const snake = (name: string) => name.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);
const pascal = (name: string) => name[0]!.toUpperCase() + name.slice(1);
const pageName = (token: string) => shortName(token).toLowerCase();
const refName = (ref: string) => shortName(ref.replace(/^#\/types\//, ""));

/** The schema type of a property, in words, linking object types to their section. */
function typeText(property: SchemaProperty): string {
  if (property.$ref !== undefined) {
    const name = refName(property.$ref);
    return `[${name}](#${name.toLowerCase()})`;
  }
  if (property.type === "array") return `list of ${typeText(property.items ?? {})}`;
  if (property.type === "object" && property.additionalProperties !== undefined)
    return `map of ${typeText(property.additionalProperties)}`;
  return property.type ?? "any";
}

const cell = (text: string | undefined) => (text ?? "").replace(/\s*\n\s*/g, " ").replace(/\|/g, "\\|");

function propertyTable(
  properties: Record<string, SchemaProperty>,
  required: readonly string[],
  options: { showRequired: boolean },
): string {
  const names = Object.keys(properties);
  if (names.length === 0) return "None.\n";
  const header = options.showRequired
    ? "| Name | Type | Required | Description |\n| --- | --- | --- | --- |\n"
    : "| Name | Type | Description |\n| --- | --- | --- |\n";
  const rows = names.map((name) => {
    const property = properties[name]!;
    const secret = property.secret === true ? " **Secret.**" : "";
    const description = `${cell(property.description)}${secret}`.trim();
    const label = `\`${name}\`${property.secret === true ? " 🔒" : ""}`;
    return options.showRequired
      ? `| ${label} | ${typeText(property)} | ${required.includes(name) ? "yes" : "no"} | ${description} |`
      : `| ${label} | ${typeText(property)} | ${description} |`;
  });
  return `${header}${rows.join("\n")}\n`;
}

/** Every object type a set of properties refers to, transitively, in order of first mention. */
function referencedTypes(schema: PackageSchema, properties: Record<string, SchemaProperty>): string[] {
  const found: string[] = [];
  const visit = (property: SchemaProperty) => {
    if (property.$ref !== undefined) {
      const token = property.$ref.replace(/^#\/types\//, "");
      if (found.includes(token)) return;
      found.push(token);
      for (const inner of Object.values(schema.types[token]?.properties ?? {})) visit(inner);
    }
    if (property.items !== undefined) visit(property.items);
    if (property.additionalProperties !== undefined) visit(property.additionalProperties);
  };
  for (const property of Object.values(properties)) visit(property);
  return found;
}

function typesSection(schema: PackageSchema, properties: Record<string, SchemaProperty>): string {
  const tokens = referencedTypes(schema, properties);
  if (tokens.length === 0) return "";
  const sections = tokens.map((token) => {
    const type = schema.types[token]!;
    const description = type.description === undefined ? "" : `${type.description.trim()}\n\n`;
    return `### ${shortName(token)}\n\n${description}${propertyTable(type.properties ?? {}, type.required ?? [], { showRequired: true })}`;
  });
  return `## Types\n\n${sections.join("\n")}`;
}

// ----- examples in each language -----

/** The object type of a property, for the languages that name it (Python, Go, Java). */
function objectTypeOf(property: SchemaProperty | undefined): string | undefined {
  const target = property?.type === "array" ? property.items : property;
  return target?.$ref === undefined ? undefined : refName(target.$ref);
}

const isRef = (value: ExampleValue): value is { ref: string } =>
  typeof value === "object" && value !== null && !Array.isArray(value) && "ref" in value;
const isObject = (value: ExampleValue): value is Record<string, ExampleValue> =>
  typeof value === "object" && value !== null && !Array.isArray(value) && !isRef(value);

function propertiesOf(schema: PackageSchema, typeName: string | undefined): Record<string, SchemaProperty> {
  if (typeName === undefined) return {};
  return schema.types[`${schema.name}:index:${typeName}`]?.properties ?? {};
}

function typescriptValue(value: ExampleValue, indent: string): string {
  if (isRef(value)) return value.ref;
  if (Array.isArray(value))
    return `[\n${value.map((v) => `${indent}  ${typescriptValue(v, `${indent}  `)},`).join("\n")}\n${indent}]`;
  if (isObject(value)) {
    const entries = Object.entries(value).map(([k, v]) => `${k}: ${typescriptValue(v, indent)}`);
    return `{ ${entries.join(", ")} }`;
  }
  return JSON.stringify(value);
}

function pythonValue(
  schema: PackageSchema,
  value: ExampleValue,
  property: SchemaProperty | undefined,
  indent: string,
): string {
  if (isRef(value)) return snake(value.ref);
  if (Array.isArray(value))
    return `[\n${value.map((v) => `${indent}    ${pythonValue(schema, v, property?.items ?? property, `${indent}    `)},`).join("\n")}\n${indent}]`;
  if (isObject(value)) {
    const typeName = objectTypeOf(property);
    const inner = propertiesOf(schema, typeName);
    const args = Object.entries(value).map(
      ([k, v]) => `${snake(k)}=${pythonValue(schema, v, inner[k], indent)}`,
    );
    return `${PYTHON_MODULE}.${typeName}Args(${args.join(", ")})`;
  }
  if (typeof value === "boolean") return value ? "True" : "False";
  return JSON.stringify(value);
}

function goValue(
  schema: PackageSchema,
  value: ExampleValue,
  property: SchemaProperty | undefined,
  indent: string,
): string {
  if (isRef(value)) return value.ref;
  if (Array.isArray(value)) {
    const items = property?.items;
    const typeName = objectTypeOf(property);
    const arrayType =
      typeName !== undefined ? `portfoliowallet.${typeName}Array` : `pulumi.${pascal(goScalar(items))}Array`;
    return `${arrayType}{\n${value.map((v) => `${indent}\t${goValue(schema, v, items, `${indent}\t`)},`).join("\n")}\n${indent}}`;
  }
  if (isObject(value)) {
    const typeName = objectTypeOf(property);
    const inner = propertiesOf(schema, typeName);
    const fields = Object.entries(value).map(
      ([k, v]) => `${pascal(k)}: ${goValue(schema, v, inner[k], indent)}`,
    );
    return `portfoliowallet.${typeName}Args{${fields.join(", ")}}`;
  }
  return `pulumi.${pascal(goScalar(property))}(${JSON.stringify(value)})`;
}

/** The Go SDK's input type of a scalar: pulumi.String, pulumi.Int, pulumi.Float64, pulumi.Bool. */
function goScalar(property: SchemaProperty | undefined): string {
  const scalars: Record<string, string> = { integer: "int", number: "float64", boolean: "bool" };
  return scalars[property?.type ?? ""] ?? "string";
}

/** A plain Go value for a function's arguments (pointers for optional scalars). */
function goPlainValue(value: ExampleValue, property: SchemaProperty | undefined, required: boolean): string {
  if (isRef(value)) return required ? value.ref : `&${value.ref}`;
  if (Array.isArray(value)) return `[]string{${value.map((v) => JSON.stringify(v)).join(", ")}}`;
  const literal = JSON.stringify(value);
  if (required) return literal;
  return `pulumi.${pascal(goScalar(property))}Ref(${literal})`;
}

function javaValue(
  schema: PackageSchema,
  value: ExampleValue,
  property: SchemaProperty | undefined,
  indent: string,
): string {
  if (isRef(value)) return value.ref;
  if (Array.isArray(value))
    return value
      .map((v) => `\n${indent}    ${javaValue(schema, v, property?.items ?? property, `${indent}    `)}`)
      .join(",");
  if (isObject(value)) {
    const typeName = objectTypeOf(property);
    const calls = Object.entries(value).map(
      ([k, v]) => `.${k}(${javaValue(schema, v, propertiesOf(schema, typeName)[k], indent)})`,
    );
    return `${typeName}Args.builder()${calls.join("")}.build()`;
  }
  return JSON.stringify(value);
}

function yamlValue(value: ExampleValue, indent: string): string {
  if (isRef(value)) return `\${${value.ref}}`;
  if (Array.isArray(value))
    return value
      .map((v) => {
        if (isObject(v)) {
          const [first, ...rest] = Object.entries(v);
          const lines = [`${indent}- ${first![0]}: ${yamlValue(first![1], `${indent}  `)}`];
          for (const [k, inner] of rest) lines.push(`${indent}  ${k}: ${yamlValue(inner, `${indent}  `)}`);
          return lines.join("\n");
        }
        return `${indent}- ${yamlValue(v, indent)}`;
      })
      .join("\n")
      .replace(/^/, "\n");
  if (isObject(value))
    return Object.entries(value)
      .map(([k, v]) => `\n${indent}${k}: ${yamlValue(v, `${indent}  `)}`)
      .join("");
  return typeof value === "string" && !/^[\w./:-]+$/.test(value) ? JSON.stringify(value) : String(value);
}

const PYTHON_MODULE = "portfolio_wallet";

function exportedOutput(name: string): string {
  const output = EXAMPLE_EXPORTS[name];
  if (output === undefined)
    throw new Error(`EXAMPLE_EXPORTS has no output for ${name}: add the one its example exports`);
  return output;
}

const indented = (code: string, prefix: string) =>
  code
    .split("\n")
    .map((line) => (line === "" ? line : `${prefix}${line}`))
    .join("\n");

/** A Go example as a whole `main` package, as a user pastes it into main.go. */
function goProgram(body: string, exportLine: string): string {
  return (
    `package main\n\nimport (\n\tportfoliowallet "github.com/portfolio-wallet/pulumi-portfolio-wallet/sdk/go/portfoliowallet"\n` +
    `\t"github.com/pulumi/pulumi/sdk/v3/go/pulumi"\n)\n\nfunc main() {\n\tpulumi.Run(func(ctx *pulumi.Context) error {\n` +
    `${indented(body, "\t\t")}\n\t\t${exportLine}\n\t\treturn nil\n\t})\n}`
  );
}

/** The Java SDK's package (sdk/java): resources, their Args and the functions here, other Args under `.inputs`. */
const JAVA_PACKAGE = "com.portfoliowallet.portfoliowallet";

/**
 * A Java example as a whole compilation unit, `src/main/java/App.java` of languages.md's Maven
 * project, importing exactly the SDK classes it names.
 */
function javaProgram(body: string, exportLine: string, resourceNames: string[]): string {
  const classes = [...new Set([...body.matchAll(/\b([A-Z]\w*)\b/g)].map((match) => match[1]!))].sort();
  const inBasePackage = (name: string) =>
    name === "PortfoliowalletFunctions" || resourceNames.some((r) => name === r || name === `${r}Args`);
  const imports = classes
    .filter((name) => inBasePackage(name) || name.endsWith("Args"))
    .map((name) => `import ${JAVA_PACKAGE}.${inBasePackage(name) ? "" : "inputs."}${name};`)
    .sort();
  return (
    `${[...imports, "import com.pulumi.Pulumi;"].join("\n")}\n\npublic class App {\n    public static void main(String[] args) {\n` +
    `        Pulumi.run(ctx -> {\n${indented(body, "            ")}\n            ${exportLine}\n        });\n    }\n}`
  );
}

/** A YAML example as a whole Pulumi.yaml: a YAML program is its project file. */
function yamlProgram(body: string, outputLine: string): string {
  return `name: treasury\nruntime: yaml\n${body}\noutputs:\n  ${outputLine}`;
}

/** A walletId variable for the examples that need one. */
const WALLET_ID_SETUP: Record<(typeof LANGUAGES)[number], string> = {
  TypeScript: 'const walletId = "<walletId>";',
  Python: 'wallet_id = "<walletId>"',
  Go: 'walletId := "<walletId>"',
  YAML: "config:\n  walletId:\n    type: string",
  Java: 'var walletId = "<walletId>";',
};

function needsWalletId(args: Record<string, ExampleValue>): boolean {
  return Object.values(args).some((value) => isRef(value) && value.ref === "walletId");
}

function resourceExample(
  schema: PackageSchema,
  name: string,
  spec: ResourceSpec,
  language: (typeof LANGUAGES)[number],
): string {
  const args = EXAMPLES[name] ?? {};
  const { resourceName, variable } = EXAMPLE_NAMES[name] ?? { resourceName: name, variable: "resource" };
  const setup = needsWalletId(args) ? `${WALLET_ID_SETUP[language]}\n` : "";
  const entries = Object.entries(args);
  switch (language) {
    case "TypeScript": {
      const props = entries.map(([k, v]) => `  ${k}: ${typescriptValue(v, "  ")},`).join("\n");
      return `import { ${name} } from "@portfolio-wallet/pulumi";\n\n${setup}const ${variable} = new ${name}("${resourceName}", {\n${props}\n});`;
    }
    case "Python": {
      const props = entries
        .map(([k, v]) => `    ${snake(k)}=${pythonValue(schema, v, spec.inputProperties[k], "    ")},`)
        .join("\n");
      return `import pulumi_portfolio_wallet as ${PYTHON_MODULE}\n\n${setup}${snake(variable)} = ${PYTHON_MODULE}.${name}(\n    "${resourceName}",\n${props}\n)`;
    }
    case "Go": {
      const props = entries
        .map(([k, v]) => `\t${pascal(k)}: ${goValue(schema, v, spec.inputProperties[k], "\t")},`)
        .join("\n")
        .replace(/^\t(\w+): (\w+)$/gm, "\t$1: $2");
      const goSetup = setup === "" ? "" : `${setup}`;
      const body = `${goSetup}${variable}, err := portfoliowallet.New${name}(ctx, "${resourceName}", &portfoliowallet.${name}Args{\n${props.replace(
        /: walletId,/,
        ": pulumi.String(walletId),",
      )}\n})\nif err != nil {\n\treturn err\n}`;
      const output = exportedOutput(name);
      return goProgram(body, `ctx.Export("${output}", ${variable}.${pascal(output)})`);
    }
    case "YAML": {
      const props = entries
        .map(([k, v]) => `      ${k}: ${yamlValue(v, "        ")}`.replace(/: \n/, ":\n"))
        .join("\n");
      const output = exportedOutput(name);
      return yamlProgram(
        `${setup}resources:\n  ${resourceName}:\n    type: ${schema.name}:${name}\n    properties:\n${props}`,
        `${output}: \${${resourceName}.${output}}`,
      );
    }
    case "Java": {
      const calls = entries
        .map(([k, v]) => `    .${k}(${javaValue(schema, v, spec.inputProperties[k], "    ")})`)
        .join("\n");
      const output = exportedOutput(name);
      return javaProgram(
        `${setup}var ${variable} = new ${name}("${resourceName}", ${name}Args.builder()\n${calls}\n    .build());`,
        `ctx.export("${output}", ${variable}.${output}());`,
        Object.keys(schema.resources).map(shortName),
      );
    }
  }
}

function functionExample(
  schema: PackageSchema,
  name: string,
  spec: FunctionSpec,
  language: (typeof LANGUAGES)[number],
): string {
  const args = EXAMPLES[name] ?? {};
  const entries = Object.entries(args);
  const inputs = spec.inputs?.properties ?? {};
  const required = spec.inputs?.required ?? [];
  const setup = needsWalletId(args) ? `${WALLET_ID_SETUP[language]}\n` : "";
  const result = "result";
  switch (language) {
    case "TypeScript":
      return `import { ${name} } from "@portfolio-wallet/pulumi";\n\n${setup}${TYPESCRIPT_CALLS[name] ?? `const ${result} = await ${name}();`}`;
    case "Python": {
      const call = entries.map(([k, v]) => `${snake(k)}=${pythonValue(schema, v, inputs[k], "")}`).join(", ");
      return `import pulumi_portfolio_wallet as ${PYTHON_MODULE}\n\n${setup}${result} = ${PYTHON_MODULE}.${snake(name)}(${call})`;
    }
    case "Go": {
      const argsText =
        spec.inputs === undefined
          ? ""
          : `, &portfoliowallet.${pascal(name)}Args{${entries
              .map(([k, v]) => `${pascal(k)}: ${goPlainValue(v, inputs[k], required.includes(k))}`)
              .join(", ")}}`;
      const output = exportedOutput(name);
      return goProgram(
        `${setup}${result}, err := portfoliowallet.${pascal(name)}(ctx${argsText})\nif err != nil {\n\treturn err\n}`,
        `ctx.Export("${output}", pulumi.Any(${result}.${pascal(output)}))`,
      );
    }
    case "YAML": {
      const argsText = entries.map(([k, v]) => `\n        ${k}: ${yamlValue(v, "          ")}`).join("");
      const output = exportedOutput(name);
      return yamlProgram(
        `${setup}variables:\n  ${result}:\n    fn::invoke:\n      function: ${schema.name}:${name}\n      arguments:${argsText === "" ? " {}" : argsText}`,
        `${output}: \${${result}.${output}}`,
      );
    }
    case "Java": {
      const argsText =
        spec.inputs === undefined
          ? ""
          : `${pascal(name)}Args.builder()${entries.map(([k, v]) => `.${k}(${javaValue(schema, v, inputs[k], "")})`).join("")}.build()`;
      const output = exportedOutput(name);
      return javaProgram(
        `${setup}var ${result} = PortfoliowalletFunctions.${name}(${argsText});`,
        `ctx.export("${output}", ${result}.applyValue(value -> value.${output}()));`,
        Object.keys(schema.resources).map(shortName),
      );
    }
  }
}

const FENCE: Record<(typeof LANGUAGES)[number], string> = {
  TypeScript: "typescript",
  Python: "python",
  Go: "go",
  YAML: "yaml",
  Java: "java",
};

function examplesSection(render: (language: (typeof LANGUAGES)[number]) => string): string {
  return LANGUAGES.map(
    (language) => `### ${language}\n\n\`\`\`${FENCE[language]}\n${render(language)}\n\`\`\`\n`,
  ).join("\n");
}

const GENERATED_NOTE =
  "<!-- Generated from provider/native/schema.json by scripts/reference/generate.ts (npm run generate); do not edit. -->\n\n";

function resourcePage(schema: PackageSchema, token: string, spec: ResourceSpec): string {
  const name = shortName(token);
  const importId = IMPORT_IDS[name];
  const importText =
    importId === undefined
      ? ""
      : `## Import\n\nThe id is ${importId.what}:\n\n\`\`\`sh\npulumi import ${token} <name> ${importId.id}\n\`\`\`\n\nTypeScript programs use the npm package's dynamic resources, which cannot be imported; they adopt a wallet with \`adoptWalletId\` instead. YAML and Java print the code to paste; the offline engine's Python and Go hosts print none (add \`--generate-code=false\` there); see [languages.md](../../languages.md#pulumi-import).\n\n` +
        `The import marks the resource protected: \`pulumi destroy\` then stops with \`cannot be deleted because it is protected\`. To let the stack delete it, run \`pulumi state unprotect '<urn>'\` (its URN as \`pulumi stack --show-urns\` prints it) before \`pulumi destroy\`, and drop the protect option from the code, or the next \`pulumi up\` protects it again.\n\n`;
  const allProperties = { ...spec.inputProperties, ...(spec.properties ?? {}) };
  return (
    `${GENERATED_NOTE}# ${name}\n\n\`${token}\`\n\n${(spec.description ?? "").trim()}\n\n` +
    `## Example\n\n${examplesSection((language) => resourceExample(schema, name, spec, language))}\n` +
    `## Inputs\n\n${propertyTable(spec.inputProperties, spec.requiredInputs ?? [], { showRequired: true })}\n` +
    `## Outputs\n\nEvery input is also an output. Secret outputs are marked 🔒: the engine stores them encrypted and shows them as \`[secret]\`.\n\n` +
    `${propertyTable(spec.properties ?? {}, [], { showRequired: false })}\n` +
    importText +
    typesSection(schema, allProperties)
  );
}

function functionPage(schema: PackageSchema, token: string, spec: FunctionSpec): string {
  const name = shortName(token);
  const inputs = spec.inputs?.properties ?? {};
  return (
    `${GENERATED_NOTE}# ${name}\n\n\`${token}\`\n\n${(spec.description ?? "").trim()}\n\n` +
    `## Example\n\n${examplesSection((language) => functionExample(schema, name, spec, language))}\n` +
    `## Arguments\n\n${propertyTable(inputs, spec.inputs?.required ?? [], { showRequired: true })}\n` +
    `## Result\n\n${propertyTable(spec.outputs.properties ?? {}, [], { showRequired: false })}\n` +
    typesSection(schema, { ...inputs, ...(spec.outputs.properties ?? {}) })
  );
}

function indexPage(schema: PackageSchema): string {
  const link = (token: string) => `- [${shortName(token)}](api-docs/${pageName(token)}.md)`;
  return (
    `${GENERATED_NOTE}# ${schema.displayName ?? schema.name} ${schema.version}\n\n${(schema.description ?? "").trim()}\n\n` +
    `Package \`${schema.name}\`. Installation and the provider's settings: [installation-configuration.md](installation-configuration.md).\n\n` +
    `## Resources\n\n${Object.keys(schema.resources).sort().map(link).join("\n")}\n\n` +
    `## Functions\n\n${Object.keys(schema.functions).sort().map(link).join("\n")}\n`
  );
}

function installationPage(schema: PackageSchema): string {
  const rows = Object.entries(schema.config.variables).map(([name, variable]) => {
    const setting = SETTINGS[name as SettingName] as { env: string; secret?: boolean } | undefined;
    const env = setting === undefined ? "" : `\`${setting.env}\``;
    return `| \`${configKeyOf(name as SettingName)}\` | ${typeText(variable)} | ${env} | ${variable.secret === true ? "yes" : "no"} | ${cell(variable.description)} |`;
  });
  return (
    `${GENERATED_NOTE}# Installation and configuration\n\n` +
    `## Installation\n\n` +
    `The provider is a plugin (a Node.js program: Node.js 22.19 or newer on \`PATH\`) and an SDK per language. ` +
    `The steps per language, including getting an SDK before it is published, are in [languages.md](../languages.md).\n\n` +
    `| Language | Package |\n| --- | --- |\n` +
    `| TypeScript, JavaScript | \`@portfolio-wallet/pulumi\` (npm; dynamic resources, no plugin needed) |\n` +
    `| Python | \`pulumi_portfolio_wallet\` (from \`sdk/python\`; not yet on PyPI) |\n` +
    `| Go | \`github.com/portfolio-wallet/pulumi-portfolio-wallet/sdk/go/portfoliowallet\` (from \`sdk/go\`) |\n` +
    `| Java | \`com.portfoliowallet:pulumi-portfolio-wallet\` (from \`sdk/java\`; not yet on Maven Central) |\n` +
    `| YAML | the type tokens \`${schema.name}:<Type>\` |\n\n` +
    `The plugin: \`pulumi plugin install resource ${schema.name} ${schema.version} --file pulumi-resource-${schema.name}-v${schema.version}.tar.gz\` (the archive each release carries).\n\n` +
    `## Configuration\n\n` +
    `Stack settings, each with an environment variable the provider reads when the setting is absent. ` +
    `Set the secret ones with \`pulumi config set --secret\`: stored in plain text they work, with a warning.\n\n` +
    `| Setting | Type | Environment variable | Secret | Description |\n| --- | --- | --- | --- | --- |\n${rows.join("\n")}\n`
  );
}

/** Every page of the reference, keyed by its path under docs/reference/. */
export function referencePages(schema: PackageSchema): Map<string, string> {
  const pages = new Map<string, string>();
  pages.set("_index.md", indexPage(schema));
  pages.set("installation-configuration.md", installationPage(schema));
  for (const [token, spec] of Object.entries(schema.resources))
    pages.set(`api-docs/${pageName(token)}.md`, resourcePage(schema, token, spec));
  for (const [token, spec] of Object.entries(schema.functions))
    pages.set(`api-docs/${pageName(token)}.md`, functionPage(schema, token, spec));
  return pages;
}
