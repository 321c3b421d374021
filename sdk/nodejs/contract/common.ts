import { z } from "zod";
import { DURATION_EXAMPLES, DURATION_JSON_PATTERN, readIsoDuration } from "./duration.ts";
import { UUID_PATTERN } from "./uuid.ts";

export { TOTAL_WEIGHT_BPS } from "./basisPoints.ts";

/**
 * An id (spec conventions: "UUID strings"): any canonical 8-4-4-4-12 hex form, in either case. Not
 * only RFC 9562 variants: the interface names no version or variant, JSON Schema's `uuid` format and
 * most services accept any, and refusing a well-formed id the service handed out would strand it.
 * The pattern is uuid.ts's, which the console shares; the format is still `guid` (JSON Schema's
 * `uuid`), as z.guid() would say.
 */
export const UuidSchema = z.stringFormat("guid", UUID_PATTERN, {
  error: "must be a UUID such as 3f1c2a9e-8b7d-4c1e-9f0a-2b3c4d5e6f70",
});
export type Uuid = z.infer<typeof UuidSchema>;

export const DateTimeSchema = z.iso.datetime({ offset: true, error: "must be an ISO 8601 date-time" });
export type DateTime = z.infer<typeof DateTimeSchema>;

/**
 * An absolute http(s) URL: the service's base URL, the signing provider's, a webhook's. The one
 * URL rule of the package; the client, the provider settings and the approver all use it.
 */
export const HttpUrlSchema = z.url({ protocol: /^https?$/, error: "must be an absolute http(s) URL" });

/**
 * ISO 8601 duration, for example `PT0H` (instant) or `PT24H` (up to a day), read by the one
 * duration reader (duration.ts), whose refusal says what is wrong and what to write. The OpenAPI
 * document gives the reader's language as its `pattern`.
 */
export const DurationSchema = z
  .string({ error: `must be ${DURATION_EXAMPLES}` })
  .superRefine((text, context) => {
    const { problem } = readIsoDuration(text);
    if (problem !== undefined)
      context.addIssue({ code: "custom", message: `must be ${DURATION_EXAMPLES}; this one ${problem}` });
  })
  // No `format: "duration"`: that format means RFC 3339's grammar, which refuses ISO 8601 forms
  // the interface allows (`PT1H5S`, `P1Y2D`); a tester reading the document would expect them refused.
  .meta({ pattern: DURATION_JSON_PATTERN });
export type Duration = z.infer<typeof DurationSchema>;

/**
 * A string field whose known values are listed, but which the service may extend.
 * Readers accept any string so that a new status or type never breaks a client;
 * the known values stay available for narrowing and documentation.
 */
export function openEnum<const T extends readonly [string, ...string[]]>(_known: T) {
  return z.string() as unknown as z.ZodType<T[number] | (string & {})>;
}

/** The pattern of a schema's JSON Schema form, unanchored, to compose it into another. */
function innerPattern(schema: z.ZodType): string {
  const { pattern } = z.toJSONSchema(schema) as { pattern?: string };
  if (pattern === undefined) throw new Error("the schema has no pattern");
  return pattern.replace(/^\^/, "").replace(/\$$/, "");
}

/**
 * A list cursor: the `nextCursor` of a previous page, of the form `created_at|id` (spec 4.5, 4.9).
 * Its pattern says so in the OpenAPI document; a cursor of that form that names no item still
 * pages from where it would have been.
 */
export const CursorSchema = z
  .string()
  .regex(
    new RegExp(`^(?:${innerPattern(DateTimeSchema)})\\|(?:${innerPattern(UuidSchema)})$`),
    "is not a cursor from a previous page's nextCursor (created_at|id); omit it to start from the first page",
  );

/** Query string of every cursor-paginated list (spec 4.5, 4.9, 4.11). */
export const PageQuerySchema = z.object({
  cursor: CursorSchema.optional(),
  pageSize: z.coerce
    .number({ error: "must be a whole number from 1 to 100" })
    .int("must be a whole number from 1 to 100")
    .min(1, "must be at least 1")
    .max(100, "must be at most 100")
    .optional(),
});
export type PageQuery = z.infer<typeof PageQuerySchema>;

export const DEFAULT_PAGE_SIZE = 25;

/**
 * Every list response has the withdrawals list's shape (spec 4.9):
 * `{ data, pageSize, nextCursor }`, with `nextCursor` null on the last page.
 */
export function pageOf<T extends z.ZodType>(item: T) {
  return z.looseObject({
    data: z.array(item),
    pageSize: z.number().int(),
    nextCursor: z.string().nullable(),
  });
}
export type Page<T> = { data: T[]; pageSize: number; nextCursor: string | null };
