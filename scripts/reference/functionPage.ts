// A read-only function's reference page: its example in each language, its arguments and result,
// and the object types they refer to.
import { READ_FUNCTIONS, type ReadFunctionName } from "../../sdk/nodejs/functions/readFunctions.ts";
import {
  examplesSection,
  goProgram,
  javaProgram,
  needsWalletId,
  WALLET_ID_SETUP,
  yamlProgram,
  type Language,
} from "./examplePrograms.ts";
import { goPlainValue, javaValue, PYTHON_MODULE, pythonValue, yamlValue } from "./exampleValues.ts";
import { FUNCTION_EXAMPLES, type FunctionExample } from "./functionExamples.ts";
import { pascal, shortName, snake, type FunctionSpec, type PackageSchema } from "./packageSchema.ts";
import { GENERATED_NOTE, propertyTable, typesSection } from "./pageParts.ts";

/** The example of a function by its name in the schema; an error for a name of no read function. */
function exampleOf(name: string): FunctionExample {
  if (!Object.hasOwn(READ_FUNCTIONS, name)) {
    throw new Error(`${name} is no function of sdk/nodejs/functions/readFunctions.ts: the schema is stale`);
  }
  return FUNCTION_EXAMPLES[name as ReadFunctionName];
}

function functionExample(
  schema: PackageSchema,
  name: string,
  spec: FunctionSpec,
  example: FunctionExample,
  language: Language,
): string {
  const { args, exportedOutput: output, typescriptCall } = example;
  const entries = Object.entries(args);
  const inputs = spec.inputs?.properties ?? {};
  const required = spec.inputs?.required ?? [];
  const setup = needsWalletId(args) ? `${WALLET_ID_SETUP[language]}\n` : "";
  const result = "result";
  switch (language) {
    case "TypeScript":
      return `import { ${name} } from "@portfolio-wallet/pulumi";\n\n${setup}${typescriptCall}`;
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
      return goProgram(
        `${setup}${result}, err := portfoliowallet.${pascal(name)}(ctx${argsText})\nif err != nil {\n\treturn err\n}`,
        `ctx.Export("${output}", pulumi.Any(${result}.${pascal(output)}))`,
      );
    }
    case "YAML": {
      const argsText = entries.map(([k, v]) => `\n        ${k}: ${yamlValue(v, "          ")}`).join("");
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
      return javaProgram(
        `${setup}var ${result} = PortfoliowalletFunctions.${name}(${argsText});`,
        `ctx.export("${output}", ${result}.applyValue(value -> value.${output}()));`,
        Object.keys(schema.resources).map(shortName),
      );
    }
  }
}

export function functionPage(schema: PackageSchema, token: string, spec: FunctionSpec): string {
  const name = shortName(token);
  const example = exampleOf(name);
  const inputs = spec.inputs?.properties ?? {};
  return (
    `${GENERATED_NOTE}# ${name}\n\n\`${token}\`\n\n${(spec.description ?? "").trim()}\n\n` +
    `## Example\n\n${examplesSection((language) => functionExample(schema, name, spec, example, language))}\n` +
    `## Arguments\n\n${propertyTable(inputs, spec.inputs?.required ?? [], { showRequired: true })}\n` +
    `## Result\n\n${propertyTable(spec.outputs.properties ?? {}, [], { showRequired: false })}\n` +
    typesSection(schema, { ...inputs, ...(spec.outputs.properties ?? {}) })
  );
}
