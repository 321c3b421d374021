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
 * The sandbox's one scheduler of time-driven work. An organization's due work settles on each of
 * its API requests (a request reads only its own organization's state, so only that organization's
 * work is settled: a request costs the same however many organizations have work waiting), on a
 * clock advance, and by one timer armed for the earliest due item, so it also happens with nobody
 * reading. Kinds settle in the order given; within a kind, in due order.
 *
 * Each organization's work is due on its own clock (sandbox/clock.ts OrganizationClocks). The
 * scheduler remembers, per organization that has work waiting, when its earliest item falls due
 * on its own clock (looked up by index when its work is settled or scheduled), and one time for
 * everyone's work taken at face value (exact for organizations on the shared time); the timer is
 * armed for the earliest of these, and when it fires it settles only what they say is due. A
 * request whose organization has nothing due by them asks SQLite nothing (settleIfDue).
 */
export interface DueWorkScheduler {
  /**
   * Settles due work now, then re-arms the timer: the organization's alone (on its clock), or,
   * without one, everyone's (each organization ahead of the shared clock on its own).
   */
  settleDue(organizationId?: string): void;
  /**
   * settleDue(organizationId) when the organization may have work due (its remembered due time
   * or everyone's has come), else nothing: what every API request calls.
   */
  settleIfDue(organizationId: string): void;
  /** Re-arms the timer; call after scheduling new work (for the organization, when given). */
  wake(organizationId?: string): void;
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
  /**
   * Per organization with work waiting: when its earliest item falls due, in ms on its own clock
   * (so a lead that changes, a clock advance of that organization, leaves it true).
   */
  const dueByOrganization = new Map<string, number>();
  /** When everyone's earliest item falls due at face value (late for an organization ahead). */
  let everyonesDueMs: number | null = null;

  function settleKind(kind: DueWork, nowIso: string, organizationId?: string): void {
    try {
      kind.settleDue(nowIso, organizationId);
    } catch (error) {
      // The failing item's transaction rolled back, so it is still due; other kinds still run.
      lastSettleFailed = true;
      console.error(`[sandbox] settling due ${kind.name} failed`, error);
    }
  }

  const earliest = (times: (string | null)[], leadMs: number): number | null =>
    times.reduce<number | null>((soonest, due) => {
      if (due === null) return soonest;
      const sharedMs = Date.parse(due) - leadMs;
      return soonest === null || sharedMs < soonest ? sharedMs : soonest;
    }, null);

  /** Looks up (by index) when the organization's earliest item falls due, and remembers it. */
  function noteOrganization(organizationId: string): void {
    const due = earliest(
      kinds.map((kind) => kind.nextDueAt(organizationId)),
      0,
    );
    if (due === null) dueByOrganization.delete(organizationId);
    else dueByOrganization.set(organizationId, due);
  }

  function noteEveryone(): void {
    everyonesDueMs = earliest(
      kinds.map((kind) => kind.nextDueAt()),
      0,
    );
  }

  function settleOrganization(organizationId: string): void {
    const nowIso = clocks.now(organizationId).toISOString();
    for (const kind of kinds) settleKind(kind, nowIso, organizationId);
    noteOrganization(organizationId);
  }

  /** Everything due by the shared time (organizations ahead must have been settled first). */
  function settleEveryone(): void {
    const sharedNowIso = clocks.shared.now().toISOString();
    for (const kind of kinds) settleKind(kind, sharedNowIso);
    noteEveryone();
  }

  function settleDue(organizationId?: string): void {
    lastSettleFailed = false;
    if (organizationId !== undefined) {
      settleOrganization(organizationId);
    } else {
      // Organizations ahead of the shared clock first, each on its own clock; then everything due
      // by the shared time (theirs included: none of it is left).
      dueByOrganization.clear();
      for (const ahead of clocks.leads().keys()) settleOrganization(ahead);
      settleEveryone();
    }
    arm();
  }

  /** The timer's pass: settles only the organizations (and everyone's work) remembered as due. */
  function settleRemembered(): void {
    lastSettleFailed = false;
    const nowMs = clocks.shared.now().getTime();
    const due = [...dueByOrganization]
      .filter(([organizationId, dueMs]) => dueMs <= clocks.now(organizationId).getTime())
      .map(([id]) => id);
    for (const organizationId of due) settleOrganization(organizationId);
    // An organization ahead of the shared clock whose work is due at face value is remembered as
    // due earlier still (scheduling its work noted it), so it was settled above, on its own clock.
    if (everyonesDueMs !== null && everyonesDueMs <= nowMs) settleEveryone();
    arm();
  }

  /**
   * What a request of the organization settles: its due work, when it may have any. Nothing
   * else asks SQLite on a request that finds nothing due: the organization's remembered time (on
   * its own clock) has not come, nor everyone's at face value, nor did the last settling fail.
   */
  function settleIfDue(organizationId: string): void {
    const own = dueByOrganization.get(organizationId);
    const mayBeDue =
      lastSettleFailed ||
      (own !== undefined && own <= clocks.now(organizationId).getTime()) ||
      (everyonesDueMs !== null && everyonesDueMs <= clocks.shared.now().getTime());
    if (mayBeDue) settleDue(organizationId);
  }

  function wake(organizationId?: string): void {
    if (organizationId !== undefined) {
      noteOrganization(organizationId);
    } else {
      dueByOrganization.clear();
      for (const ahead of clocks.leads().keys()) noteOrganization(ahead);
      noteEveryone();
    }
    arm();
  }

  function arm(): void {
    if (closed) return;
    if (timer !== null) clearTimeout(timer);
    timer = null;
    let dueMs = everyonesDueMs;
    for (const [organizationId, ownDueMs] of dueByOrganization) {
      const sharedDueMs = ownDueMs - clocks.leadMs(organizationId);
      if (dueMs === null || sharedDueMs < dueMs) dueMs = sharedDueMs;
    }
    if (dueMs === null) return;
    // If the sandbox clock stands still (a manual clock), the timer finds nothing due and re-arms.
    const soonest = lastSettleFailed ? RETRY_AFTER_FAILURE_MS : 1;
    const remaining = Math.min(MAX_TIMER_MS, Math.max(soonest, dueMs - clocks.shared.now().getTime()));
    timer = setTimeout(() => {
      timer = null;
      settleRemembered();
    }, remaining);
    timer.unref();
  }

  return {
    settleDue,
    settleIfDue,
    wake,
    close() {
      closed = true;
      if (timer !== null) clearTimeout(timer);
      timer = null;
    },
  };
}
