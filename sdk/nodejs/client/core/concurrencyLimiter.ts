import { ApiAbortError } from "./errors.ts";

/**
 * How many requests may be in flight at once, adapted to what the service says: when it answers
 * 429 or 503 the limit halves, and each success raises it again by a fraction, about one per
 * limit's worth of successes (additive increase, multiplicative decrease, as TCP congestion
 * control and the AWS SDKs' adaptive retry mode do). Until the service first throttles there is
 * no limit at all, so a run that meets no throttling pays nothing; once the limit has grown back
 * to `ceiling`, it is lifted again.
 *
 * Share one limiter between every client of a process that talks to one service (the Pulumi
 * provider does): then, when the service says "slow down", the whole deployment slows down, not
 * just the one request that heard it.
 */
export class AdaptiveConcurrencyLimiter {
  readonly #ceiling: number;
  #limit = Infinity;
  /** Fractional progress towards the next +1 of the limit. */
  #credit = 0;
  #inFlight = 0;
  /**
   * Bumped at each decrease. Answers to requests sent before the latest decrease say nothing new
   * about the current limit (a burst of 429s to requests sent together halves it once, not once each).
   */
  #epoch = 0;
  readonly #waiting: { grant: () => void }[] = [];

  /** @param options.ceiling The limit above which it is lifted again. Default 64. */
  constructor(options: { ceiling?: number } = {}) {
    this.#ceiling = options.ceiling ?? 64;
    if (!Number.isInteger(this.#ceiling) || this.#ceiling < 2) {
      throw new RangeError(`ceiling must be a whole number >= 2; got ${this.#ceiling}`);
    }
  }

  /** The current limit (Infinity while there is none). */
  get limit(): number {
    return this.#limit;
  }

  /** Requests holding a permit now. */
  get inFlight(): number {
    return this.#inFlight;
  }

  /** Requests waiting for a permit now. */
  get waiting(): number {
    return this.#waiting.length;
  }

  /**
   * Waits for a permit (first come, first served) and returns it; the caller releases it with the
   * outcome of its request. An abort while waiting gives up the place in line.
   */
  async acquire(method: string, path: string, signal?: AbortSignal): Promise<ConcurrencyPermit> {
    if (signal?.aborted) throw new ApiAbortError(method, path, signal.reason);
    if (this.#inFlight >= this.#limit || this.#waiting.length > 0) {
      await new Promise<void>((resolve, reject) => {
        const entry = {
          grant: () => {
            signal?.removeEventListener("abort", onAbort);
            resolve();
          },
        };
        const onAbort = () => {
          const index = this.#waiting.indexOf(entry);
          if (index >= 0) this.#waiting.splice(index, 1);
          reject(new ApiAbortError(method, path, signal?.reason));
        };
        signal?.addEventListener("abort", onAbort, { once: true });
        this.#waiting.push(entry);
      });
    } else {
      this.#inFlight += 1;
    }
    const epoch = this.#epoch;
    let released = false;
    return {
      release: (outcome) => {
        if (released) return;
        released = true;
        this.#inFlight -= 1;
        this.#learn(outcome, epoch);
        this.#grantWaiting();
      },
    };
  }

  #learn(outcome: PermitOutcome, epoch: number): void {
    if (outcome === "throttled") {
      if (epoch !== this.#epoch) return;
      const current = Number.isFinite(this.#limit) ? this.#limit : this.#inFlight + 1;
      this.#limit = Math.max(1, Math.floor(current / 2));
      this.#credit = 0;
      this.#epoch += 1;
    } else if (outcome === "succeeded" && Number.isFinite(this.#limit)) {
      this.#credit += 1 / this.#limit;
      if (this.#credit >= 1) {
        this.#credit -= 1;
        this.#limit += 1;
        if (this.#limit >= this.#ceiling) this.#limit = Infinity;
      }
    }
  }

  #grantWaiting(): void {
    while (this.#waiting.length > 0 && this.#inFlight < this.#limit) {
      this.#inFlight += 1;
      this.#waiting.shift()!.grant();
    }
  }
}

/**
 * What became of a request: `throttled` (429 or 503: the service asked to slow down), `succeeded`
 * (any answer the service chose to give, errors included), or `unknown` (no answer: a dropped
 * connection or a timeout says nothing about load that the retry's backoff does not already cover).
 */
export type PermitOutcome = "throttled" | "succeeded" | "unknown";

/** One request's place in flight. */
export interface ConcurrencyPermit {
  /** Frees the place and teaches the limiter what the answer said. Safe to call twice. */
  release(outcome: PermitOutcome): void;
}
