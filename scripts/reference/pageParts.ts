// The parts every reference page shares: the do-not-edit note, tables of properties with their
// types in words, and the object types they refer to, each in a section of its own.
import { refName, shortName, type PackageSchema, type SchemaProperty } from "./packageSchema.ts";

export const GENERATED_NOTE =
  "<!-- Generated from provider/native/schema.json by scripts/reference/generate.ts (npm run generate); do not edit. -->\n\n";

/** The schema type of a property, in words, linking object types to their section. */
export function typeText(property: SchemaProperty): string {
  if (property.$ref !== undefined) {
    const name = refName(property.$ref);
    return `[${name}](#${name.toLowerCase()})`;
  }
  if (property.type === "array") return `list of ${typeText(property.items ?? {})}`;
  if (property.type === "object" && property.additionalProperties !== undefined)
    return `map of ${typeText(property.additionalProperties)}`;
  return property.type ?? "any";
}

export const cell = (text: string | undefined) =>
  (text ?? "").replace(/\s*\n\s*/g, " ").replace(/\|/g, "\\|");

export function propertyTable(
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

export function typesSection(schema: PackageSchema, properties: Record<string, SchemaProperty>): string {
  const tokens = referencedTypes(schema, properties);
  if (tokens.length === 0) return "";
  const sections = tokens.map((token) => {
    const type = schema.types[token]!;
    const description = type.description === undefined ? "" : `${type.description.trim()}\n\n`;
    return `### ${shortName(token)}\n\n${description}${propertyTable(type.properties ?? {}, type.required ?? [], { showRequired: true })}`;
  });
  return `## Types\n\n${sections.join("\n")}`;
}
