import { describe, expect, test } from "vitest";
import { AdaptiveConcurrencyLimiter, ApiAbortError } from "../../../sdk/nodejs/client/index.ts";

const acquire = (limiter: AdaptiveConcurrencyLimiter, signal?: AbortSignal) =>
  limiter.acquire("GET", "/x", signal);

describe("AdaptiveConcurrencyLimiter", () => {
  test("sets no limit until the service throttles: a run that meets no 429 is never held back", async () => {
    const limiter = new AdaptiveConcurrencyLimiter();
    const permits = await Promise.all(Array.from({ length: 200 }, () => acquire(limiter)));
    expect(limiter.inFlight).toBe(200);
    expect(limiter.limit).toBe(Infinity);
    for (const permit of permits) permit.release("succeeded");
    expect(limiter.inFlight).toBe(0);
  });

  test("a throttled answer halves what was in flight, once for a burst of answers to requests sent together", async () => {
    const limiter = new AdaptiveConcurrencyLimiter();
    const permits = await Promise.all(Array.from({ length: 16 }, () => acquire(limiter)));
    // All sixteen hear 429: the limit halves once (16 → 8), not sixteen times.
    for (const permit of permits) permit.release("throttled");
    expect(limiter.limit).toBe(8);
    // A request sent after the decrease that is throttled again halves it again.
    const later = await acquire(limiter);
    later.release("throttled");
    expect(limiter.limit).toBe(4);
  });

  test("holds requests beyond the limit in line, first come first served, and lets one in per release", async () => {
    const limiter = new AdaptiveConcurrencyLimiter();
    (await acquire(limiter)).release("throttled"); // limit 1
    expect(limiter.limit).toBe(1);
    const first = await acquire(limiter);
    const order: number[] = [];
    const second = acquire(limiter).then((permit) => (order.push(2), permit));
    const third = acquire(limiter).then((permit) => (order.push(3), permit));
    await new Promise((resolve) => setTimeout(resolve, 10));
    expect(limiter.waiting).toBe(2);
    expect(order).toEqual([]);
    first.release("succeeded");
    (await second).release("succeeded");
    (await third).release("succeeded");
    expect(order).toEqual([2, 3]);
  });

  test("grows back by about one per limit's worth of successes, and lifts itself at the ceiling", async () => {
    const limiter = new AdaptiveConcurrencyLimiter({ ceiling: 8 });
    (await acquire(limiter)).release("throttled");
    expect(limiter.limit).toBe(1);
    const seen = [limiter.limit];
    for (let i = 0; i < 40 && Number.isFinite(limiter.limit); i++) {
      (await acquire(limiter)).release("succeeded");
      if (seen.at(-1) !== limiter.limit) seen.push(limiter.limit);
    }
    expect(seen).toEqual([1, 2, 3, 4, 5, 6, 7, Infinity]);
  });

  test("answers that say nothing about load (dropped connection, 500) neither raise nor lower the limit", async () => {
    const limiter = new AdaptiveConcurrencyLimiter();
    (await acquire(limiter)).release("throttled");
    for (let i = 0; i < 10; i++) (await acquire(limiter)).release("unknown");
    expect(limiter.limit).toBe(1);
  });

  test("an abort while waiting in line gives up the place, and releasing twice frees one place", async () => {
    const limiter = new AdaptiveConcurrencyLimiter();
    (await acquire(limiter)).release("throttled");
    const holder = await acquire(limiter);
    const controller = new AbortController();
    const waiting = acquire(limiter, controller.signal);
    controller.abort(new Error("cancelled"));
    await expect(waiting).rejects.toSatisfy((e) => ApiAbortError.isInstance(e));
    expect(limiter.waiting).toBe(0);
    holder.release("succeeded");
    holder.release("succeeded");
    expect(limiter.inFlight).toBe(0);
  });
});
