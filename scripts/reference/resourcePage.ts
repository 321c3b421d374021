// A resource's reference page: its example in each language, its inputs and outputs, how to
// import it, and the object types it refers to.
import { resourceKindOfType } from "../../sdk/nodejs/resources/resourceTypes.ts";
import {
  examplesSection,
  goProgram,
  javaProgram,
  needsWalletId,
  WALLET_ID_SETUP,
  yamlProgram,
  type Language,
} from "./examplePrograms.ts";
import {
  goValue,
  javaValue,
  PYTHON_MODULE,
  pythonValue,
  typescriptValue,
  yamlValue,
} from "./exampleValues.ts";
import { pascal, shortName, snake, type PackageSchema, type ResourceSpec } from "./packageSchema.ts";
import { GENERATED_NOTE, propertyTable, typesSection } from "./pageParts.ts";
import { RESOURCE_EXAMPLES, type ResourceExample } from "./resourceExamples.ts";

/** The example of the resource of a schema token; an error for a token of no kind of this package. */
function exampleOf(token: string): ResourceExample {
  const kind = resourceKindOfType(token);
  if (kind === undefined) {
    throw new Error(
      `${token} is no resource kind of sdk/nodejs/resources/resourceTypes.ts: the schema is stale`,
    );
  }
  return RESOURCE_EXAMPLES[kind];
}

function resourceExample(
  schema: PackageSchema,
  name: string,
  spec: ResourceSpec,
  example: ResourceExample,
  language: Language,
): string {
  const { args, resourceName, variable, exportedOutput: output } = example;
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
      const body = `${setup}${variable}, err := portfoliowallet.New${name}(ctx, "${resourceName}", &portfoliowallet.${name}Args{\n${props.replace(
        /: walletId,/,
        ": pulumi.String(walletId),",
      )}\n})\nif err != nil {\n\treturn err\n}`;
      return goProgram(body, `ctx.Export("${output}", ${variable}.${pascal(output)})`);
    }
    case "YAML": {
      const props = entries
        .map(([k, v]) => `      ${k}: ${yamlValue(v, "        ")}`.replace(/: \n/, ":\n"))
        .join("\n");
      return yamlProgram(
        `${setup}resources:\n  ${resourceName}:\n    type: ${schema.name}:${name}\n    properties:\n${props}`,
        `${output}: \${${resourceName}.${output}}`,
      );
    }
    case "Java": {
      const calls = entries
        .map(([k, v]) => `    .${k}(${javaValue(schema, v, spec.inputProperties[k], "    ")})`)
        .join("\n");
      return javaProgram(
        `${setup}var ${variable} = new ${name}("${resourceName}", ${name}Args.builder()\n${calls}\n    .build());`,
        `ctx.export("${output}", ${variable}.${output}());`,
        Object.keys(schema.resources).map(shortName),
      );
    }
  }
}

export function resourcePage(schema: PackageSchema, token: string, spec: ResourceSpec): string {
  const name = shortName(token);
  const example = exampleOf(token);
  const { importId } = example;
  const importText =
    importId === null
      ? ""
      : `## Import\n\nThe id is ${importId.what}:\n\n\`\`\`sh\npulumi import ${token} <name> ${importId.id}\n\`\`\`\n\nTypeScript programs use the npm package's dynamic resources, which cannot be imported; they adopt a wallet with \`adoptWalletId\` instead. YAML and Java print the code to paste; the offline engine's Python and Go hosts print none (add \`--generate-code=false\` there); see [languages.md](../../languages.md#pulumi-import).\n\n` +
        `The import marks the resource protected: \`pulumi destroy\` then stops with \`cannot be deleted because it is protected\`. To let the stack delete it, run \`pulumi state unprotect '<urn>'\` (its URN as \`pulumi stack --show-urns\` prints it) before \`pulumi destroy\`, and drop the protect option from the code, or the next \`pulumi up\` protects it again.\n\n`;
  const allProperties = { ...spec.inputProperties, ...(spec.properties ?? {}) };
  return (
    `${GENERATED_NOTE}# ${name}\n\n\`${token}\`\n\n${(spec.description ?? "").trim()}\n\n` +
    `## Example\n\n${examplesSection((language) => resourceExample(schema, name, spec, example, language))}\n` +
    `## Inputs\n\n${propertyTable(spec.inputProperties, spec.requiredInputs ?? [], { showRequired: true })}\n` +
    `## Outputs\n\nEvery input is also an output. Secret outputs are marked 🔒: the engine stores them encrypted and shows them as \`[secret]\`.\n\n` +
    `${propertyTable(spec.properties ?? {}, [], { showRequired: false })}\n` +
    importText +
    typesSection(schema, allProperties)
  );
}
