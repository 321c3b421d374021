// The parts of a Pulumi package schema (provider/native/schema.json) the reference reads, and the
// names it derives from the schema's tokens.

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
export interface ObjectSpec {
  description?: string;
  properties?: Record<string, SchemaProperty>;
  required?: string[];
}
export interface ResourceSpec extends ObjectSpec {
  inputProperties: Record<string, SchemaProperty>;
  requiredInputs?: string[];
}
export interface FunctionSpec {
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

export const shortName = (token: string) => token.split(":").at(-1)!;
export const snake = (name: string) => name.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);
export const pascal = (name: string) => name[0]!.toUpperCase() + name.slice(1);
export const pageName = (token: string) => shortName(token).toLowerCase();
export const refName = (ref: string) => shortName(ref.replace(/^#\/types\//, ""));
