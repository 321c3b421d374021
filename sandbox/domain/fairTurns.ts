/**
 * Turns between organizations (docs/sandbox.md "One sandbox, many organizations"). One thread
 * serves every organization (node:sqlite is synchronous), and each turn of the event loop serves
 * the requests that arrived during it, in arrival order: an organization with ten requests in
 * flight takes ten times as much of every turn as one with a single request, and every other
 * organization's requests wait that much longer.
 *
 * So in a busy turn each organization starts its share of `perBusyTurn` requests, split between
 * the organizations that sent requests in it (at least `perTurn` each: 2 of 64 at 64
 * organizations, 32 at two); the rest wait in its own queue, in order (its newer requests behind
 * them), and each waiting organization starts its next share in every later turn. A turn is busy when more than one organization sent requests in
 * it and its I/O took `busyTurnMs` or more by the time the loop reaches its check phase; any other
 * turn starts everything waiting there and then, so an organization alone (on however slow a
 * machine) is never held back. An organization with `maxWaiting` requests waiting is
 * refused (429 with Retry-After, by the middleware): a burst is bounded where it is sent, and
 * never grows a queue another organization waits behind.
 */
export interface FairTurnsLimits {
  /** What each organization may start in a busy turn, however many organizations want it. */
  perTurn: number;
  /** What a busy turn starts in all, shared by the organizations that want it (each at least perTurn). */
  perBusyTurn: number;
  maxWaiting: number;
  busyTurnMs: number;
}

export const DEFAULT_FAIR_TURNS: FairTurnsLimits = {
  perTurn: 2,
  perBusyTurn: 64,
  maxWaiting: 100,
  busyTurnMs: 10,
};

/** What `enter` says: start now (null), wait for this promise, or refused with the queue that is full. */
export type Entry = null | Promise<void> | { refused: { waiting: number } };

export interface FairTurns {
  enter(organizationId: string): Entry;
  /** Requests waiting now, all organizations. */
  waiting(): number;
}

export function createFairTurns(
  limits: FairTurnsLimits = DEFAULT_FAIR_TURNS,
  now: () => number = () => performance.now(),
): FairTurns {
  /** When the current turn's first request arrived; null while no turn is open. */
  let turnStartedAt: number | null = null;
  /** Requests each organization started in the current turn. */
  let startedThisTurn = new Map<string, number>();
  /** Each organization's waiting requests, first come first; Map order is the order of the turns. */
  const queues = new Map<string, (() => void)[]>();
  let waitingCount = 0;

  function openTurn(): void {
    if (turnStartedAt !== null) return;
    turnStartedAt = now();
    // Runs after this turn's I/O callbacks (the check phase), when every arrival is known.
    setImmediate(endTurn);
  }

  function start(organizationId: string, queue: (() => void)[], count: number): void {
    const starting = queue.splice(0, count);
    waitingCount -= starting.length;
    if (queue.length === 0) queues.delete(organizationId);
    startedThisTurn.set(organizationId, (startedThisTurn.get(organizationId) ?? 0) + starting.length);
    for (const resume of starting) resume();
  }

  function endTurn(): void {
    // Busy: the turn was long, and more than one organization wanted it. An organization alone
    // on a slow machine has nobody to wait for: its queue starts whole.
    const wanting = new Set([...startedThisTurn.keys(), ...queues.keys()]).size;
    const busy = wanting > 1 && turnStartedAt !== null && now() - turnStartedAt >= limits.busyTurnMs;
    // Each organization's share of a busy turn: the turn's starts split between those that want it.
    const share = Math.max(limits.perTurn, Math.floor(limits.perBusyTurn / Math.max(1, wanting)));
    // What starts here runs in this turn's microtasks, and counts towards the next turn.
    startedThisTurn = new Map();
    for (const [organizationId, queue] of [...queues])
      start(organizationId, queue, busy ? share : queue.length);
    turnStartedAt = null;
    if (queues.size > 0) openTurn();
  }

  return {
    enter(organizationId) {
      openTurn();
      const queue = queues.get(organizationId);
      if (queue === undefined && (startedThisTurn.get(organizationId) ?? 0) < limits.perTurn) {
        startedThisTurn.set(organizationId, (startedThisTurn.get(organizationId) ?? 0) + 1);
        return null;
      }
      if ((queue?.length ?? 0) >= limits.maxWaiting) return { refused: { waiting: queue?.length ?? 0 } };
      return new Promise<void>((resolve) => {
        const own = queue ?? [];
        if (queue === undefined) queues.set(organizationId, own);
        own.push(resolve);
        waitingCount += 1;
      });
    },
    waiting: () => waitingCount,
  };
}
