import type { Context } from "hono";
import type { z } from "zod";
import {
  DEFAULT_PAGE_SIZE,
  fieldProblemsOf,
  MAX_QUOTED_VALUE_LENGTH,
  quoteValue,
  safeParseInContractWording,
  type FieldProblem,
  type PageQuery,
} from "../../sdk/nodejs/contract/index.ts";
import type { SandboxEnv } from "./env.ts";
import { HttpError } from "./errors.ts";
import { decodeCursor, type PageRequest } from "../domain/pagination.ts";

/**
 * Reads the request body as JSON. A missing or non-JSON content type, an empty body and
 * unparsable JSON are all 400 `malformed_json`: the body never reaches a schema.
 */
export async function readJsonBody(c: Context<SandboxEnv>): Promise<unknown> {
  const contentType = c.req.header("content-type") ?? "";
  const mediaType = contentType.split(";")[0]?.trim().toLowerCase() ?? "";
  if (mediaType !== "application/json" && !mediaType.endsWith("+json")) {
    throw new HttpError(
      400,
      "malformed_json",
      `the body must be JSON sent with Content-Type: application/json (got ${contentType === "" ? "no Content-Type" : quoteValue(contentType)})`,
    );
  }
  const text = await c.req.text();
  if (text.trim() === "")
    throw new HttpError(400, "malformed_json", "the request body is empty; send a JSON object");
  try {
    return JSON.parse(text) as unknown;
  } catch (error) {
    throw new HttpError(
      400,
      "malformed_json",
      `the request body is not valid JSON: ${(error as Error).message.slice(0, MAX_QUOTED_VALUE_LENGTH)}`,
    );
  }
}

/**
 * Reads a JSON body and parses it with `schema`. `moreChecks` sees the raw body and adds problems
 * the schema cannot know (for example positionKeys missing from the catalog); they are reported
 * together with the schema's, so one answer names every bad field.
 */
export async function readBody<S extends z.ZodType>(
  c: Context<SandboxEnv>,
  schema: S,
  moreChecks: (raw: unknown) => FieldProblem[] = () => [],
): Promise<z.infer<S>> {
  const raw = await readJsonBody(c);
  const result = safeParseInContractWording(schema, raw);
  const problems = [...(result.success ? [] : fieldProblemsOf(result.error)), ...moreChecks(raw)];
  if (problems.length > 0 || !result.success) throw HttpError.validation(problems);
  return result.data;
}

/** How a bad path parameter is named in an answer: its name, what it must be, what it was. */
export function pathParameterProblem(name: string, mustBe: string, value: unknown): FieldProblem {
  return { field: name, reason: `path parameter ${name} ${mustBe} (got ${quoteValue(value)})` };
}

/** Numbers in a query string: plain decimal digits, nothing that only a lenient reader takes as one. */
const PLAIN_DIGITS = /^[0-9]+$/;

/**
 * Reads the query parameters `schema` names and parses them (others are ignored, as new ones from
 * a newer client should be). One answer names every problem: a parameter given more than once
 * (`?pageSize=2&pageSize=500`: which would count?), and a number not written in plain decimal
 * digits (`1e1`, ` 2`, `2.0`, `0x10`), which a lenient reader would take for another value.
 */
export function readQuery<S extends z.ZodObject>(c: Context<SandboxEnv>, schema: S): z.infer<S> {
  const problems: FieldProblem[] = [];
  const raw: Record<string, string | undefined> = {};
  for (const name of Object.keys(schema.shape)) {
    const values = c.req.queries(name) ?? [];
    if (values.length > 1)
      problems.push({
        field: name,
        reason: `query parameter ${name} is given ${values.length} times; give it once`,
      });
    raw[name] = values[0];
  }
  const result = safeParseInContractWording(schema, raw);
  if (result.success) {
    for (const [name, value] of Object.entries(result.data as Record<string, unknown>)) {
      const text = raw[name];
      if (typeof value === "number" && text !== undefined && !PLAIN_DIGITS.test(text))
        problems.push({
          field: name,
          reason: `query parameter ${name} must be a whole number in plain decimal digits, such as 25 (got ${quoteValue(text)})`,
        });
    }
  } else {
    problems.push(...fieldProblemsOf(result.error));
  }
  if (problems.length > 0 || !result.success) throw HttpError.validation(problems, "invalid query parameter");
  return result.data;
}

/**
 * The page a list request asks for, from its parsed query: the cursor decoded (one the sandbox did
 * not hand out is a 400 naming it), pageSize 25 unless given.
 */
export function pageRequestOf(query: PageQuery): PageRequest {
  const cursor = query.cursor === undefined ? null : decodeCursor(query.cursor);
  if (query.cursor !== undefined && cursor === null) {
    throw HttpError.validation(
      [
        {
          field: "cursor",
          reason: "is not a cursor from a previous page's nextCursor; omit it to start from the first page",
        },
      ],
      "invalid query parameter",
    );
  }
  return { pageSize: query.pageSize ?? DEFAULT_PAGE_SIZE, cursor };
}
