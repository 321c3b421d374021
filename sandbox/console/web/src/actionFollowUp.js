// @ts-check
// What became of an action the console stopped waiting for. At the timeout only "it may or may not
// have been applied" is true (api.js says so); once the sandbox answers again, its request log
// (which keeps each action's id, ACTION_ID_HEADER) says what happened to that very request.
import { ApiError, request } from "./api.js";
import { consolePaths } from "./paths.js";

/**
 * How long a lookup that found nothing waits before looking once more: a sandbox just resumed
 * may still be reading the action from its socket, or handling it, when it answers the first
 * lookup. Past the action's deadline it refuses the action anyway, so a second miss means it
 * never arrived.
 */
const SECOND_LOOK_AFTER_MS = 2000;
/** Between lookups while the sandbox still does not answer, as the page's polling does. */
const RETRY_AFTER_MS = 3000;
/** Lookups no answer stops: a sandbox gone for longer is restarted, and its log with it. */
const MOST_LOOKUPS = 200;

/**
 * What became of an action, as the page says it.
 * @typedef {object} FollowUp
 * @property {"applied" | "refused-late" | "refused" | "never-arrived" | "unknown"} kind
 * @property {string} message
 */

/**
 * The verdict on an action from its row in the request log (null when the log holds none).
 * @param {{ status: number, requestId: string } | null} logged
 * @returns {FollowUp}
 */
export function followUpOf(logged) {
  if (logged === null)
    return {
      kind: "never-arrived",
      message:
        "Then: not applied. The sandbox answers again and has no record of this request: it never arrived, and past its deadline the sandbox refuses it if it does.",
    };
  if (logged.status >= 200 && logged.status < 300)
    return {
      kind: "applied",
      message: `Then: applied. The sandbox began this request before its deadline and answered ${logged.status} after the console had stopped waiting (request ${logged.requestId}). The page shows the change; do not send it again.`,
    };
  if (logged.status === 408)
    return {
      kind: "refused-late",
      message: `Then: not applied (refused as late). The request reached the sandbox after its deadline, and the sandbox refused it (408 deadline_passed) with nothing applied (request ${logged.requestId}). Try again if it is still wanted.`,
    };
  return {
    kind: "refused",
    message: `Then: not applied. The sandbox refused this request (${logged.status}; request ${logged.requestId} on the Events page says why).`,
  };
}

/** @param {number} ms */
const pause = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Looks up an action that got no answer, once the sandbox answers again, and says what became of
 * it. Null for an error that is no timed-out action of the signed-in token (a read, or a signing
 * provider's vote, which the request log does not hold).
 * @param {unknown} error what the action threw
 * @returns {Promise<FollowUp> | null}
 */
export function followUpTimedOutAction(error) {
  // Timed out or the connection failed: in both the action may or may not have been applied.
  if (!(error instanceof ApiError) || error.status !== 0 || error.actionId === null) return null;
  if (!error.sent.headers.some(([name]) => name === "Authorization")) return null;
  const actionId = error.actionId;
  return (async () => {
    let missed = false;
    for (let lookup = 0; lookup < MOST_LOOKUPS; lookup += 1) {
      try {
        const { body } = await request("GET", consolePaths.requests({ actionId, limit: 1 }));
        const logged = Array.isArray(body?.data) ? (body.data[0] ?? null) : null;
        if (logged !== null || missed) return followUpOf(logged);
        missed = true;
        await pause(SECOND_LOOK_AFTER_MS);
      } catch (failure) {
        if (!(failure instanceof ApiError) || failure.status !== 0)
          return {
            kind: "unknown",
            message: `Then: the console could not look this request up (${failure instanceof Error ? failure.message : String(failure)}). The Events page lists what the sandbox did.`,
          };
        await pause(RETRY_AFTER_MS);
      }
    }
    return {
      kind: "unknown",
      message:
        "Then: the sandbox has not answered for several minutes, so the console cannot tell whether this request was applied. Once it answers, the Events page lists what it did.",
    };
  })();
}
