import { describe, expect, test } from "vitest";
import { createManualClock, createOrganizationClocks } from "../../../sandbox/clock.ts";
import { createDueWorkScheduler, type DueWork } from "../../../sandbox/domain/dueWorkScheduler.ts";

/** A kind of due work over a list of due times; records when each item settled. */
function work(name: string, dueTimes: string[], log: string[]): DueWork {
  const waiting = [...dueTimes].sort();
  return {
    name,
    nextDueAt: () => waiting[0] ?? null,
    settleDue(nowIso) {
      while (waiting[0] !== undefined && waiting[0] <= nowIso) log.push(`${name}@${waiting.shift()}`);
    },
  };
}

/** Due work of several organizations, each item due on its organization's clock; asked per organization. */
function organizationsWork(
  items: { organizationId: string; dueAt: string }[],
  log: string[],
  asked: (string | undefined)[] = [],
): DueWork {
  const waiting = [...items].sort((a, b) => (a.dueAt < b.dueAt ? -1 : 1));
  const of = (organizationId?: string) =>
    waiting.filter((item) => organizationId === undefined || item.organizationId === organizationId);
  return {
    name: "organizations' work",
    nextDueAt: (organizationId) => {
      asked.push(organizationId);
      return of(organizationId)[0]?.dueAt ?? null;
    },
    settleDue(nowIso, organizationId) {
      asked.push(organizationId);
      for (const item of of(organizationId).filter((i) => i.dueAt <= nowIso)) {
        waiting.splice(waiting.indexOf(item), 1);
        log.push(`${item.organizationId}@${item.dueAt}`);
      }
    },
  };
}

describe("dueWorkScheduler", () => {
  test("an organization whose clock runs ahead has its own work settled on its clock, and only its", () => {
    const shared = createManualClock(new Date("2026-01-01T00:00:00.000Z"));
    const clocks = createOrganizationClocks(shared);
    const log: string[] = [];
    const scheduler = createDueWorkScheduler(clocks, [
      organizationsWork(
        [
          { organizationId: "a", dueAt: "2026-01-31T00:00:00.000Z" },
          { organizationId: "b", dueAt: "2026-01-31T00:00:00.000Z" },
          { organizationId: "b", dueAt: "2026-01-01T00:00:01.000Z" },
        ],
        log,
      ),
    ]);
    clocks.advance("a", 30 * 24 * 3600 * 1000);
    scheduler.settleDue();
    expect(log).toEqual(["a@2026-01-31T00:00:00.000Z"]);
    shared.advance(1000);
    scheduler.settleDue();
    scheduler.close();
    expect(log).toEqual(["a@2026-01-31T00:00:00.000Z", "b@2026-01-01T00:00:01.000Z"]);
    expect(clocks.now("a").toISOString()).toBe("2026-01-31T00:00:01.000Z");
    expect(clocks.now("b").toISOString()).toBe("2026-01-01T00:00:01.000Z");
  });

  test("an organization's request settles its work alone, asking of nobody else's; the timer settles the others'", async () => {
    const startedAt = Date.now();
    const moving = {
      ...createManualClock(new Date("2026-01-01T00:00:00.000Z")),
      now: () => new Date(Date.parse("2026-01-01T00:00:00.000Z") + Date.now() - startedAt),
    };
    const clocks = createOrganizationClocks(
      moving,
      new Map(Array.from({ length: 50 }, (_, index) => [`ahead${index}`, 60_000] as const)),
    );
    const log: string[] = [];
    const asked: (string | undefined)[] = [];
    const scheduler = createDueWorkScheduler(clocks, [
      organizationsWork(
        [
          { organizationId: "a", dueAt: "2026-01-01T00:00:00.000Z" },
          { organizationId: "b", dueAt: "2026-01-01T00:00:00.040Z" },
        ],
        log,
        asked,
      ),
    ]);
    scheduler.wake("b");
    asked.length = 0;
    scheduler.settleDue("a");
    // One organization's request: its own work, looked up for it alone (not for the 50 ahead).
    expect(log).toEqual(["a@2026-01-01T00:00:00.000Z"]);
    expect(asked.every((id) => id === "a")).toBe(true);
    for (let i = 0; i < 200 && log.length < 2; i++) await new Promise((resolve) => setTimeout(resolve, 10));
    scheduler.close();
    expect(log).toEqual(["a@2026-01-01T00:00:00.000Z", "b@2026-01-01T00:00:00.040Z"]);
  });

  test("its timer is armed for the work of an organization ahead at that organization's time", async () => {
    const log: string[] = [];
    const startedAt = Date.now();
    const base = createManualClock(new Date("2026-01-01T00:00:00.000Z"));
    const moving = {
      ...base,
      now: () => new Date(Date.parse("2026-01-01T00:00:00.000Z") + Date.now() - startedAt),
    };
    const clocks = createOrganizationClocks(moving, new Map([["a", 3_600_000]]));
    // Due in an hour of the shared clock, which is 30 ms from now on a's clock.
    const scheduler = createDueWorkScheduler(clocks, [
      organizationsWork([{ organizationId: "a", dueAt: "2026-01-01T01:00:00.030Z" }], log),
    ]);
    scheduler.wake();
    for (let i = 0; i < 200 && log.length === 0; i++) await new Promise((resolve) => setTimeout(resolve, 10));
    scheduler.close();
    expect(log).toEqual(["a@2026-01-01T01:00:00.030Z"]);
  });

  test("settles every kind's due items, kinds in order, each in due order, and nothing early", () => {
    const clock = createManualClock(new Date("2026-01-01T00:00:00.000Z"));
    const log: string[] = [];
    const scheduler = createDueWorkScheduler(createOrganizationClocks(clock), [
      work("updates", ["2026-01-01T00:00:02.000Z", "2026-01-01T00:00:01.000Z"], log),
      work("money", ["2026-01-01T00:00:01.500Z", "2026-01-01T00:00:09.000Z"], log),
    ]);
    scheduler.settleDue();
    expect(log).toEqual([]);
    clock.advance(2000);
    scheduler.settleDue();
    scheduler.close();
    expect(log).toEqual([
      "updates@2026-01-01T00:00:01.000Z",
      "updates@2026-01-01T00:00:02.000Z",
      "money@2026-01-01T00:00:01.500Z",
    ]);
  });

  test("its one timer settles work with nobody calling, on a clock that moves", async () => {
    const log: string[] = [];
    const clock = createManualClock(new Date("2026-01-01T00:00:00.000Z"));
    // A wall-like clock: real time passes for the scheduler's timer.
    const startedAt = Date.now();
    const moving = {
      ...clock,
      now: () => new Date(Date.parse("2026-01-01T00:00:00.000Z") + Date.now() - startedAt),
    };
    const scheduler = createDueWorkScheduler(createOrganizationClocks(moving), [
      work("money", ["2026-01-01T00:00:00.030Z"], log),
    ]);
    scheduler.wake();
    for (let i = 0; i < 200 && log.length === 0; i++) await new Promise((resolve) => setTimeout(resolve, 10));
    scheduler.close();
    expect(log).toEqual(["money@2026-01-01T00:00:00.030Z"]);
  });

  test("a kind that fails does not stop the others", () => {
    const clock = createManualClock(new Date("2026-01-01T00:00:00.000Z"));
    const log: string[] = [];
    const failing: DueWork = {
      name: "broken",
      nextDueAt: () => "2026-01-01T00:00:00.000Z",
      settleDue() {
        throw new Error("boom");
      },
    };
    const errors: unknown[] = [];
    const original = console.error;
    console.error = (...args: unknown[]) => errors.push(args);
    try {
      const scheduler = createDueWorkScheduler(createOrganizationClocks(clock), [
        failing,
        work("money", ["2026-01-01T00:00:00.000Z"], log),
      ]);
      scheduler.settleDue();
      scheduler.close();
    } finally {
      console.error = original;
    }
    expect(log).toEqual(["money@2026-01-01T00:00:00.000Z"]);
    expect(errors).toHaveLength(1);
  });
});

describe("dueWorkScheduler.settleIfDue (what each API request calls)", () => {
  test("asks nothing while the organization's next item is not due on its clock, and settles it once it is, after its own clock moved too", () => {
    const shared = createManualClock(new Date("2026-01-01T00:00:00.000Z"));
    const clocks = createOrganizationClocks(shared);
    const log: string[] = [];
    const asked: (string | undefined)[] = [];
    const scheduler = createDueWorkScheduler(clocks, [
      organizationsWork([{ organizationId: "a", dueAt: "2026-01-02T00:00:00.000Z" }], log, asked),
    ]);
    scheduler.settleDue();
    scheduler.wake("a");
    asked.length = 0;
    scheduler.settleIfDue("a");
    scheduler.settleIfDue("b");
    expect(asked).toEqual([]);
    // The organization's own clock moves a day ahead (as a test or the admin API moves it), the
    // shared clock does not: its item is due on its clock, and its next request settles it.
    clocks.advance("a", 24 * 3600 * 1000);
    scheduler.settleIfDue("b");
    expect(log).toEqual([]);
    scheduler.settleIfDue("a");
    expect(log).toEqual(["a@2026-01-02T00:00:00.000Z"]);
    scheduler.close();
  });

  test("settles when everyone's earliest item has come at face value, whoever it belongs to", () => {
    const shared = createManualClock(new Date("2026-01-01T00:00:00.000Z"));
    const clocks = createOrganizationClocks(shared);
    const log: string[] = [];
    // Work found at startup (a restart, a restore): known only as everyone's earliest time.
    const scheduler = createDueWorkScheduler(clocks, [
      organizationsWork([{ organizationId: "a", dueAt: "2026-01-01T00:00:01.000Z" }], log),
    ]);
    scheduler.settleDue();
    scheduler.settleIfDue("a");
    expect(log).toEqual([]);
    shared.advance(1000);
    scheduler.settleIfDue("a");
    expect(log).toEqual(["a@2026-01-01T00:00:01.000Z"]);
    scheduler.close();
  });
});
