import { z } from "zod";
import { createDocument, type ZodOpenApiOperationObject, type ZodOpenApiPathsObject } from "zod-openapi";
import type { ApiOperation } from "./operations.ts";

/**
 * OpenAPI 3.1 documents generated from operation tables (`operations.ts`) and their zod schemas,
 * with zod-openapi over zod's own JSON Schema output: never written by hand, so the document says
 * what the contract checks. Kept out of the contract's index: only what publishes a document loads
 * the generator.
 */

/** An OpenAPI document as JSON (what `GET /openapi.json` answers). */
export type OpenApiDocument = ReturnType<typeof createDocument>;

export interface OpenApiDocumentSpec {
  info: { title: string; version: string; description: string };
  tags: readonly { name: string; description: string }[];
  operations: readonly ApiOperation[];
  /** Schemas named as components, by name. */
  schemas: Readonly<Record<string, z.ZodType>>;
  securitySchemes: Readonly<Record<string, SecurityScheme>>;
  /** How a schema is shown when its JSON Schema form cannot say what it checks (`DOCUMENTED_AS`). */
  documentedAs?: ReadonlyMap<z.ZodType, z.ZodType>;
}

export type SecurityScheme =
  | { type: "http"; scheme: "bearer"; description: string }
  | { type: "apiKey"; in: "header"; name: string; description: string };

function operationObject(operation: ApiOperation): ZodOpenApiOperationObject {
  const requestParams = {
    ...(operation.pathParams === undefined ? {} : { path: operation.pathParams }),
    ...(operation.query === undefined ? {} : { query: operation.query }),
  };
  return {
    operationId: operation.operationId,
    tags: [operation.tag],
    summary: operation.summary,
    ...(operation.description === undefined ? {} : { description: operation.description }),
    // One requirement holding every scheme named: all of them at once (an empty list: none).
    security:
      operation.security.length === 0
        ? []
        : [Object.fromEntries(operation.security.map((name) => [name, []]))],
    ...(Object.keys(requestParams).length === 0 ? {} : { requestParams }),
    ...(operation.body === undefined
      ? {}
      : {
          requestBody: {
            required: operation.body.required,
            content: { "application/json": { schema: operation.body.schema } },
          },
        }),
    responses: Object.fromEntries(
      Object.entries(operation.responses).map(([status, response]) => [
        status,
        {
          description: response.description,
          ...(response.schema === undefined
            ? {}
            : { content: { "application/json": { schema: response.schema } } }),
        },
      ]),
    ),
  };
}

/** The JSON Schema of `schema`, without the `$schema` key a standalone schema carries. */
function inlineJsonSchema(schema: z.ZodType, io: "input" | "output"): Record<string, unknown> {
  const { $schema: _dialect, ...json } = z.toJSONSchema(schema, {
    io,
    target: "draft-2020-12",
    unrepresentable: "throw",
  }) as Record<string, unknown>;
  return json;
}

/** Generates the OpenAPI 3.1 document of `spec`'s operations. */
export function generateOpenApiDocument(spec: OpenApiDocumentSpec): OpenApiDocument {
  const paths: ZodOpenApiPathsObject = {};
  for (const operation of spec.operations) {
    const item = (paths[operation.path] ??= {});
    if (item[operation.method] !== undefined)
      throw new Error(`two operations for ${operation.method.toUpperCase()} ${operation.path}`);
    item[operation.method] = operationObject(operation);
  }
  const documentedAs = spec.documentedAs ?? new Map<z.ZodType, z.ZodType>();
  return createDocument(
    {
      openapi: "3.1.0",
      info: { ...spec.info },
      tags: spec.tags.map((tag) => ({ ...tag })),
      paths,
      components: {
        schemas: { ...spec.schemas },
        securitySchemes: Object.fromEntries(
          Object.entries(spec.securitySchemes).map(([name, scheme]) => [name, { ...scheme }]),
        ),
      },
    },
    {
      override: ({ zodSchema, jsonSchema, io }) => {
        const shownAs = documentedAs.get(zodSchema as unknown as z.ZodType);
        if (shownAs === undefined) return;
        for (const key of Object.keys(jsonSchema)) delete (jsonSchema as Record<string, unknown>)[key];
        Object.assign(jsonSchema, inlineJsonSchema(shownAs, io));
      },
    },
  );
}
