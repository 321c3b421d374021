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
  "deadline_passed",
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

/** What a JSON value is, in words, for messages: `null`, `an array`, `a string`, ... */
function kindOf(value: unknown): string {
  if (value === undefined) return "nothing";
  if (value === null) return "null";
  if (Array.isArray(value)) return "an array";
  if (typeof value === "number") return Number.isInteger(value) ? "a whole number" : "a number";
  if (typeof value === "object") return "an object";
  return `a ${typeof value}`;
}

const EXPECTED_WORDS: Record<string, string> = {
  string: "a string",
  number: "a number",
  int: "a whole number",
  boolean: "true or false",
  object: "a JSON object",
  array: "an array",
  null: "null",
};

/** What a size limit counts, by the kind of value it limits. */
function unitOf(origin: string, count: number | bigint): string {
  if (origin === "string") return count === 1 ? " character" : " characters";
  if (origin === "array" || origin === "set") return count === 1 ? " item" : " items";
  return "";
}

/**
 * The contract's own wording of a problem whose schema gave no message: it says what the field must
 * be and what it was, never a validator's stock sentence ("Invalid input: expected string, received
 * null"). Every parse of outside input (the sandbox's bodies and queries, the client's requests, the
 * provider's inputs) passes it, so a caller only ever reads one voice. Messages set on a schema win.
 */
export const contractIssueWording = (issue: z.core.$ZodRawIssue): string => {
  const got = kindOf(issue.input);
  switch (issue.code) {
    case "invalid_type": {
      if (issue.input === undefined) return "is required";
      const expected = EXPECTED_WORDS[issue.expected] ?? `of type ${issue.expected}`;
      return `must be ${expected}, not ${got}`;
    }
    case "too_small": {
      const bound = issue.minimum;
      if (issue.origin === "array" && Number(bound) === 1) return "must hold at least one item";
      if (issue.origin === "string" && Number(bound) === 1) return "must not be empty";
      const inclusive = issue.inclusive === false ? "greater than" : "at least";
      return `must be ${inclusive} ${String(bound)}${unitOf(issue.origin, bound)}`;
    }
    case "too_big": {
      const bound = issue.maximum;
      const inclusive = issue.inclusive === false ? "less than" : "at most";
      return `must be ${inclusive} ${String(bound)}${unitOf(issue.origin, bound)}`;
    }
    case "invalid_format":
      return issue.format === "regex" ? "does not have the required form" : `must be a valid ${issue.format}`;
    case "not_multiple_of":
      return `must be a multiple of ${String(issue.divisor)}`;
    case "unrecognized_keys":
      return `has fields this request does not take: ${issue.keys.join(", ")}`;
    case "invalid_value":
      return `must be one of: ${issue.values.map((value) => quoteValue(value)).join(", ")} (got ${quoteValue(issue.input)})`;
    case "invalid_union":
      return `does not match any accepted form (got ${got})`;
    case "invalid_key":
      return "has a key that is not allowed";
    case "invalid_element":
      return "has a value that is not allowed";
    case "custom":
      return "is invalid";
  }
};

/**
 * `schema.safeParse(value)` in the contract's wording (`contractIssueWording`): what every parser
 * of outside input calls.
 */
export function safeParseInContractWording<S extends z.ZodType>(
  schema: S,
  value: unknown,
): z.ZodSafeParseResult<z.output<S>> {
  return schema.safeParse(value, { error: contractIssueWording });
}
