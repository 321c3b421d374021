import { z } from "zod";

/**
 * Zod schemas as Pulumi package-schema types. Each zod schema goes through zod's own JSON Schema
 * output, and this turns that into the smaller type language of a Pulumi schema: string, number,
 * integer, boolean, arrays, maps (`additionalProperties`), and named object types under `types`.
 * Reading stays tolerant as in the contract: an open enum is a string, an extra field is ignored.
 */

/** A property or item type in a Pulumi package schema. */
export interface PulumiTypeSpec {
  type?: "string" | "number" | "integer" | "boolean" | "array" | "object";
  items?: PulumiTypeSpec;
  additionalProperties?: PulumiTypeSpec;
  $ref?: string;
}

export interface PulumiPropertySpec extends PulumiTypeSpec {
  description?: string;
  secret?: boolean;
}

export interface PulumiObjectTypeSpec {
  type: "object";
  description?: string;
  properties: Record<string, PulumiPropertySpec>;
  required?: string[];
}

type JsonSchema = {
  type?: string | string[];
  properties?: Record<string, JsonSchema>;
  required?: string[];
  items?: JsonSchema;
  additionalProperties?: JsonSchema | boolean;
  anyOf?: JsonSchema[];
  oneOf?: JsonSchema[];
  enum?: unknown[];
  const?: unknown;
  $ref?: string;
  $defs?: Record<string, JsonSchema>;
  description?: string;
};

/** Collects the object types the converted schemas refer to, under `<package>:index:<Name>`. */
export class PulumiTypeCollector {
  readonly types: Record<string, PulumiObjectTypeSpec> = {};
  readonly #registry = z.registry<{ id: string }>();
  readonly #packageName: string;
  readonly #overrides = new Map<z.ZodType, PulumiTypeSpec>();

  constructor(packageName: string) {
    this.#packageName = packageName;
  }

  /** Names an object schema: wherever it appears it becomes a reference to one type of this name. */
  name(schema: z.ZodType, id: string): void {
    if (this.#registry.get(schema) === undefined) this.#registry.add(schema, { id });
  }

  /** Says what a schema is where zod's JSON Schema cannot (a refined array whose items it cannot see). */
  override(schema: z.ZodType, type: PulumiTypeSpec): void {
    this.#overrides.set(schema, type);
  }

  /** The Pulumi type of any schema; `nameHint` names the object types nested in it without a name of their own. */
  typeOf(schema: z.ZodType, io: "input" | "output", nameHint: string): PulumiTypeSpec {
    const json = this.#jsonSchema(schema, io);
    return this.#type(json, json, nameHint);
  }

  typeToken(id: string): string {
    return `${this.#packageName}:index:${id}`;
  }

  /**
   * The properties of an object schema (a resource's inputs or outputs, a function's arguments or
   * result). `owner` names the object types nested without a name of their own (`<owner><Property>`).
   */
  objectProperties(
    schema: z.ZodType,
    io: "input" | "output",
    owner: string,
  ): { properties: Record<string, PulumiPropertySpec>; required: string[] } {
    const json = this.#jsonSchema(schema, io);
    const root = json.$ref !== undefined ? this.#definition(json, json.$ref) : json;
    if (root.properties === undefined) throw new Error(`${owner}: expected an object schema`);
    return {
      properties: this.#properties(root.properties, json, owner),
      required: root.required ?? [],
    };
  }

  #properties(properties: Record<string, JsonSchema>, root: JsonSchema, owner: string) {
    return Object.fromEntries(
      Object.entries(properties).map(([name, property]) => [
        name,
        this.#property(property, root, `${owner}${name[0]!.toUpperCase()}${name.slice(1)}`),
      ]),
    );
  }

  #jsonSchema(schema: z.ZodType, io: "input" | "output"): JsonSchema {
    const overrides = this.#overrides;
    const marker = "x-pulumi-override";
    return z.toJSONSchema(schema, {
      io,
      unrepresentable: "any",
      metadata: this.#registry,
      override: (context) => {
        const type = overrides.get(context.zodSchema as unknown as z.ZodType);
        if (type !== undefined) (context.jsonSchema as Record<string, unknown>)[marker] = type;
      },
    }) as JsonSchema;
  }

  #definition(root: JsonSchema, ref: string): JsonSchema {
    const id = ref.replace(/^#\/\$defs\//, "");
    const definition = root.$defs?.[id];
    if (definition === undefined) throw new Error(`no definition ${ref}`);
    return definition;
  }

  #property(json: JsonSchema, root: JsonSchema, nameHint: string): PulumiPropertySpec {
    const type = this.#type(json, root, nameHint);
    return json.description === undefined ? type : { ...type, description: json.description };
  }

  #type(json: JsonSchema, root: JsonSchema, nameHint: string): PulumiTypeSpec {
    const override = (json as Record<string, unknown>)["x-pulumi-override"] as PulumiTypeSpec | undefined;
    if (override !== undefined) return override;
    if (json.$ref !== undefined) return this.#namedType(json.$ref, root);
    const branches = (json.anyOf ?? json.oneOf ?? []).filter((branch) => branch.type !== "null");
    if (branches.length > 0) {
      // An open enum (a known value or any string), or a nullable value: its non-null form.
      if (branches.every((branch) => branch.type === "string" || branch.enum !== undefined)) {
        return { type: "string" };
      }
      return this.#type(branches[0]!, root, nameHint);
    }
    const jsonType = (Array.isArray(json.type) ? json.type.find((t) => t !== "null") : json.type) ?? "";
    switch (jsonType) {
      case "string":
      case "number":
      case "integer":
      case "boolean":
        return { type: jsonType };
      case "array":
        return {
          type: "array",
          items: json.items === undefined ? ANY : this.#type(json.items, root, nameHint),
        };
      case "object": {
        if (json.properties !== undefined) return this.#objectType(nameHint, json, root);
        const values = typeof json.additionalProperties === "object" ? json.additionalProperties : undefined;
        return {
          type: "object",
          additionalProperties: values === undefined ? ANY : this.#type(values, root, nameHint),
        };
      }
      default:
        return json.enum !== undefined || json.const !== undefined ? { type: "string" } : ANY;
    }
  }

  #namedType(ref: string, root: JsonSchema): PulumiTypeSpec {
    const id = ref.replace(/^#\/\$defs\//, "");
    return this.#objectType(id, this.#definition(root, ref), root);
  }

  /** The object type `id` (made once: every reference to it is the same type). */
  #objectType(id: string, definition: JsonSchema, root: JsonSchema): PulumiTypeSpec {
    const token = this.typeToken(id);
    if (this.types[token] === undefined) {
      // Reserve the name first: a type may refer to itself.
      this.types[token] = { type: "object", properties: {} };
      this.types[token] = {
        type: "object",
        ...(definition.description !== undefined ? { description: definition.description } : {}),
        properties: this.#properties(definition.properties ?? {}, root, id),
        required: definition.required ?? [],
      };
    }
    return { $ref: `#/types/${token}` };
  }
}

/** Any JSON value. */
export const ANY: PulumiTypeSpec = { $ref: "pulumi.json#/Any" };
