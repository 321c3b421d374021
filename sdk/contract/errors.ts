import { z } from "zod";

/** One field-level problem: `field` is a path such as `positions[1].targetWeightBps`. */
export const FieldProblemSchema = z.looseObject({
  field: z.string(),
  reason: z.string(),
});
export type FieldProblem = z.infer<typeof FieldProblemSchema>;

/**
 * The error body of every non-2xx answer (spec 7 leaves it unshown; see docs/spec-gaps.md):
 * `{ error: { code, message, requestId, details } }`.
 */
export const ErrorBodySchema = z.looseObject({
  error: z.looseObject({
    code: z.string(),
    message: z.string(),
    requestId: z.string().nullish(),
    details: z.array(FieldProblemSchema).optional(),
  }),
});
export type ErrorBody = z.infer<typeof ErrorBodySchema>;

/** Error codes the sandbox emits. The real service may add more; clients treat unknown codes by status. */
export const ERROR_CODES = [
  "validation_failed",
  "malformed_json",
  "unauthorized",
  "not_found",
  "idempotency_conflict",
  "insufficient_funds",
  "conflict",
  "forbidden",
  "payload_too_large",
  "rate_limited",
  "internal_error",
  "unavailable",
] as const;
export type ErrorCode = (typeof ERROR_CODES)[number];

/** Renders a zod path (`["positions", 1, "targetWeightBps"]`) as `positions[1].targetWeightBps`. */
export function fieldPath(path: readonly PropertyKey[]): string {
  let out = "";
  for (const segment of path) {
    if (typeof segment === "number") out += `[${segment}]`;
    else out += out === "" ? String(segment) : `.${String(segment)}`;
  }
  return out === "" ? "(body)" : out;
}

/** Every issue of a failed parse, each naming its field: validation reports all problems at once. */
export function fieldProblemsOf(error: z.ZodError, prefix: readonly PropertyKey[] = []): FieldProblem[] {
  return error.issues.map((issue) => ({
    field: fieldPath([...prefix, ...issue.path]),
    reason: issue.message,
  }));
}

/** One line per problem, for error messages: `positions: weights sum to 9999 bps ...`. */
export function describeFieldProblems(problems: readonly FieldProblem[]): string {
  return problems.map((p) => `${p.field}: ${p.reason}`).join("; ");
}

/** The longest a quoted value may be in a message (see `quoteValue`). */
export const MAX_QUOTED_VALUE_LENGTH = 200;

/**
 * A value as an error message quotes it: its JSON text (`"bitcoin"`, `7`), cut to at most 200
 * characters, the cut marked with how long the whole was. An error about a 20 MB string stays small
 * and still shows what the value looked like.
 */
export function quoteValue(value: unknown): string {
  const text = JSON.stringify(value) ?? String(value);
  if (text.length <= MAX_QUOTED_VALUE_LENGTH) return text;
  const marker = `… (${text.length} characters)`;
  return `${text.slice(0, MAX_QUOTED_VALUE_LENGTH - marker.length)}${marker}`;
}
