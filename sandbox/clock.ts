/**
 * The sandbox's notion of "now". Every timestamp the sandbox writes comes from here, so tests
 * (and the admin API) can move time forward without waiting: rate changes, rebalances and yield
 * accrual all read the same clock.
 *
 * Bounds: sandbox time never passes the end of year 9999 (`LATEST_TIMESTAMP_MS`), so every
 * timestamp is a fixed-width ISO 8601 string (`YYYY-MM-DDTHH:mm:ss.sssZ`) and string order is
 * time order, which cursors and due-work queries rely on. One advance moves at most
 * `MAX_CLOCK_ADVANCE_MS` (100 years of 365 days).
 */
export interface SandboxClock {
  /** The current sandbox time. */
  now(): Date;
  /**
   * Moves sandbox time forward by `ms` milliseconds (never backwards: timestamps must stay
   * ordered). Throws a RangeError for a negative or non-finite amount, more than
   * MAX_CLOCK_ADVANCE_MS, or a move past LATEST_TIMESTAMP_MS; nothing moves then.
   */
  advance(ms: number): void;
  /** How far sandbox time is ahead of the wall clock (a manual clock: of its start), in milliseconds. */
  offsetMs(): number;
}

/** 9999-12-31T23:59:59.999Z: the last instant a fixed-width ISO 8601 timestamp can show. */
export const LATEST_TIMESTAMP_MS = Date.UTC(9999, 11, 31, 23, 59, 59, 999);

/** The most one clock advance may move: 100 years of 365 days. */
export const MAX_CLOCK_ADVANCE_MS = 100 * 365 * 24 * 60 * 60 * 1000;

/**
 * Why moving a clock that reads `nowMs` forward by `ms` is refused, or null when it may move. The
 * admin API answers the reason as a 400 before touching the clock.
 */
export function clockAdvanceProblem(nowMs: number, ms: number): string | null {
  if (!Number.isFinite(ms) || ms < 0) return "must be a finite number of milliseconds, 0 or more";
  if (ms > MAX_CLOCK_ADVANCE_MS)
    return `must move the clock at most ${MAX_CLOCK_ADVANCE_MS} ms (100 years) at once`;
  if (nowMs + ms > LATEST_TIMESTAMP_MS) {
    return `would move the clock past 9999-12-31T23:59:59.999Z, the last time the sandbox can show; at most ${Math.max(0, LATEST_TIMESTAMP_MS - nowMs)} ms remain`;
  }
  return null;
}

function checkedAdvance(nowMs: number, ms: number): void {
  const problem = clockAdvanceProblem(nowMs, ms);
  if (problem !== null) throw new RangeError(`the sandbox clock cannot advance by ${ms} ms: ${problem}`);
}

/** A clock whose offset can be put back to a saved one: the sandbox's own, when a snapshot is restored. */
export interface RestorableClock extends SandboxClock {
  /** Sets the offset to `offsetMs` (which may be less than now: the restored data is of that time). */
  restoreOffsetMs(offsetMs: number): void;
}

/** True for a clock that can take a restored offset (the sandbox's own wall clock). */
export const isRestorableClock = (clock: SandboxClock): clock is RestorableClock =>
  typeof (clock as Partial<RestorableClock>).restoreOffsetMs === "function";

/**
 * Wall-clock time plus an offset that only grows (until a snapshot is restored). `onAdvance` is
 * told the new offset after each advance (startSandbox stores it, so the offset survives a restart).
 */
export function createWallClock(
  initialOffsetMs = 0,
  onAdvance?: (offsetMs: number) => void,
): RestorableClock {
  let offset = Number.isFinite(initialOffsetMs) && initialOffsetMs > 0 ? initialOffsetMs : 0;
  const nowMs = () => Math.min(Date.now() + offset, LATEST_TIMESTAMP_MS);
  return {
    now: () => new Date(nowMs()),
    advance(ms: number) {
      checkedAdvance(nowMs(), ms);
      offset += ms;
      onAdvance?.(offset);
    },
    offsetMs: () => offset,
    restoreOffsetMs(offsetMs) {
      offset = Number.isFinite(offsetMs) && offsetMs > 0 ? offsetMs : 0;
    },
  };
}

/**
 * The sandbox's own clock standing still (`--manual-clock`): it starts where the wall clock with the
 * stored offset stands, and moves only when advanced, so every read of "now" between two advances
 * is the same instant and balances read at different moments agree to the micro. `onAdvance` is
 * told the offset after each advance, which startSandbox stores: a restart, standing or on the
 * wall clock, starts at the wall clock then plus that offset, never before where this one stood.
 */
export function createStandingClock(
  initialOffsetMs = 0,
  onAdvance?: (offsetMs: number) => void,
): RestorableClock {
  let offset = Number.isFinite(initialOffsetMs) && initialOffsetMs > 0 ? initialOffsetMs : 0;
  let standingMs = Math.min(Date.now() + offset, LATEST_TIMESTAMP_MS);
  return {
    now: () => new Date(standingMs),
    advance(ms: number) {
      checkedAdvance(standingMs, ms);
      standingMs += ms;
      offset += ms;
      onAdvance?.(offset);
    },
    offsetMs: () => offset,
    restoreOffsetMs(offsetMs) {
      offset = Number.isFinite(offsetMs) && offsetMs > 0 ? offsetMs : 0;
      standingMs = Math.min(Date.now() + offset, LATEST_TIMESTAMP_MS);
    },
  };
}

/**
 * The ISO timestamp `ms` milliseconds after `iso` (when a step started at `iso` falls due). A
 * time past the end of year 9999 is that end: such a step never falls due before then, and the
 * timestamp keeps its fixed width.
 */
export function isoAfter(iso: string, ms: number): string {
  return new Date(Math.min(Date.parse(iso) + ms, LATEST_TIMESTAMP_MS)).toISOString();
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
      checkedAdvance(startMs + offset, ms);
      offset += ms;
    },
    offsetMs: () => offset,
  };
}

/**
 * The clocks of a sandbox shared by several organizations (docs/sandbox.md "Time"): one shared
 * clock, and per organization a lead over it that only grows. An organization's time is the shared
 * time plus its lead, so moving one organization's clock moves nobody else's, and moving the shared
 * clock moves every organization's at once. Everything an organization's time drives (accrual,
 * rebalance delays, deposit steps, payout legs, approvals, yield metrics' periods, event
 * timestamps) reads `now(organizationId)`.
 */
export interface OrganizationClocks {
  /** The clock every organization's time is counted from (startSandbox's `clock`). */
  readonly shared: SandboxClock;
  /** The organization's current time: the shared time plus its lead, never past LATEST_TIMESTAMP_MS. */
  now(organizationId: string): Date;
  /** How far the organization's clock is ahead of the shared one, in ms (0 until it moved alone). */
  leadMs(organizationId: string): number;
  /**
   * Moves the organization's clock, and only its, forward by `ms`. Throws a RangeError as
   * SandboxClock.advance does (checked against the organization's own time); nothing moves then.
   */
  advance(organizationId: string, ms: number): void;
  /** The organizations whose clock is ahead of the shared one, and by how much (ms). */
  leads(): ReadonlyMap<string, number>;
  /** Replaces every lead by `leads` (a restored snapshot's), without telling `onLead`: they are stored already. */
  restoreLeads(leads: ReadonlyMap<string, number>): void;
}

/**
 * Clocks per organization over `shared`, starting from the leads kept (`initialLeads`);
 * `onLead` is told an organization's new lead after each advance (startSandbox stores it, so
 * leads survive a restart).
 */
export function createOrganizationClocks(
  shared: SandboxClock,
  initialLeads: ReadonlyMap<string, number> = new Map(),
  onLead?: (organizationId: string, leadMs: number) => void,
): OrganizationClocks {
  const positive = (given: ReadonlyMap<string, number>) =>
    [...given].filter(([, lead]) => Number.isFinite(lead) && lead > 0);
  const leads = new Map(positive(initialLeads));
  const leadMs = (organizationId: string) => leads.get(organizationId) ?? 0;
  const nowMs = (organizationId: string) =>
    Math.min(shared.now().getTime() + leadMs(organizationId), LATEST_TIMESTAMP_MS);
  return {
    shared,
    now: (organizationId) => new Date(nowMs(organizationId)),
    leadMs,
    advance(organizationId, ms) {
      checkedAdvance(nowMs(organizationId), ms);
      if (ms === 0) return;
      const lead = leadMs(organizationId) + ms;
      leads.set(organizationId, lead);
      onLead?.(organizationId, lead);
    },
    leads: () => leads,
    restoreLeads(given) {
      leads.clear();
      for (const [organizationId, lead] of positive(given)) leads.set(organizationId, lead);
    },
  };
}
