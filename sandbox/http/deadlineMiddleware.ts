import type { MiddlewareHandler } from "hono";
import type { SandboxEnv } from "./env.ts";
import { HttpError } from "./errors.ts";

/**
 * A request's deadline (docs/sandbox.md "Deadlines"): the latest moment, on the sandbox's wall
 * clock in milliseconds since the epoch, at which the sandbox may still apply it. A client that
 * stops waiting for an answer cannot take back bytes already in the sandbox's socket: a sandbox
 * that was paused reads them on resume and would apply them after the client said they were not.
 * With a deadline, such a request is refused instead, and nothing of it is applied.
 */
export const DEADLINE_HEADER = "x-sandbox-deadline-ms";

/**
 * The sandbox's wall clock when it answered, on every answer: a client sets its deadlines on this
 * clock, so its own clock's skew does not matter. Not the sandbox clock, which advances.
 */
export const WALL_CLOCK_HEADER = "x-sandbox-wall-clock-ms";

/**
 * Throws when a request with this deadline header must not be applied at `nowMs`: 400 naming the
 * header when it is no whole number of milliseconds, 408 `deadline_passed` once it has passed.
 */
export function refuseAfterDeadline(sent: string, nowMs: number): void {
  if (!/^\d{1,16}$/.test(sent.trim()))
    throw HttpError.validation(
      [{ field: DEADLINE_HEADER, reason: "must be a moment in milliseconds since the epoch (1970)" }],
      `the ${DEADLINE_HEADER} header is invalid`,
    );
  const lateMs = nowMs - Number(sent);
  if (lateMs <= 0) return;
  throw new HttpError(
    408,
    "deadline_passed",
    `this request reached the sandbox ${lateMs} ms after its deadline (${DEADLINE_HEADER} ${sent.trim()}): its sender has stopped waiting for it, so nothing of it was applied. Send it again if it is still wanted`,
  );
}

/** Answers every request with the sandbox's wall clock (WALL_CLOCK_HEADER), errors included. */
export function wallClockMiddleware(now: () => number = Date.now): MiddlewareHandler<SandboxEnv> {
  return async (c, next) => {
    await next();
    c.res.headers.set(WALL_CLOCK_HEADER, String(now()));
  };
}

/** Refuses a request whose deadline has passed (refuseAfterDeadline); one without the header passes. */
export function deadlineMiddleware(now: () => number = Date.now): MiddlewareHandler<SandboxEnv> {
  return async (c, next) => {
    const sent = c.req.header(DEADLINE_HEADER);
    if (sent !== undefined) refuseAfterDeadline(sent, now());
    await next();
  };
}
