// Tests of sdk/nodejs/contract/money.ts, kept with the sandbox's tests (the sandbox is its main user).
import fc from "fast-check";
import { describe, expect, test } from "vitest";
import {
  EXACT_USD_ROUND_TRIP_LIMIT,
  centsByLargestRemainder,
  formatDollars,
  formatExactUsd,
  roundToCent,
  sumMicros,
  microsToDecimalString,
  microsToUsd,
  usdToMicros,
} from "../../../sdk/nodejs/contract/index.ts";

const EXACT_LIMIT_MICROS = BigInt(EXACT_USD_ROUND_TRIP_LIMIT) * 1_000_000n;
/** Amounts from a micro to the exact round-trip limit (about 8.59e9 USD). */
const exactMicros = fc.bigInt({ min: -EXACT_LIMIT_MICROS + 1n, max: EXACT_LIMIT_MICROS - 1n });

describe("usdToMicros and microsToUsd", () => {
  test("round-trip every amount below the exact limit, to the micro", () => {
    fc.assert(
      fc.property(exactMicros, (micros) => usdToMicros(microsToUsd(micros)) === micros),
      { numRuns: 20_000 },
    );
  });

  test("agree with the decimal text of the amount", () => {
    fc.assert(
      fc.property(exactMicros, (micros) => microsToUsd(micros) === Number(microsToDecimalString(micros))),
    );
  });

  test("round to the nearest micro, and refuse what is not an amount", () => {
    expect(usdToMicros(1000.01)).toBe(1_000_010_000n);
    expect(usdToMicros(0.0000004)).toBe(0n);
    expect(usdToMicros(0.0000006)).toBe(1n);
    expect(usdToMicros(-3)).toBe(-3_000_000n);
    expect(usdToMicros(1e22)).toBe(10n ** 28n);
    expect(() => usdToMicros(Number.NaN)).toThrow(RangeError);
    expect(() => usdToMicros(Number.POSITIVE_INFINITY)).toThrow(RangeError);
  });

  test("give the nearest double above 2^53 micros, never throwing", () => {
    const micros = 9_500_000_000_000_001n; // 9.5e9 USD and a micro: beyond what a double tells apart
    expect(microsToUsd(micros)).toBe(9_500_000_000.000001);
    expect(microsToUsd(10n ** 24n)).toBe(1e18);
  });

  test("do not drift over 10,000 operations: the sum of converted amounts is the exact sum", () => {
    fc.assert(
      fc.property(
        fc.array(fc.bigInt({ min: -1_000_000_000_000_000n, max: 1_000_000_000_000_000n }), {
          minLength: 10_000,
          maxLength: 10_000,
        }),
        (amounts) => {
          // What a client sends (USD numbers), converted back and summed in micros...
          let balance = 0n;
          for (const micros of amounts) balance += usdToMicros(microsToUsd(micros));
          // ...is exactly the sum of the amounts, however many operations there were.
          const exact = amounts.reduce((sum, micros) => sum + micros, 0n);
          return balance === exact;
        },
      ),
      { numRuns: 5, endOnFailure: true },
    );
  });
});

describe("microsToDecimalString", () => {
  test("writes the exact amount without trailing zeros", () => {
    expect(microsToDecimalString(1_234_500_000n)).toBe("1234.5");
    expect(microsToDecimalString(1n)).toBe("0.000001");
    expect(microsToDecimalString(-3_000_000n)).toBe("-3");
    expect(microsToDecimalString(0n)).toBe("0");
    expect(microsToDecimalString(10n ** 21n + 7n)).toBe("1000000000000000.000007");
  });
});

describe("formatDollars, roundToCent, centsByLargestRemainder and formatExactUsd", () => {
  test("formatDollars writes dollars and cents for people, the report's way", () => {
    expect(formatDollars(1_234_560_000n)).toBe("$1,234.56");
    expect(formatDollars(1_234_500_000n)).toBe("$1,234.50");
    expect(formatDollars(4_000n)).toBe("$0.00");
    expect(formatDollars(5_000n)).toBe("$0.01");
    expect(formatDollars(-5_000n)).toBe("−$0.01");
    expect(formatDollars(-4_999n)).toBe("$0.00");
    expect(formatDollars(300_028_119_519n)).toBe("$300,028.12");
    expect(formatDollars(1_000_000_000_000n, { signed: true })).toBe("+$1,000,000.00");
    expect(formatDollars(-1_000_000n, { signed: true })).toBe("−$1.00");
    expect(formatDollars(0n, { signed: true })).toBe("$0.00");
    expect(formatDollars(999_999_999_999n, { toTheMicro: true })).toBe("$999,999.999999");
    expect(formatDollars(1_000_000_000_000n, { toTheMicro: true })).toBe("$1,000,000.00");
    expect(formatDollars(1_234_500_000n, { toTheMicro: true })).toBe("$1,234.50");
    expect(formatDollars(-1n, { toTheMicro: true })).toBe("−$0.000001");
  });

  test("roundToCent rounds halves away from zero", () => {
    expect(roundToCent(15_000n)).toBe(20_000n);
    expect(roundToCent(-15_000n)).toBe(-20_000n);
    expect(roundToCent(14_999n)).toBe(10_000n);
  });

  test("a column rounded by largest remainder adds up to its rounded total", () => {
    // The drift report of the issue: $400,000.005 and $600,000.005 of $1,000,000.01.
    const column = [400_000_005_000n, 600_000_005_000n];
    expect(column.map((micros) => formatDollars(micros))).toEqual(["$400,000.01", "$600,000.01"]);
    expect(centsByLargestRemainder(column).map((micros) => formatDollars(micros))).toEqual([
      "$400,000.01",
      "$600,000.00",
    ]);
    expect(centsByLargestRemainder([])).toEqual([]);
    fc.assert(
      fc.property(
        fc.array(fc.bigInt({ min: -(10n ** 15n), max: 10n ** 15n }), { maxLength: 12 }),
        (amounts) => {
          const rounded = centsByLargestRemainder(amounts);
          return (
            sumMicros(rounded) === roundToCent(sumMicros(amounts)) &&
            rounded.every((cents, index) => {
              const off = cents - amounts[index]!;
              return cents % 10_000n === 0n && off > -10_000n && off < 10_000n;
            })
          );
        },
      ),
    );
  });

  test("formatExactUsd keeps every micro, as the sandbox's messages state amounts", () => {
    expect(formatExactUsd(1_000_000_000n)).toBe("1000 USD");
    expect(formatExactUsd(1n)).toBe("0.000001 USD");
    expect(formatExactUsd(700_000_000n)).toBe("700 USD");
  });
});
