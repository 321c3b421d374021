import type { SandboxClock } from "../clock.ts";

/** setTimeout's ceiling (about 24.8 days). */
const MAX_TIMER_MS = 2 ** 31 - 1;
/** After an item failed to settle (it stays due), the timer waits this long before trying again. */
const RETRY_AFTER_FAILURE_MS = 1000;

/** One kind of work that falls due on the sandbox clock (strategy updates, deposit steps, payout legs). */
export interface DueWork {
  /** Names the kind in logs. */
  readonly name: string;
  /** When the earliest item falls due, as an ISO timestamp on the sandbox clock; null when none waits. */
  nextDueAt(): string | null;
  /** Does every item due by `nowIso`, each at the time it was due, earliest first. */
  settleDue(nowIso: string): void;
}

/**
 * The sandbox's one scheduler of time-driven work. Work settles on every API request, on every
 * clock advance (both call `settleDue`), and by one timer armed for the earliest due item, so it
 * also happens with nobody reading. Kinds settle in the order given; within a kind, in due order.
 */
export interface DueWorkScheduler {
  /** Settles every kind's due work now, then re-arms the timer. */
  settleDue(): void;
  /** Re-arms the timer; call after scheduling new work. */
  wake(): void;
  /** Stops the timer (the sandbox is closing). */
  close(): void;
}

export function createDueWorkScheduler(clock: SandboxClock, kinds: readonly DueWork[]): DueWorkScheduler {
  let timer: NodeJS.Timeout | null = null;
  let closed = false;
  let lastSettleFailed = false;

  function settleDue(): void {
    const nowIso = clock.now().toISOString();
    lastSettleFailed = false;
    for (const kind of kinds) {
      try {
        kind.settleDue(nowIso);
      } catch (error) {
        // The failing item's transaction rolled back, so it is still due; other kinds still run.
        lastSettleFailed = true;
        console.error(`[sandbox] settling due ${kind.name} failed`, error);
      }
    }
    wake();
  }

  function wake(): void {
    if (closed) return;
    if (timer !== null) clearTimeout(timer);
    timer = null;
    const dueTimes = kinds
      .map((kind) => kind.nextDueAt())
      .filter((due): due is string => due !== null)
      .map((due) => Date.parse(due));
    if (dueTimes.length === 0) return;
    // If the sandbox clock stands still (a manual clock), the timer finds nothing due and re-arms.
    const soonest = lastSettleFailed ? RETRY_AFTER_FAILURE_MS : 1;
    const remaining = Math.min(
      MAX_TIMER_MS,
      Math.max(soonest, Math.min(...dueTimes) - clock.now().getTime()),
    );
    timer = setTimeout(() => {
      timer = null;
      settleDue();
    }, remaining);
    timer.unref();
  }

  return {
    settleDue,
    wake,
    close() {
      closed = true;
      if (timer !== null) clearTimeout(timer);
      timer = null;
    },
  };
}
