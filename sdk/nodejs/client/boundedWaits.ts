import { setTimeout as sleep } from "node:timers/promises";

/**
 * The waits of one bounded poll: exponential backoff from 100 ms to 5 s, for as long as the
 * timeout allows. Each item is the wait before the next attempt, or undefined for the last
 * attempt, after which the caller gives up with its own message. The one backoff for waiting on
 * the service to finish work, in the provider (a busy wallet, an approved change to show) and the
 * command-line tool (a withdrawal's legs), so it lives in the client's floor, which both stand on.
 * HTTP retries are the client's own, in core/retry.ts.
 */
export function* waitsWithin(timeoutMs: number): Generator<(() => Promise<void>) | undefined> {
  const deadline = Date.now() + timeoutMs;
  for (let delayMs = 100; Date.now() + delayMs <= deadline; delayMs = Math.min(delayMs * 2, 5_000)) {
    const wait = delayMs;
    yield () => sleep(wait);
  }
  yield undefined;
}
