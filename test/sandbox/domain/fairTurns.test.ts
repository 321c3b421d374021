import { setImmediate as nextCheckPhase } from "node:timers/promises";
import { describe, expect, test } from "vitest";
import { createFairTurns, type Entry, type FairTurnsLimits } from "../../../sandbox/domain/fairTurns.ts";

/**
 * The organizations' turns at the sandbox's one thread (sandbox/domain/fairTurns.ts), on a clock
 * the test moves: how long a turn's I/O took decides whether it was busy, and nothing here
 * depends on how fast the machine is.
 */

/** Two a turn each however few want it (a share of 4 between two is 2): the smallest numbers that show it. */
const LIMITS: FairTurnsLimits = { perTurn: 2, perBusyTurn: 4, maxWaiting: 4, busyTurnMs: 10 };

function turnsOnTestClock(limits = LIMITS) {
  let nowMs = 0;
  const turns = createFairTurns(limits, () => nowMs);
  /** Requests, in the order they started. */
  const started: string[] = [];
  /** Sends a request: it started (null), waits for its turn ("waiting"), or was refused. */
  const send = (
    organizationId: string,
    name: string,
  ): null | "waiting" | Exclude<Entry, null | Promise<void>> => {
    const entry = turns.enter(organizationId);
    if (entry === null) started.push(name);
    else if (entry instanceof Promise) {
      void entry.then(() => started.push(name));
      return "waiting";
    }
    return entry;
  };
  return {
    turns,
    started,
    send,
    /** The turn's I/O takes `ms`. */
    spend: (ms: number) => (nowMs += ms),
    /** Lets the loop reach the check phase, where the waiting requests' turns are decided, and run what started. */
    endTurn: () => nextCheckPhase(),
  };
}

describe("the organizations' turns", () => {
  test("in a busy turn an organization starts two requests and the rest wait, in order, two a turn; the others start at once", async () => {
    const { send, started, spend, endTurn, turns } = turnsOnTestClock();
    for (const n of [1, 2, 3, 4, 5]) send("loud", `loud ${n}`);
    send("quiet", "quiet 1");
    expect(started).toEqual(["loud 1", "loud 2", "quiet 1"]);
    expect(turns.waiting()).toBe(3);
    spend(25);
    await endTurn();
    expect(started).toEqual(["loud 1", "loud 2", "quiet 1", "loud 3", "loud 4"]);
    // The next turn: loud's new request waits behind its older one; quiet's starts at once.
    send("loud", "loud 6");
    send("quiet", "quiet 2");
    expect(started.slice(5)).toEqual(["quiet 2"]);
    spend(25);
    await endTurn();
    expect(started.slice(6)).toEqual(["loud 5", "loud 6"]);
    expect(turns.waiting()).toBe(0);
  });

  test("a busy turn's starts are shared between those that want it: with fewer organizations, each starts more", async () => {
    const { send, started, spend, endTurn } = turnsOnTestClock({
      ...LIMITS,
      perBusyTurn: 12,
      maxWaiting: 100,
    });
    for (const n of [1, 2, 3, 4, 5, 6, 7, 8, 9, 10]) send("loud", `loud ${n}`);
    send("quiet", "quiet 1");
    spend(25);
    await endTurn();
    // A share of 12 between two: loud starts 6 more from its queue (2 had started at once).
    expect(started.filter((name) => name.startsWith("loud"))).toHaveLength(8);
    spend(25);
    await endTurn();
    expect(started.filter((name) => name.startsWith("loud"))).toHaveLength(10);
  });

  test("an organization alone is not held back by a slow turn: nobody else waits for it", async () => {
    const { send, started, spend, endTurn, turns } = turnsOnTestClock();
    for (const n of [1, 2, 3, 4, 5]) send("alone", `alone ${n}`);
    expect(started).toHaveLength(2);
    spend(500);
    await endTurn();
    expect(started).toHaveLength(5);
    expect(turns.waiting()).toBe(0);
  });

  test("in a quiet turn everything waiting starts in the same turn, whoever else sent", async () => {
    const { send, started, spend, endTurn, turns } = turnsOnTestClock();
    for (const n of [1, 2, 3, 4, 5]) send("alone", `alone ${n}`);
    send("other", "other 1");
    expect(started).toHaveLength(3);
    spend(3);
    await endTurn();
    expect(started).toEqual(["alone 1", "alone 2", "other 1", "alone 3", "alone 4", "alone 5"]);
    expect(turns.waiting()).toBe(0);
  });

  test("an organization with maxWaiting requests waiting is refused, saying how many wait; another organization is not", async () => {
    const { send, started, spend, endTurn } = turnsOnTestClock();
    for (const n of [1, 2, 3, 4, 5, 6]) {
      expect([null, "waiting"]).toContain(send("loud", `loud ${n}`));
    }
    expect(send("loud", "loud 7")).toEqual({ refused: { waiting: 4 } });
    expect(send("quiet", "quiet 1")).toBeNull();
    spend(25);
    await endTurn();
    // A request refused never starts; the ones that waited do, two a turn.
    expect(started).toEqual(["loud 1", "loud 2", "quiet 1", "loud 3", "loud 4"]);
    spend(25);
    await endTurn();
    expect(started.slice(5)).toEqual(["loud 5", "loud 6"]);
  });

  test("requests that started from the queue count towards the next turn's two", async () => {
    const { send, started, spend, endTurn } = turnsOnTestClock();
    for (const n of [1, 2, 3, 4]) send("loud", `loud ${n}`);
    spend(25);
    await endTurn();
    expect(started).toHaveLength(4);
    // Its queue is empty, but it started two in the check phase: a third this turn waits.
    send("loud", "loud 5");
    expect(started).toHaveLength(4);
    spend(25);
    await endTurn();
    expect(started.at(-1)).toBe("loud 5");
  });
});
