import type { OrganizationClocks } from "../clock.ts";

/** setTimeout's ceiling (about 24.8 days). */
const MAX_TIMER_MS = 2 ** 31 - 1;
/** After an item failed to settle (it stays due), the timer waits this long before trying again. */
const RETRY_AFTER_FAILURE_MS = 1000;

/**
 * One kind of work that falls due on its organization's clock (strategy updates, deposit steps,
 * payout legs). Each item's due time is on its organization's clock; with `organizationId`, a
 * method looks at that organization's items only, found by index without reading another's.
 */
export interface DueWork {
  /** Names the kind in logs. */
  readonly name: string;
  /** When the earliest item falls due, as an ISO timestamp on its organization's clock; null when none waits. */
  nextDueAt(organizationId?: string): string | null;
  /** Does every item due by `nowIso`, each at the time it was due, earliest first. */
  settleDue(nowIso: string, organizationId?: string): void;
}

/**
 * The sandbox's one scheduler of time-driven work. Work settles on every API request, on every
 * clock advance (both call `settleDue`), and by one timer armed for the earliest due item, so it
 * also happens with nobody reading. Kinds settle in the order given; within a kind, in due order.
 *
 * Each organization's work is due on its own clock (sandbox/clock.ts OrganizationClocks). An
 * organization's time is never behind the shared clock, so everything due by the shared time is
 * due for everyone; what is due only because an organization's clock runs ahead is found per such
 * organization, by index. A settle costs one indexed look per kind and per organization ahead,
 * whatever the number of wallets stored.
 */
export interface DueWorkScheduler {
  /** Settles every kind's due work now, then re-arms the timer. */
  settleDue(): void;
  /** Re-arms the timer; call after scheduling new work. */
  wake(): void;
  /** Stops the timer (the sandbox is closing). */
  close(): void;
}

export function createDueWorkScheduler(
  clocks: OrganizationClocks,
  kinds: readonly DueWork[],
): DueWorkScheduler {
  let timer: NodeJS.Timeout | null = null;
  let closed = false;
  let lastSettleFailed = false;

  function settleKind(kind: DueWork, nowIso: string, organizationId?: string): void {
    try {
      kind.settleDue(nowIso, organizationId);
    } catch (error) {
      // The failing item's transaction rolled back, so it is still due; other kinds still run.
      lastSettleFailed = true;
      console.error(`[sandbox] settling due ${kind.name} failed`, error);
    }
  }

  function settleDue(): void {
    lastSettleFailed = false;
    // Organizations ahead of the shared clock first, each on its own clock; then everything due
    // by the shared time (theirs included: none of it is left).
    for (const organizationId of clocks.leads().keys()) {
      const nowIso = clocks.now(organizationId).toISOString();
      for (const kind of kinds) settleKind(kind, nowIso, organizationId);
    }
    const sharedNowIso = clocks.shared.now().toISOString();
    for (const kind of kinds) settleKind(kind, sharedNowIso);
    wake();
  }

  /** When the earliest item falls due, in shared-clock ms; null when nothing waits. */
  function soonestDueMs(): number | null {
    let soonest: number | null = null;
    const consider = (due: string | null, leadMs: number) => {
      if (due === null) return;
      const sharedMs = Date.parse(due) - leadMs;
      if (soonest === null || sharedMs < soonest) soonest = sharedMs;
    };
    for (const kind of kinds) {
      // Taken at face value, an item of an organization ahead falls due later than it does; its
      // organization's own look below gives its real time.
      consider(kind.nextDueAt(), 0);
      for (const [organizationId, leadMs] of clocks.leads()) consider(kind.nextDueAt(organizationId), leadMs);
    }
    return soonest;
  }

  function wake(): void {
    if (closed) return;
    if (timer !== null) clearTimeout(timer);
    timer = null;
    const dueMs = soonestDueMs();
    if (dueMs === null) return;
    // If the sandbox clock stands still (a manual clock), the timer finds nothing due and re-arms.
    const soonest = lastSettleFailed ? RETRY_AFTER_FAILURE_MS : 1;
    const remaining = Math.min(MAX_TIMER_MS, Math.max(soonest, dueMs - clocks.shared.now().getTime()));
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
