// Tests of sdk/contract/duration.ts, kept with the sandbox's tests (quotes, liquidity views and
// payout routing all use it).
import fc from "fast-check";
import { describe, expect, test } from "vitest";
import {
  DurationSchema,
  compareLiquidity,
  isInstantlyWithdrawable,
  isWithdrawableWithin,
  liquidityDelayMs,
  parseIsoDurationMs,
  shareWithdrawableWithin,
} from "../../sdk/contract/index.ts";

const HOUR = 3_600_000;
const DAY = 24 * HOUR;

describe("parseIsoDurationMs", () => {
  test("reads the durations maxProcessingTime uses", () => {
    expect(parseIsoDurationMs("PT0H")).toBe(0);
    expect(parseIsoDurationMs("PT24H")).toBe(DAY);
    expect(parseIsoDurationMs("P1D")).toBe(DAY);
    expect(parseIsoDurationMs("P1W")).toBe(7 * DAY);
    expect(parseIsoDurationMs("P1DT1H30M15.5S")).toBe(DAY + HOUR + 30 * 60_000 + 15_500);
    expect(parseIsoDurationMs("P1Y2M")).toBe(365 * DAY + 60 * DAY);
    expect(parseIsoDurationMs("PT0,5S")).toBe(500);
  });

  test("is null for anything else", () => {
    for (const text of [
      "",
      "24 hours",
      "P",
      "PT",
      "PT-1H",
      "-PT1H",
      "1H",
      "PT1H ",
      "P1H",
      `P${"1".repeat(120)}D`,
    ]) {
      expect(parseIsoDurationMs(text), text).toBeNull();
    }
  });

  test("reads components back, whatever their combination", () => {
    const component = fc.option(fc.integer({ min: 0, max: 10_000 }), { nil: undefined });
    fc.assert(
      fc.property(fc.tuple(component, component, component, component, component, component), (parts) => {
        const [years, days, hours, minutes, seconds, weeks] = parts;
        const date = `${years === undefined ? "" : `${years}Y`}${days === undefined ? "" : `${days}D`}`;
        const time = `${hours === undefined ? "" : `${hours}H`}${minutes === undefined ? "" : `${minutes}M`}${
          seconds === undefined ? "" : `${seconds}S`
        }`;
        if (date === "" && time === "")
          return (
            parseIsoDurationMs(weeks === undefined ? "P" : `P${weeks}W`) ===
            (weeks === undefined ? null : weeks * 7 * DAY)
          );
        const text = `P${date}${time === "" ? "" : `T${time}`}`;
        const expected =
          (years ?? 0) * 365 * DAY +
          (days ?? 0) * DAY +
          (hours ?? 0) * HOUR +
          (minutes ?? 0) * 60_000 +
          (seconds ?? 0) * 1000;
        return parseIsoDurationMs(text) === expected;
      }),
    );
  });

  test("parses everything the contract's DurationSchema accepts", () => {
    fc.assert(
      fc.property(
        fc.string({ unit: fc.constantFrom("P", "T", "1", "0", "5", "Y", "M", "W", "D", "H", "S", ".") }),
        (text) => (DurationSchema.safeParse(text).success ? parseIsoDurationMs(text) !== null : true),
      ),
      { numRuns: 5_000 },
    );
  });
});

describe("the rule for durations that do not parse: never liquid within any bound", () => {
  test("they are not instant and not within any bound, nor is anything within an unknown bound", () => {
    expect(isInstantlyWithdrawable("soon")).toBe(false);
    expect(isWithdrawableWithin("soon", "P9999Y")).toBe(false);
    expect(isWithdrawableWithin("soon", Number.MAX_VALUE)).toBe(false);
    expect(isWithdrawableWithin("PT0H", "whenever")).toBe(false);
    expect(liquidityDelayMs("soon")).toBe(Number.POSITIVE_INFINITY);
  });

  test("they sort after every duration that parses", () => {
    expect(["soon", "PT168H", "PT0H", "P1D"].sort(compareLiquidity)).toEqual([
      "PT0H",
      "P1D",
      "PT168H",
      "soon",
    ]);
  });

  test("withdrawable within compares lengths, whatever the writing", () => {
    expect(isWithdrawableWithin("P1D", "PT24H")).toBe(true);
    expect(isWithdrawableWithin("PT25H", "P1D")).toBe(false);
    expect(isWithdrawableWithin("PT0H", 0)).toBe(true);
    expect(isInstantlyWithdrawable("P0D")).toBe(true);
  });

  test("shareWithdrawableWithin counts only what is known to be within the bound", () => {
    const positions = [
      { maxProcessingTime: "PT0H", weight: 4000 },
      { maxProcessingTime: "PT24H", weight: 3500 },
      { maxProcessingTime: "soon", weight: 2500 },
    ];
    expect(shareWithdrawableWithin(positions, "PT0H")).toBe(4000);
    expect(shareWithdrawableWithin(positions, "P1D")).toBe(7500);
    expect(shareWithdrawableWithin(positions, "P9999Y")).toBe(7500);
  });
});
