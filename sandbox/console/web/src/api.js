// @ts-check
// Every request the console makes goes through here: the sandbox's own origin, the signed-in
// token, and a record of what was sent (tokens replaced by placeholders) so a page can show it.
import { moneyInText } from "./format.js";
import { session } from "./session.js";

/**
 * Sent on every request of the console, admin calls included: the sandbox neither counts nor
 * faults them, and leaves the console's reads out of its request log (docs/sandbox.md).
 */
export const CONSOLE_HEADER = "X-Sandbox-Console";
/** Shown in the tokens' place: the shell variables copy-as-code reads them from (copyAsCode.js). */
export const API_TOKEN_SHOWN = "$API_TOKEN";
export const ADMIN_TOKEN_SHOWN = "$ADMIN_TOKEN";

/**
 * How long the console waits for an answer. This sandbox answers its reads and actions in
 * milliseconds; one that has not answered in 5 seconds is stopped, paused or hung, and the page
 * says so (its banner) instead of waiting for ever.
 */
export const REQUEST_TIMEOUT_MS = 5000;
/**
 * The latest moment the sandbox may still apply an action, on the sandbox's wall clock (ms since
 * the epoch): aborting the fetch alone does not unsend it (its bytes may already sit in a paused
 * sandbox's socket, applied on resume, after the console said it was not), so the sandbox refuses
 * one that reaches it later (docs/sandbox.md "Deadlines").
 */
export const DEADLINE_HEADER = "X-Sandbox-Deadline-Ms";
/**
 * The console's own id of each action it sends (a random UUID), kept by the sandbox's request
 * log: a console that stopped waiting for an answer looks that very request up by it
 * (actionFollowUp.js), to say whether it was applied.
 */
export const ACTION_ID_HEADER = "X-Sandbox-Console-Action-Id";
/** The sandbox's wall clock when it answered: deadlines are set on its clock, not the browser's. */
const WALL_CLOCK_HEADER = "X-Sandbox-Wall-Clock-Ms";
/**
 * The deadline falls this long before the console stops waiting, so an action the sandbox began
 * just in time has its answer back before the console would call it not applied.
 */
const DEADLINE_MARGIN_MS = 1000;
/** The sandbox's wall clock less the browser's, learned from the last answer (0 before any). */
let sandboxClockAheadMs = 0;

/**
 * What was sent, as a page may show it: secrets are placeholders.
 * @typedef {object} SentRequest
 * @property {string} method
 * @property {string} path
 * @property {[string, string][]} headers
 * @property {string | null} body
 */

/**
 * An answer of the sandbox.
 * @typedef {object} Answer
 * @property {number} status
 * @property {any} body
 * @property {string | null} requestId
 * @property {SentRequest} sent
 */

/** A refusal or failure, with a message fit to show as it is. */
export class ApiError extends Error {
  /**
   * @param {string} message
   * @param {{ status: number, code: string | null, body: any, requestId: string | null, sent: SentRequest, timedOut?: boolean, actionId?: string | null }} details
   */
  constructor(message, details) {
    super(message);
    this.name = "ApiError";
    this.status = details.status;
    this.code = details.code;
    this.body = details.body;
    this.requestId = details.requestId;
    this.sent = details.sent;
    /** No answer within its timeout (status 0): a hung sandbox, rather than a stopped one. */
    this.timedOut = details.timedOut ?? false;
    /** The action's ACTION_ID_HEADER, by which what became of it is looked up; null for a read. */
    this.actionId = details.actionId ?? null;
  }
}

/**
 * @typedef {object} RequestOptions
 * @property {unknown} [body] sent as JSON
 * @property {string} [bodyText] sent as is (a stamped body must be the exact bytes signed)
 * @property {boolean} [admin] an admin call: sends the admin token, if one was given
 * @property {string | null} [token] the bearer token to use instead of the session's (sign-in); null sends none
 * @property {[string, string, string][]} [extraHeaders] name, value, and what to show instead of the value
 * @property {boolean} [signing] a signing-provider call, authenticated by its X-Stamp instead of a token
 * @property {number} [timeoutMs] how long to wait for this answer, for an action that takes the
 *   sandbox longer than milliseconds (REQUEST_TIMEOUT_MS otherwise); its deadline follows it
 */

/**
 * One request to the sandbox. Resolves with the answer when it is a 2xx; throws `ApiError`
 * otherwise, with a message saying what was refused and why.
 * @param {string} method
 * @param {string} path
 * @param {RequestOptions} [options]
 * @returns {Promise<Answer>}
 */
export async function request(method, path, options = {}) {
  const headers = new Headers();
  /** @type {[string, string][]} */
  const shown = [];
  /** @param {string} name @param {string} value @param {string} [display] */
  const add = (name, value, display = value) => {
    headers.set(name, value);
    shown.push([name, display]);
  };
  const token = options.token === undefined ? (session()?.apiToken ?? null) : options.token;
  if (token !== null) add("Authorization", `Bearer ${token}`, `Bearer ${API_TOKEN_SHOWN}`);
  if (options.admin) {
    const adminToken = session()?.adminToken ?? null;
    if (adminToken !== null) add("X-Sandbox-Admin-Token", adminToken, ADMIN_TOKEN_SHOWN);
  }
  if (token !== null) add(CONSOLE_HEADER, "1");
  const timeoutMs = options.timeoutMs ?? REQUEST_TIMEOUT_MS;
  // Reads change nothing, so only actions need a deadline, and an id to look them up by.
  const actionId = method === "GET" ? null : crypto.randomUUID();
  const deadlineMs = Date.now() + sandboxClockAheadMs + timeoutMs - DEADLINE_MARGIN_MS;
  if (actionId !== null) {
    add(DEADLINE_HEADER, String(deadlineMs));
    add(ACTION_ID_HEADER, actionId);
  }
  for (const [name, value, display] of options.extraHeaders ?? []) add(name, value, display);
  const bodyText =
    options.bodyText ?? (options.body === undefined ? null : JSON.stringify(options.body, null, 2));
  if (bodyText !== null) add("Content-Type", "application/json");
  /** @type {SentRequest} */
  const sent = { method, path, headers: shown, body: bodyText };

  const timeout = AbortSignal.timeout(timeoutMs);
  let response;
  try {
    response = await fetch(path, {
      method,
      headers,
      body: bodyText,
      cache: "no-store",
      credentials: "omit",
      redirect: "error",
      signal: timeout,
    });
  } catch {
    const timedOut = timeout.aborted;
    const message =
      method === "GET"
        ? unansweredRead(timedOut, timeoutMs)
        : unansweredAction(method, path, timedOut, timeoutMs, deadlineMs - sandboxClockAheadMs);
    throw new ApiError(message, {
      status: 0,
      timedOut,
      actionId,
      code: null,
      body: null,
      requestId: null,
      sent,
    });
  }
  const stamped = Number(response.headers.get(WALL_CLOCK_HEADER) ?? Number.NaN);
  if (Number.isFinite(stamped)) sandboxClockAheadMs = stamped - Date.now();
  // An answer whose body stopped halfway (the sandbox paused while sending it) keeps its status.
  const text = await response.text().catch(() => "");
  /** @type {any} */
  let body = null;
  try {
    body = text === "" ? null : JSON.parse(text);
  } catch {
    body = text;
  }
  const requestId = response.headers.get("x-request-id");
  if (response.ok) return { status: response.status, body, requestId, sent };
  throw new ApiError(describeRefusal(response.status, body, options), {
    status: response.status,
    code: errorCodeOf(body),
    body,
    requestId,
    sent,
  });
}

/**
 * What a read that got no answer says: the page's polling tries it again.
 * @param {boolean} timedOut whether the console stopped waiting, rather than the connection failing
 * @param {number} [timeoutMs] how long it waited
 */
export function unansweredRead(timedOut, timeoutMs = REQUEST_TIMEOUT_MS) {
  return timedOut
    ? `The sandbox did not answer within ${timeoutMs / 1000} seconds. Is it still running, or paused? The page reads again every few seconds.`
    : "The sandbox did not answer. Is it still running? The page reads again every few seconds.";
}

/**
 * What an action that got no answer says: only what is known. It is not sent again (sending it
 * later, unseen, could surprise more than help). One that timed out may have been begun by the
 * sandbox before its deadline and be applied, answered too late; one that reaches the sandbox after
 * its deadline is refused. Which of them happened, actionFollowUp.js finds out once the sandbox
 * answers again.
 * @param {string} method
 * @param {string} path
 * @param {boolean} timedOut
 * @param {number} timeoutMs
 * @param {number} deadlineMs the action's deadline on this browser's clock
 */
function unansweredAction(method, path, timedOut, timeoutMs, deadlineMs) {
  const action = `${method} ${path.split("?")[0]}`;
  // A time of day on the wall clock, as the console writes times (en-GB, 24 hours), not a date:
  // the sandbox clock's dates are another clock's.
  const deadline = new Date(deadlineMs).toLocaleTimeString("en-GB", { timeZoneName: "short" });
  return timedOut
    ? `No answer: the sandbox did not answer this ${action} within ${timeoutMs / 1000} seconds, and the console will not send it again. If it reaches the sandbox after ${deadline} (its deadline, by this computer's clock), the sandbox refuses it and nothing is applied; if the sandbox began it before then, it may have been applied. Is the sandbox still running, or paused? Once it answers again (the banner above goes), the console finds out which and says so here.`
    : // The connection failed: refused (the sandbox is down, nothing applied) or broken after the
      // sandbox read the action (it may be applied); fetch does not say which.
      `No answer: the connection to the sandbox failed during this ${action}, and the console will not send it again. If the sandbox was down it was not applied; if the connection broke after the sandbox read it, it may have been. Is the sandbox still running? Once it answers again (the banner above goes), the console finds out which and says so here.`;
}

/** @param {any} body */
function errorCodeOf(body) {
  if (typeof body?.error?.code === "string") return body.error.code;
  if (typeof body?.code === "number") return `code ${body.code}`;
  return null;
}

/**
 * The sandbox's own words for a refusal, with the fields it names: its error bodies
 * `{ error: { code, message, details } }`, and the signing provider's `{ code, message }`.
 * @param {number} status
 * @param {any} body
 * @param {RequestOptions} options
 */
function describeRefusal(status, body, options) {
  const error = body?.error ?? body;
  const message = typeof error?.message === "string" ? error.message : `the sandbox answered ${status}`;
  const code = errorCodeOf(body);
  // The sandbox's message already names most details; repeat only those it does not.
  /** @type {string[]} */
  const fields = Array.isArray(error?.details)
    ? error.details
        .filter(
          (/** @type {any} */ detail) =>
            (typeof detail?.field === "string" || typeof detail?.reason === "string") &&
            !(typeof detail?.reason === "string" && message.includes(detail.reason)),
        )
        .map((/** @type {any} */ detail) => `${detail.field ?? "request"}: ${detail.reason ?? "invalid"}`)
    : [];
  const who = options.signing ? "Refused by the signing provider" : status === 404 ? "Not found" : "Refused";
  const detail = fields.length > 0 ? ` (${fields.join("; ")})` : "";
  // What to do about it, where the sandbox's words cannot know: where the console takes the tokens.
  const next =
    status === 401 && !options.signing && options.token === undefined
      ? " Sign out and in again with a token of this sandbox."
      : status === 401 && options.signing
        ? " Register a new approver key: the sandbox may have restarted without this one."
        : status === 403 && options.admin && session()?.adminApi === "token"
          ? " Give the sandbox's admin token at sign-in or under Sandbox controls."
          : "";
  return moneyInText(
    `${who} (${status}${code === null ? "" : ` ${code}`}): ${message}${detail}.${next}`,
  ).replace("..", ".");
}

/**
 * The request as text, the way an HTTP request is written: method and path, headers, body.
 * @param {SentRequest} sent
 */
export function requestText(sent) {
  const lines = [`${sent.method} ${sent.path}`, ...sent.headers.map(([name, value]) => `${name}: ${value}`)];
  return sent.body === null ? lines.join("\n") : `${lines.join("\n")}\n\n${sent.body}`;
}

/** A fresh idempotency key (requestId) for a request that creates something. */
export function newRequestId() {
  return crypto.randomUUID();
}
