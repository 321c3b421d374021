import type { Context } from "hono";

/**
 * gRPC status codes, as the signing provider (Turnkey) puts them in its error bodies, with the HTTP
 * status its gateway answers for each. The Turnkey SDK turns the body into `TurnkeyRequestError`
 * with `code` set to this number.
 */
export const TURNKEY_CODES = {
  invalidArgument: { code: 3, status: 400 },
  notFound: { code: 5, status: 404 },
  permissionDenied: { code: 7, status: 403 },
  failedPrecondition: { code: 9, status: 400 },
  internal: { code: 13, status: 500 },
  unauthenticated: { code: 16, status: 401 },
} as const;
export type TurnkeyCodeName = keyof typeof TURNKEY_CODES;

const MAX_MESSAGE_LENGTH = 1000;

/** The one error type the signing-provider handlers throw; `toTurnkeyErrorResponse` renders it. */
export class TurnkeyHttpError extends Error {
  readonly codeName: TurnkeyCodeName;

  constructor(codeName: TurnkeyCodeName, message: string) {
    super(message);
    this.name = "TurnkeyHttpError";
    this.codeName = codeName;
  }
}

/**
 * Renders any thrown value in the signing provider's error shape `{ code, message, details }`
 * (not the service's `{ error: ... }` shape: the Turnkey SDK parses this one). Unknown errors are
 * a 500 and are logged.
 */
export function toTurnkeyErrorResponse(c: Context, error: unknown): Response {
  const known = error instanceof TurnkeyHttpError ? error : null;
  if (known === null) console.error("[sandbox] signing provider: unhandled error", error);
  const { code, status } = TURNKEY_CODES[known?.codeName ?? "internal"];
  const full = known?.message ?? "the sandbox's signing provider failed to handle the request; see its log";
  // Messages may quote what the caller sent; an answer stays small whatever that was.
  const message = full.length <= MAX_MESSAGE_LENGTH ? full : `${full.slice(0, MAX_MESSAGE_LENGTH)}…`;
  return c.json({ code, message, details: [] }, status);
}
