// Tests of sdk/nodejs/contract/duration.ts, kept with the sandbox's tests (quotes, liquidity views and
// payout routing all use it).
import fc from "fast-check";
import { describe, expect, test } from "vitest";
import { z } from "zod";
import {
  DURATION_JSON_PATTERN,
  DurationSchema,
  compareLiquidity,
  durationInWords,
  durationLength,
  isInstantlyWithdrawable,
  isWithdrawableWithin,
  liquidityDelayMs,
  parseIsoDurationMs,
  readIsoDuration,
  shareWithdrawableWithin,
} from "../../../sdk/nodejs/contract/index.ts";

const HOUR = 3_600_000;
const DAY = 24 * HOUR;

const MINUTE = 60_000;
const YEAR = 365 * DAY;

describe("readIsoDuration: what it accepts", () => {
  test.each([
    ["PT0H", 0],
    ["PT24H", DAY],
    ["P1D", DAY],
    ["P0D", 0],
    ["P2W", 14 * DAY],
    ["P3DT12H", 3 * DAY + 12 * HOUR],
    ["PT1H30M", HOUR + 30 * MINUTE],
    ["P1Y2M", YEAR + 60 * DAY],
    ["P1DT2M", DAY + 2 * MINUTE], // M after T is minutes
    // ISO 8601 lets a unit whose number is zero be left out (RFC 3339's grammar does not).
    ["P1Y2D", YEAR + 2 * DAY],
    ["PT1H5S", HOUR + 5000],
    // Found by a property-based tester driven by the service interface: hours past a day, seconds
    // past a minute, a leading zero, no minutes between them. An ISO 8601 duration, 4.25 years.
    ["PT37249H065S", 37_249 * HOUR + 65_000],
    ["PT36H", 36 * HOUR],
    ["P9999Y", 9999 * YEAR],
    ["PT87591240H", 9999 * YEAR],
  ])("%s is %d ms", (text, ms) => {
    expect(readIsoDuration(text)).toEqual({ ms });
    expect(parseIsoDurationMs(text)).toBe(ms);
    expect(DurationSchema.safeParse(text).success).toBe(true);
  });

  test("reads components back, whatever their combination", () => {
    const component = fc.option(fc.integer({ min: 0, max: 5_000 }), { nil: undefined });
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
          (years ?? 0) * YEAR +
          (days ?? 0) * DAY +
          (hours ?? 0) * HOUR +
          (minutes ?? 0) * MINUTE +
          (seconds ?? 0) * 1000;
        return parseIsoDurationMs(text) === expected;
      }),
    );
  });
});

describe("readIsoDuration: what it refuses, saying what is wrong and what to write", () => {
  test.each([
    ["", "is empty: give one, such as PT0H (at once) or PT24H (within a day)"],
    ["P", "gives no number and unit: give at least one, such as PT0H"],
    ["PT", "ends with T: give hours, minutes or seconds after it (P1DT12H), or leave the T out"],
    ["P1DT", "ends with T: give hours, minutes or seconds after it (P1DT12H), or leave the T out"],
    ["P1DTT1H", "has T twice: one T comes between the date units and the time units (P1DT12H)"],
    ["PT1.5H", "has a fraction (1.5H): give whole numbers, in a smaller unit if need be (PT90M, not PT1.5H)"],
    ["PT0,5S", "has a fraction (0,5S): give whole numbers, in a smaller unit if need be (PT90M, not PT1.5H)"],
    ["PT1X", 'has an unknown unit "X": the units are Y, M, W and D, then after T: H, M and S'],
    ["P1H", "gives hours (1H) before T: time units come after it, as in PT1H"],
    ["PT1D", "gives days (1D) after T: date units come before it, as in P1D"],
    ["PT5S3H", "gives hours after seconds: write units largest first, such as P1DT2H or PT1H30M"],
    ["P1M2Y", "gives years after months: write units largest first, such as P1DT2H or PT1H30M"],
    ["PT1H2H", "gives hours twice: give each unit once"],
    ["P1W2D", "combines weeks with other units: give weeks alone (P2W) or count in days (P9D, not P1W2D)"],
    ["PT24", "ends with a number (24) and no unit: add one, such as PT24H"],
    ["PTH", "has H with no number before it: give one, such as PT1H"],
    ["P?", 'has "?" where a number is expected'],
    ["pt24h", "is in lower case: write P, T and the units in capitals (PT24H)"],
    ["P1dT2h", "is in lower case: write P, T and the units in capitals (P1DT2H)"],
    ["p1x", "does not start with P: write it as PT24H or P3D, not 24H or 3D"],
    ["1H", "does not start with P: write it as PT24H or P3D, not 24H or 3D"],
    ["24 hours", "does not start with P: write it as PT24H or P3D, not 24H or 3D"],
    ["-PT1H", "has a sign (-): a duration is never negative; write it without one"],
    ["+PT1H", "has a sign (+): a duration is never negative; write it without one"],
    ["PT1H ", "has spaces around it: remove them"],
    ["P10000Y", "is longer than the longest accepted, P9999Y (9999 years of 365 days)"],
    ["PT87591240H1S", "is longer than the longest accepted, P9999Y (9999 years of 365 days)"],
    [`P${"1".repeat(120)}D`, "is 122 characters long: a duration has at most 100"],
  ])("%j: %s", (text, problem) => {
    expect(readIsoDuration(text)).toEqual({ problem });
    expect(parseIsoDurationMs(text)).toBeNull();
    // The contract's schema gives the same reason, after what a duration is.
    const parsed = DurationSchema.safeParse(text);
    expect(parsed.error?.issues.map((issue) => issue.message)).toEqual([
      `must be an ISO 8601 duration such as PT0H, PT24H or P3DT12H; this one ${problem}`,
    ]);
  });

  test("a value that is not a string is refused saying what a duration is", () => {
    expect(DurationSchema.safeParse(24).error?.issues.map((issue) => issue.message)).toEqual([
      "must be an ISO 8601 duration such as PT0H, PT24H or P3DT12H",
    ]);
  });

  test("every text is either read or refused with a reason, never both, never neither", () => {
    fc.assert(
      fc.property(
        fc.string({ unit: fc.constantFrom("P", "T", "1", "0", "5", "Y", "M", "W", "D", "H", "S", ".", "x") }),
        (text) => {
          const reading = readIsoDuration(text);
          return (reading.ms === undefined) !== (reading.problem === undefined);
        },
      ),
      { numRuns: 5_000 },
    );
  });
});

describe("DURATION_JSON_PATTERN (the OpenAPI document's pattern for a duration)", () => {
  const pattern = new RegExp(DURATION_JSON_PATTERN);

  test("is what DurationSchema's JSON Schema carries, with no format (JSON Schema's duration is RFC 3339's)", () => {
    expect(z.toJSONSchema(DurationSchema)).toEqual({
      $schema: "https://json-schema.org/draft/2020-12/schema",
      type: "string",
      pattern: DURATION_JSON_PATTERN,
    });
  });

  test("accepts what the reader accepts and refuses what it refuses, but for the maximum it cannot state", () => {
    fc.assert(
      fc.property(
        fc.string({
          unit: fc.constantFrom("P", "T", "1", "0", "5", "Y", "M", "W", "D", "H", "S", ".", "x"),
          maxLength: 24,
        }),
        (text) => {
          const reading = readIsoDuration(text);
          const readable =
            reading.ms !== undefined || reading.problem.startsWith("is longer than the longest");
          return pattern.test(text) === readable;
        },
      ),
      { numRuns: 20_000 },
    );
    expect(pattern.test("PT37249H065S")).toBe(true);
    expect(pattern.test("PT5S3H")).toBe(false);
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

describe("durationInWords", () => {
  test("says the catalog's processing times as a reviewer reads them", () => {
    expect(durationInWords("PT0H")).toBe("at once");
    expect(durationInWords("P0D", "up to")).toBe("at once");
    expect(durationInWords("PT24H")).toBe("within 24 hours");
    expect(durationInWords("PT168H", "up to")).toBe("up to 7 days");
    expect(durationInWords("P1W")).toBe("within 7 days");
    expect(durationInWords("PT1H")).toBe("within 1 hour");
    expect(durationInWords("PT90M")).toBe("within 1 hour and 30 minutes");
    expect(durationInWords("PT36H")).toBe("within 36 hours");
    expect(durationInWords("P3DT12H")).toBe("within 3 days and 12 hours");
    expect(durationInWords("P1DT24H1M5S")).toBe("within 2 days, 1 minute and 5 seconds");
    expect(durationInWords("P1Y")).toBe("within 365 days");
  });

  test("the length alone, for a column: the same words without the phrase", () => {
    expect(durationLength("PT168H")).toBe("7 days");
    expect(durationLength("PT90M")).toBe("1 hour and 30 minutes");
    expect(durationLength("PT0H")).toBe("");
    expect(durationLength("24H")).toBeNull();
  });

  test("a duration that does not parse, or the impact's unknown, takes an unknown time", () => {
    expect(durationInWords("unknown", "up to")).toBe("an unknown time");
    expect(durationInWords("24H")).toBe("within an unknown time");
  });

  test("never leaves an ISO code in the words, for any duration that parses", () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 10_000 }), fc.integer({ min: 0, max: 500 }), (days, hours) => {
        const words = durationInWords(`P${days}DT${hours}H`);
        return (
          !/\bP(T?\d)/.test(words) && (days + hours === 0 ? words === "at once" : words.startsWith("within "))
        );
      }),
    );
  });
});
