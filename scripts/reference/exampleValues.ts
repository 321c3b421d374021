// An example's argument values, rendered into each language's syntax (object types named as each
// SDK names them).
import { pascal, refName, snake, type PackageSchema, type SchemaProperty } from "./packageSchema.ts";

/** A value in an example, rendered into each language. `ref` values are variables of the program. */
export type ExampleValue =
  string | number | boolean | ExampleValue[] | { [key: string]: ExampleValue } | { ref: string };

/** The object type of a property, for the languages that name it (Python, Go, Java). */
function objectTypeOf(property: SchemaProperty | undefined): string | undefined {
  const target = property?.type === "array" ? property.items : property;
  return target?.$ref === undefined ? undefined : refName(target.$ref);
}

export const isRef = (value: ExampleValue): value is { ref: string } =>
  typeof value === "object" && value !== null && !Array.isArray(value) && "ref" in value;
const isObject = (value: ExampleValue): value is Record<string, ExampleValue> =>
  typeof value === "object" && value !== null && !Array.isArray(value) && !isRef(value);

function propertiesOf(schema: PackageSchema, typeName: string | undefined): Record<string, SchemaProperty> {
  if (typeName === undefined) return {};
  return schema.types[`${schema.name}:index:${typeName}`]?.properties ?? {};
}

export function typescriptValue(value: ExampleValue, indent: string): string {
  if (isRef(value)) return value.ref;
  if (Array.isArray(value))
    return `[\n${value.map((v) => `${indent}  ${typescriptValue(v, `${indent}  `)},`).join("\n")}\n${indent}]`;
  if (isObject(value)) {
    const entries = Object.entries(value).map(([k, v]) => `${k}: ${typescriptValue(v, indent)}`);
    return `{ ${entries.join(", ")} }`;
  }
  return JSON.stringify(value);
}

export function pythonValue(
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

export function goValue(
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
export function goPlainValue(
  value: ExampleValue,
  property: SchemaProperty | undefined,
  required: boolean,
): string {
  if (isRef(value)) return required ? value.ref : `&${value.ref}`;
  if (Array.isArray(value)) return `[]string{${value.map((v) => JSON.stringify(v)).join(", ")}}`;
  const literal = JSON.stringify(value);
  if (required) return literal;
  return `pulumi.${pascal(goScalar(property))}Ref(${literal})`;
}

export function javaValue(
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

export function yamlValue(value: ExampleValue, indent: string): string {
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

export const PYTHON_MODULE = "portfolio_wallet";
