import { describe, expect, test } from "vitest";
import {
  plannedLegs,
  startedLegs,
  withdrawalYieldShare,
} from "../../../../sandbox/domain/money/withdrawalLegs.ts";
import type { LegPlan } from "../../../../sandbox/domain/money/payoutRouting.ts";

const AT = "2026-03-01T00:00:00.000Z";
const PLANS: LegPlan[] = [
  {
    legKey: "instant",
    maxProcessingTime: "PT0H",
    delayMs: 0,
    amountMicros: 300n,
    sources: [{ positionKey: "s", micros: 300n }],
  },
  {
    legKey: "redeem",
    maxProcessingTime: "PT24H",
    delayMs: 86_400_000,
    amountMicros: 700n,
    sources: [{ positionKey: "t", micros: 700n }],
  },
];

describe("withdrawal legs", () => {
  test("planned legs wait, pending, with no due time or yield", () => {
    expect(
      plannedLegs("w", PLANS, AT).map((l) => [l.legKey, l.status, l.dueAt, l.yieldMicros, l.sortOrder]),
    ).toEqual([
      ["instant", "pending", null, 0n, 0],
      ["redeem", "pending", null, 0n, 1],
    ]);
  });

  test("started legs fall due after their limit, share the yield by amount and carry the planned failure", () => {
    const legs = startedLegs("w", PLANS, AT, {
      yieldShareMicros: 11n,
      failure: { legKey: "redeem", reason: "bridge halted" },
    });
    expect(legs.map((l) => [l.legKey, l.dueAt, l.yieldMicros, l.plannedFailureReason])).toEqual([
      ["instant", AT, 3n, null],
      ["redeem", "2026-03-02T00:00:00.000Z", 8n, "bridge halted"],
    ]);
  });

  test("the yield share is pro rata, rounded down, and never more than the wallet holds", () => {
    expect(withdrawalYieldShare(500n, 30n, 1000n)).toBe(15n);
    expect(withdrawalYieldShare(1n, 2n, 3n)).toBe(0n);
    expect(withdrawalYieldShare(500n, 5000n, 1000n)).toBe(500n);
    expect(withdrawalYieldShare(500n, -7n, 1000n)).toBe(0n);
    expect(withdrawalYieldShare(500n, 30n, 0n)).toBe(0n);
  });
});
