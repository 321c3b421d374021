// The bad-input matrix: every endpoint of the sandbox (service, admin, console API and signing provider), each
// with bad path parameters, another organization's ids, bad queries, bad bodies of every kind and
// bad credentials. The oracle is the same for all: an answer (no hang), below 500, small, and
// never showing another organization's data. The endpoints are read from the operation tables the
// sandbox registers its routes from, so a new operation is in the matrix without an edit here.
import { z } from "zod";
import type { ApiOperation } from "../../sdk/nodejs/contract/index.ts";
import { SANDBOX_DOCUMENT_OPERATIONS } from "../../sandbox/index.ts";
import {
  ADMIN_TOKEN_AUTH,
  type ADMIN_OPERATIONS_BY_ID,
  type DOCUMENT_OPERATIONS_BY_ID,
} from "../../sandbox/routes/adminOperations.ts";

/** An endpoint: method, path with `{placeholders}`, the body fields it reads and its query parameters. */
export interface Endpoint {
  method: string;
  /** `{placeholder}`s name the test's ids (`{wallet}`, `{deposit}`): see ID_OF_COLLECTION. */
  path: string;
  fields?: string[];
  query?: string[];
  admin?: boolean;
}

type AdminOperationId = keyof typeof ADMIN_OPERATIONS_BY_ID;
type LeftOutId = AdminOperationId | keyof typeof DOCUMENT_OPERATIONS_BY_ID;

/**
 * Operations left out, each for why: what they do to the sandbox as a whole would change what the
 * rest of the reliability run sees, or their answer is no small one. Named by operationId, so a
 * renamed operation does not compile.
 */
const LEFT_OUT: ReadonlyMap<LeftOutId, string> = new Map<LeftOutId, string>([
  ["sandboxApproveSigningActivity", "would approve org-a's withdrawal and pay it out mid-matrix"],
  ["sandboxSaveSnapshot", "writes files of the whole sandbox"],
  ["sandboxRestoreSnapshot", "replaces the whole sandbox's state"],
  ["sandboxExportOrganization", "writes files"],
  ["sandboxImportOrganization", "replaces an organization's state"],
  // Their parameter is a file name, not an id the matrix makes; test/sandbox/domain/snapshots.test.ts refuses bad ones.
  ["sandboxReadSnapshot", "reads a snapshot file by name, of which the matrix makes none"],
  ["sandboxReadOrganizationExport", "reads an export file by name, of which the matrix makes none"],
  // Whole documents, hundreds of KB, over the matrix's small-answer bound; they read no input.
  ["getServiceOpenApiDocument", "answers the whole document and reads no input"],
  ["getSandboxAdminOpenApiDocument", "answers the whole document and reads no input"],
]);

/**
 * Last: a bad value can be a valid tiny limit (0.0000001 requests a second), after which org-a's
 * API requests are 429; admin calls are never limited, and the test lifts the limit at the end.
 */
const LAST: readonly AdminOperationId[] = ["sandboxGetRateLimit", "sandboxSetRateLimit"];

/**
 * Which of the test's ids fills a path parameter, by the collection segment just before it
 * (`/v2/portfolio-wallets/{id}` → a wallet id). A parameter after a segment not named here fails
 * the matrix, naming it: add the collection and the id the test makes for it.
 */
const ID_OF_COLLECTION: Readonly<Record<string, string>> = {
  "portfolio-wallets": "wallet",
  wallets: "wallet",
  ids: "wallet",
  objects: "wallet",
  deposits: "deposit",
  withdrawals: "withdrawal",
  registrations: "webhook",
  "webhook-registrations": "webhook",
  faults: "fault",
  "signing-activities": "activity",
  "strategy-updates": "update",
  catalog: "positionKey",
  "api-keys": "publicKey",
  "webhook-deliveries": "delivery",
  // A webhook inbox's deliveries: an unknown id is as good as any (nothing is delivered mid-matrix).
  deliveries: "delivery",
  inboxes: "inbox",
  requests: "request",
};

/** `/v2/portfolio-wallets/{id}/deposits/{depositId}` → `/v2/portfolio-wallets/{wallet}/deposits/{deposit}`. */
function placeholdersByIdKind(path: string): string {
  return path.replace(/([^/]+)\/\{\w+\}/g, (_, collection: string) => {
    const kind = ID_OF_COLLECTION[collection];
    if (kind === undefined)
      throw new Error(`badInputMatrix.ts: no test id for a parameter after /${collection}/ in ${path}`);
    return `${collection}/{${kind}}`;
  });
}

/**
 * The top-level fields of a body schema (an object, possibly refined, piped, or the intersection or
 * union of objects), for one bad value each. A body schema of another kind fails the matrix, so that
 * no operation's fields are silently left untried.
 */
function fieldsOf(schema: z.ZodType): string[] {
  if (schema instanceof z.ZodObject) return Object.keys(schema.shape);
  if (schema instanceof z.ZodPipe) return fieldsOf(schema.in as z.ZodType);
  if (schema instanceof z.ZodIntersection)
    return [
      ...new Set([...fieldsOf(schema.def.left as z.ZodType), ...fieldsOf(schema.def.right as z.ZodType)]),
    ];
  if (schema instanceof z.ZodUnion)
    return [...new Set(schema.options.flatMap((option) => fieldsOf(option as z.ZodType)))];
  throw new Error(`badInputMatrix.ts: cannot list the fields of a ${schema.def.type} body`);
}

const endpointOf = (operation: ApiOperation): Endpoint => ({
  method: operation.method.toUpperCase(),
  path: placeholdersByIdKind(operation.path),
  ...(operation.body === undefined ? {} : { fields: fieldsOf(operation.body.schema) }),
  ...(operation.query === undefined ? {} : { query: Object.keys(operation.query.shape) }),
  // As its table declares it: the webhook inboxes' API lies under /_sandbox/ and needs no admin token.
  ...(operation.security.includes(ADMIN_TOKEN_AUTH) ? { admin: true } : {}),
});

const isLast = (operation: ApiOperation) => (LAST as readonly string[]).includes(operation.operationId);
const operations = [...SANDBOX_DOCUMENT_OPERATIONS.service, ...SANDBOX_DOCUMENT_OPERATIONS.admin].filter(
  (operation) => !LEFT_OUT.has(operation.operationId as LeftOutId),
);

export const ENDPOINTS: Endpoint[] = [
  ...operations.filter((operation) => !isLast(operation)),
  ...operations.filter(isLast),
].map(endpointOf);

/** Values a field should never be trusted to hold. */
export const BAD_VALUES: unknown[] = [
  null,
  true,
  -1,
  0,
  1e308,
  -1e308,
  0.0000001,
  9007199254740993,
  "",
  "x".repeat(100_000),
  "\u0000\ud800💥",
  [],
  [[[[[[[[[[]]]]]]]]]],
  {},
  { __proto__: { polluted: true }, constructor: { prototype: { polluted: true } } },
];

/** Whole bodies that are wrong before any field is read: [content type or null, raw text]. */
export const BAD_BODIES: [string | null, string][] = [
  [null, ""],
  ["text/plain", "hello"],
  ["application/json", ""],
  ["application/json", "{"],
  ["application/json", "null"],
  ["application/json", "[]"],
  ["application/json", '"text"'],
  ["application/json", "123"],
  ["application/json", "1e999"],
  ["application/json", `${"[".repeat(50_000)}${"]".repeat(50_000)}`],
  ["application/json", `{"a":${'{"a":'.repeat(20_000)}1${"}".repeat(20_000)}}`],
  ["application/json", `{"positions":${"[".repeat(20_000)}${"]".repeat(20_000)}}`],
  ["application/json; charset=utf-16", "{}"],
  ["application/vnd.weird+json", '{"__proto__":{"polluted":true}}'],
];

/** Path parameters that are not ids, or not ours. */
export const BAD_IDS = [
  "x",
  "%00",
  "..",
  "%2e%2e%2f%2e%2e",
  "a".repeat(3000),
  "😀",
  "00000000-0000-0000-0000-000000000000",
];

/** Query values that are not what a query expects. */
export const BAD_QUERY_VALUES = [
  "0",
  "101",
  "-1",
  "abc",
  "1e3",
  "",
  "x|y",
  "2026-01-01T00:00:00Z|not-a-uuid",
  "a".repeat(5000),
];
