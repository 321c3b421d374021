import type { z } from "zod";

/**
 * What one HTTP operation is, and the types derived from it. An operation table (`operations.ts`,
 * `signingProvider.ts`, the sandbox's admin tables) is the one place an endpoint is described: the
 * sandbox registers and validates its routes from it, the client types and sends its calls from it,
 * and the OpenAPI document is generated from it (`openapi.ts`).
 */

export type OperationMethod = "get" | "post" | "put" | "patch" | "delete";

export interface OperationResponse {
  description: string;
  /** The JSON body; none for 204. */
  schema?: z.ZodType;
}

export interface ApiOperation {
  /** Stable name of the operation (generated clients name their functions after it). */
  operationId: string;
  method: OperationMethod;
  /** OpenAPI path template: `/v2/portfolio-wallets/{id}`. */
  path: string;
  tag: string;
  summary: string;
  description?: string;
  /** Names of the security schemes it needs, all at once; empty for none. */
  security: readonly string[];
  /** Path parameters, one property each, named as in `path`. */
  pathParams?: z.ZodObject;
  /** Query parameters, one property each. */
  query?: z.ZodObject;
  /** The JSON request body. */
  body?: { schema: z.ZodType; required: boolean };
  /**
   * True for a POST that changes nothing (a quote, a yield report): a client may retry it like a
   * GET. Not shown in the document; OpenAPI has no word for it.
   */
  readOnly?: boolean;
  /** Every answer the operation can give, by status (`200`, `404`, `5XX`). */
  responses: Readonly<Record<string, OperationResponse>>;
}

/**
 * A table of operations keyed by operationId, each entry given its key as `operationId` (so the
 * name is written once). The entries keep their exact types: the schemas of their parameters,
 * body and answers, from which `OperationInput` and `SuccessBodyOf` derive the sandbox's handler
 * types and the client's method types.
 */
export function operationTable<const T extends Record<string, Omit<ApiOperation, "operationId">>>(
  table: T,
): { readonly [K in keyof T & string]: T[K] & { readonly operationId: K } } {
  return Object.fromEntries(
    Object.entries(table).map(([operationId, operation]) => [operationId, { operationId, ...operation }]),
  ) as { readonly [K in keyof T & string]: T[K] & { readonly operationId: K } };
}

/** The names of the parameters of a path template: `/a/{id}/b/{depositId}` → `"id" | "depositId"`. */
export type PathParamNamesOf<P extends string> = P extends `${string}{${infer N}}${infer Rest}`
  ? N | PathParamNamesOf<Rest>
  : never;

/**
 * The parsed path parameters of operation `O` (`{ id: string }`); the raw strings when its path has
 * parameters that it gives no schema (the document shows none, the handler checks them itself);
 * undefined when it has none.
 */
export type PathParamsOf<O extends ApiOperation> = O extends { pathParams: infer S extends z.ZodType }
  ? z.output<S>
  : [PathParamNamesOf<O["path"]>] extends [never]
    ? undefined
    : Record<PathParamNamesOf<O["path"]>, string>;

/** The parsed query of operation `O`, or undefined when it takes none. */
export type QueryOf<O extends ApiOperation> = O extends { query: infer S extends z.ZodType }
  ? z.output<S>
  : undefined;

/** The parsed request body of operation `O`; undefined too when the body is optional, or absent. */
export type BodyOf<O extends ApiOperation> = O extends { body: { schema: infer S extends z.ZodType } }
  ? O["body"] extends { required: true }
    ? z.output<S>
    : z.output<S> | undefined
  : undefined;

/**
 * The body a caller sends to operation `O`, as the contract's types name it (`CreateWalletRequest`);
 * never undefined, even where the operation takes none at all (a client sends `{}`).
 */
export type RequestBodyOf<O extends ApiOperation> = O extends { body: { schema: infer S extends z.ZodType } }
  ? z.output<S>
  : never;

/** What a handler receives: the operation's path parameters, query and body, each parsed by its schema. */
export interface OperationInput<O extends ApiOperation> {
  path: PathParamsOf<O>;
  query: QueryOf<O>;
  body: BodyOf<O>;
}

/** The success statuses operation `O` documents, as numbers (`200 | 201`). */
export type SuccessStatusOf<O extends ApiOperation> = keyof O["responses"] extends infer K
  ? K extends `2${string}`
    ? K extends `${infer N extends number}`
      ? N
      : never
    : never
  : never;

/** The body of a success answer of `O` (of status `S`; of any success status by default). */
export type SuccessBodyOf<O extends ApiOperation, S extends SuccessStatusOf<O> = SuccessStatusOf<O>> = {
  [N in S]: O["responses"][`${N}`] extends { schema: infer T extends z.ZodType } ? z.output<T> : undefined;
}[S];

/** The items of a list operation's pages (`{ data, pageSize, nextCursor }`). */
export type ListItemOf<O extends ApiOperation> = SuccessBodyOf<O> extends { data: (infer T)[] } ? T : never;

/** A success answer of `O`: its status and, unless the status has no body (204), the body. */
export type OperationAnswer<O extends ApiOperation> = {
  [S in SuccessStatusOf<O>]: SuccessBodyOf<O, S> extends undefined
    ? { status: S }
    : { status: S; body: SuccessBodyOf<O, S> };
}[SuccessStatusOf<O>];

/** A path template as routers write it: `/v2/portfolio-wallets/{id}` → `/v2/portfolio-wallets/:id`. */
export function routePattern(template: string): string {
  return template.replace(/\{(\w+)\}/g, ":$1");
}

/** The names of a path template's parameters, in order: `/a/{id}/b/{depositId}` → `["id", "depositId"]`. */
export function pathParamNames(path: string): string[] {
  return [...path.matchAll(/\{(\w+)\}/g)].map((match) => match[1]!);
}
