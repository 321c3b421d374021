import { ApiConnectionError, ApiTimeoutError, AuthenticationError } from "./client/core/errors.ts";
import {
  describeTransientFailure,
  retryHistoryOf,
  type RetryHistory,
  type RetryNotice,
} from "./client/core/retry.ts";
import { configKeyOf, howToSet } from "./stackSettings.ts";

/**
 * The client's retries and errors in a stack's words: the client is general purpose and names its
 * own options, a Pulumi user has `portfolio-wallet:*` settings (stackSettings.ts). The provider,
 * the read functions and the native plugin word their retry notices and last errors here.
 */

/**
 * A client error as a Pulumi user needs to read it. The client is general purpose and names its
 * own options ("the apiToken option", "raise maxRetries"); a stack has `portfolio-wallet:*`
 * settings instead, so the provider and the functions pass their errors here:
 * - a request that kept failing through the retry budget says how often and for how long it was
 *   tried, what the last answer was, that running the operation again is safe, and which setting
 *   gives it longer;
 * - a refused token or an unreachable service names the setting to check.
 */
export function withSettingHint(error: unknown): unknown {
  const history = retryHistoryOf(error);
  if (history !== undefined && history.repeatable)
    return new Error(retriesExhaustedMessage(error, history), { cause: error });
  const hint = AuthenticationError.isInstance(error)
    ? howToSet("apiToken")
    : ApiConnectionError.isInstance(error)
      ? howToSet("baseUrl")
      : undefined;
  if (hint === undefined) return error;
  return new Error(`${(error as Error).message} In a Pulumi stack, ${hint}.`, { cause: error });
}

/** `POST /v2/portfolio-wallets met 429 rate_limited (...); waiting 4.2 s as the service asked ...`: one retry, for the output. */
export function retryNoticeText(notice: RetryNotice): string {
  const why = notice.serviceAskedForDelay ? " as the service asked (Retry-After)" : "";
  const budget =
    notice.budgetMs === undefined
      ? ""
      : `, of ${secondsText(notice.budgetMs)} allowed by ${configKeyOf("retryTimeoutSeconds")}`;
  return (
    `${notice.method} ${notice.path} met ${notice.failure}; waiting ${secondsText(notice.delayMs)}${why} ` +
    `before attempt ${notice.failedAttempt + 1} (retrying for ${secondsText(notice.elapsedMs)} so far${budget}).`
  );
}

/** A duration for messages: `300 s`, `0.5 s`. */
export function secondsText(ms: number): string {
  return `${Math.round(ms / 100) / 10} s`;
}

function retriesExhaustedMessage(error: unknown, history: RetryHistory): string {
  const tried =
    history.attempts === 1
      ? "was sent once"
      : `was tried ${history.attempts} times over ${secondsText(history.elapsedMs)}`;
  const parts = [
    `${history.method} ${history.path} ${tried}; the last answer was ${describeTransientFailure(error)}.`,
    "Nothing was done twice: every request of this provider only reads or carries its requestId, so " +
      "running the Pulumi operation again is safe and picks up where this one stopped.",
  ];
  if (ApiConnectionError.isInstance(error) || ApiTimeoutError.isInstance(error)) {
    parts.push(`If the service is up, check portfolio-wallet:baseUrl (${howToSet("baseUrl")}).`);
  }
  const budget = history.budgetMs === undefined ? "" : ` (now ${secondsText(history.budgetMs)})`;
  parts.push(
    `To keep retrying for longer, raise ${configKeyOf("retryTimeoutSeconds")}${budget}: ${howToSet("retryTimeoutSeconds")}.`,
  );
  return parts.join(" ");
}
