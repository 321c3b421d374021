import schema from "./schema.json" with { type: "json" };

/**
 * The package schema of the native provider, generated from the zod schemas and the TypeScript
 * docs (scripts/packageSchema/generate.ts) and never edited by hand: what `pulumi package
 * get-schema` answers and what the Python and Go SDKs are generated from.
 */
export const packageSchema: typeof schema = schema;
