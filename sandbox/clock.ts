/**
 * The sandbox's notion of "now". Every timestamp the sandbox writes comes from here, so tests
 * (and the admin API) can move time forward without waiting: rate changes, rebalances and, later,
 * yield accrual all read the same clock.
 */
export interface SandboxClock {
  /** The current sandbox time. */
  now(): Date;
  /** Moves sandbox time forward by `ms` milliseconds (never backwards: timestamps must stay ordered). */
  advance(ms: number): void;
  /** How far sandbox time is ahead of the wall clock, in milliseconds. */
  offsetMs(): number;
}

/** Wall-clock time plus an offset that only grows. */
export function createWallClock(initialOffsetMs = 0): SandboxClock {
  let offset = initialOffsetMs;
  return {
    now: () => new Date(Date.now() + offset),
    advance(ms: number) {
      if (!Number.isFinite(ms) || ms < 0) throw new RangeError("the sandbox clock only moves forward");
      offset += ms;
    },
    offsetMs: () => offset,
  };
}

/** The ISO timestamp `ms` milliseconds after `iso` (when a step started at `iso` falls due). */
export function isoAfter(iso: string, ms: number): string {
  return new Date(Date.parse(iso) + ms).toISOString();
}

/** ISO 8601 with milliseconds and `Z`: fixed width, so timestamps sort as strings (cursors rely on it). */
export function isoNow(clock: SandboxClock): string {
  return clock.now().toISOString();
}

/**
 * A clock that stands still until advanced: every read of "now" between two advances is the same
 * instant, so tests can compare balances read at different moments to the micro. Start defaults
 * to the wall-clock time of creation.
 */
export function createManualClock(start: Date = new Date()): SandboxClock {
  const startMs = start.getTime();
  let offset = 0;
  return {
    now: () => new Date(startMs + offset),
    advance(ms: number) {
      if (!Number.isFinite(ms) || ms < 0) throw new RangeError("the sandbox clock only moves forward");
      offset += ms;
    },
    offsetMs: () => offset,
  };
}
