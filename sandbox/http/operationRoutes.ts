import type { Context, Hono } from "hono";
import type { z } from "zod";
import type { ContentfulStatusCode } from "hono/utils/http-status";
import {
  pathParamNames,
  routePattern,
  safeParseInContractWording,
  type ApiOperation,
  type FieldProblem,
  type OperationAnswer,
  type OperationInput,
} from "../../sdk/nodejs/contract/index.ts";
import type { SandboxEnv } from "./env.ts";
import { HttpError } from "./errors.ts";
import { pathParameterProblem, readBody, readQuery } from "./validation.ts";

/**
 * Routes registered from an operation table (the service's, `sdk/nodejs/contract/operations.ts`; the
 * signing provider's; the sandbox's admin, console and document tables): the sandbox registers no
 * route any other way. Each operation's method and path come from its entry, and so do the schemas
 * its path parameters, query and body are parsed with, before the handler runs. A handler only says what the operation does; the types
 * of what it receives and answers are derived from the same entry, so a handler that answers a
 * status or a shape the operation does not document does not compile.
 */

/**
 * A body type without the index signatures of loose schemas (`z.looseObject`), at every depth: the
 * admin and console documents describe some answers as open JSON objects, and a handler answers
 * them with the domain's own interfaces, which name their fields but declare no index signature.
 */
type KnownFields<T> = T extends readonly (infer U)[]
  ? readonly KnownFields<U>[]
  : T extends object
    ? { [K in keyof T as string extends K ? never : K]: KnownFields<T[K]> }
    : T;

/** What a handler answers: one of the operation's success answers, its body as `KnownFields` sees it. */
type HandlerAnswer<O extends ApiOperation> =
  OperationAnswer<O> extends infer A
    ? A extends { body: infer B }
      ? Omit<A, "body"> & { body: KnownFields<B> }
      : A
    : never;

/**
 * The operation's work, on its parsed input, for the caller's organization. `request` is for what
 * only the request knows: the admin token's scope, the signing provider's verified stamp.
 */
export type OperationHandler<O extends ApiOperation, E extends SandboxEnv = SandboxEnv> = (
  input: OperationInput<O>,
  organizationId: string,
  request: Context<E>,
) => HandlerAnswer<O> | Promise<HandlerAnswer<O>>;

/**
 * What the sandbox does for one operation: its handler, or its handler with
 * - `bodyChecks`: the problems of the raw body only the sandbox can see (positionKeys missing from
 *   its catalog, an address not of its chain's form), reported together with the schema's in one
 *   answer;
 * - `authorize`: a refusal that must come before the request is read (a snapshot of the whole
 *   sandbox refuses an organization's admin token whatever the body), so it throws first.
 * Handlers name the organization id `org`, as every one of them takes it.
 */
export type OperationRoute<O extends ApiOperation, E extends SandboxEnv = SandboxEnv> =
  | OperationHandler<O, E>
  | {
      handle: OperationHandler<O, E>;
      bodyChecks?: (raw: unknown, organizationId: string) => FieldProblem[];
      authorize?: (request: Context<E>) => void;
    };

/** The answer most operations give: 200 with `body`. */
export const ok = <T>(body: T) => ({ status: 200 as const, body });

/** A creation's answer: 201 with what it made, or 200 with the same when the requestId replayed it. */
export const created = <T>(body: T, replayed: boolean) => ({
  status: replayed ? (200 as const) : (201 as const),
  body,
});

/** One route for every operation of a table, keyed as the table is: none can be left out. */
export type OperationRoutes<
  T extends Readonly<Record<string, ApiOperation>>,
  E extends SandboxEnv = SandboxEnv,
> = {
  [K in keyof T]: OperationRoute<T[K], E>;
};

/**
 * How a table's bodies are read, when not as the service's JSON: the signing provider's body is
 * read and verified by its stamp check before any route runs, and a bad one is refused in
 * Turnkey's error shape.
 */
export interface OperationTableOptions<E extends SandboxEnv> {
  readBody?: (request: Context<E>, schema: z.ZodType) => unknown;
}

/** Path parameters parsed with the operation's schema: a bad one is a 400 naming it (never a 404 or 500). */
function readPathParams<E extends SandboxEnv>(c: Context<E>, operation: ApiOperation): unknown {
  const names = pathParamNames(operation.path);
  if (names.length === 0) return undefined;
  const raw = Object.fromEntries(names.map((name) => [name, c.req.param(name) ?? ""]));
  // Documented without a schema: the handler checks the raw strings itself.
  if (operation.pathParams === undefined) return raw;
  const result = safeParseInContractWording(operation.pathParams, raw);
  if (result.success) return result.data;
  throw HttpError.validation(
    result.error.issues.map((issue) => {
      const name = String(issue.path[0]);
      return pathParameterProblem(name, issue.message, raw[name]);
    }),
    "invalid path parameter",
  );
}

/**
 * A body the operation says is optional counts as absent when none is sent (no length, no
 * chunked transfer); a body that is sent is read and checked like any other.
 */
function hasBody<E extends SandboxEnv>(c: Context<E>): boolean {
  return (c.req.header("content-length") ?? "0") !== "0" || c.req.header("transfer-encoding") !== undefined;
}

async function readOperationBody<E extends SandboxEnv>(
  c: Context<E>,
  operation: ApiOperation,
  bodyChecks: ((raw: unknown, organizationId: string) => FieldProblem[]) | undefined,
  options: OperationTableOptions<E>,
): Promise<unknown> {
  if (operation.body === undefined) return undefined;
  if (!operation.body.required && !hasBody(c)) return undefined;
  if (options.readBody !== undefined) return options.readBody(c, operation.body.schema);
  const organizationId = c.get("organizationId");
  return readBody(
    c as unknown as Context<SandboxEnv>,
    operation.body.schema,
    bodyChecks === undefined ? undefined : (raw) => bodyChecks(raw, organizationId),
  );
}

/**
 * Path templates with fewer parameters first, so that a literal segment is matched before a
 * parameter in its place (`/strategies` before `/{id}`), whatever the table's order.
 */
const byParameterCount = (a: ApiOperation, b: ApiOperation) =>
  pathParamNames(a.path).length - pathParamNames(b.path).length;

/** Registers one route per operation of `table` on `app`, each served by its entry of `routes`. */
export function registerOperations<
  T extends Readonly<Record<string, ApiOperation>>,
  E extends SandboxEnv = SandboxEnv,
>(
  app: Hono<E>,
  table: T,
  routes: NoInfer<OperationRoutes<T, E>>,
  options: OperationTableOptions<E> = {},
): void {
  const entries = Object.keys(table).map((id) => {
    const route: OperationRoute<ApiOperation, E> = routes[id]!;
    return typeof route === "function"
      ? { operation: table[id]!, handle: route, bodyChecks: undefined, authorize: undefined }
      : { operation: table[id]!, bodyChecks: undefined, authorize: undefined, ...route };
  });
  entries.sort((a, b) => byParameterCount(a.operation, b.operation));
  for (const { operation, handle, bodyChecks, authorize } of entries) {
    app.on(operation.method.toUpperCase(), routePattern(operation.path), async (c) => {
      authorize?.(c);
      const input = {
        path: readPathParams(c, operation),
        query:
          operation.query === undefined
            ? undefined
            : readQuery(c as unknown as Context<SandboxEnv>, operation.query),
        body: await readOperationBody(c, operation, bodyChecks, options),
      } as OperationInput<typeof operation>;
      const answer: { status: number; body?: unknown } = await handle(input, c.get("organizationId"), c);
      if ("body" in answer) c.set("answerBody", answer.body);
      return "body" in answer
        ? c.json(answer.body, answer.status as ContentfulStatusCode)
        : c.body(null, answer.status as 204);
    });
  }
}
