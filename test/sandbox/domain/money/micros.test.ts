import fc from "fast-check";
import { describe, expect, test } from "vitest";
import { mulDivFloor, splitByWeights, sumMicros } from "../../../../sandbox/domain/money/micros.ts";

describe("splitByWeights", () => {
  test("splits exactly, by largest remainder, ties to the earlier weight", () => {
    expect(splitByWeights(100n, [1, 1, 1])).toEqual([34n, 33n, 33n]);
    expect(splitByWeights(1_000_000n, [6000, 4000])).toEqual([600_000n, 400_000n]);
    expect(splitByWeights(5n, [0, 0])).toEqual([0n, 0n]);
    expect(splitByWeights(5n, [-3, 1])).toEqual([0n, 5n]);
  });

  test("parts sum to the total and none is a micro or more away from its exact share", () => {
    fc.assert(
      fc.property(
        fc.bigInt({ min: 0n, max: 10n ** 24n }),
        fc.array(fc.integer({ min: 0, max: 10_000 }), { minLength: 1, maxLength: 8 }),
        (total, weights) => {
          const parts = splitByWeights(total, weights);
          const weightSum = BigInt(weights.reduce((a, b) => a + b, 0));
          if (weightSum === 0n) return parts.every((p) => p === 0n);
          return (
            sumMicros(parts) === total &&
            parts.every((part, i) => {
              const exactTimesSum = total * BigInt(weights[i] ?? 0);
              return (
                part * weightSum >= exactTimesSum - weightSum && part * weightSum <= exactTimesSum + weightSum
              );
            })
          );
        },
      ),
    );
  });
});

describe("mulDivFloor", () => {
  test("rounds down exactly, far beyond 2^53", () => {
    expect(mulDivFloor(10n ** 18n, 3n, 7n)).toBe(428_571_428_571_428_571n);
    expect(mulDivFloor(5n, 5n, 0n)).toBe(0n);
  });
});
