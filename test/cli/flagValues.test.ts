import { InvalidArgumentError } from "commander";
import { describe, expect, test } from "vitest";
import { liquidityConstraint } from "../../cli/flagValues.ts";

describe("liquidityConstraint (--liquidity <duration=bps>)", () => {
  test("reads a duration the contract accepts, with its weight", () => {
    expect(liquidityConstraint("PT37249H065S=5000")).toEqual([
      { maxProcessingTime: "PT37249H065S", minWeightBps: 5000 },
    ]);
  });

  test("a duration it refuses is named with what is wrong and what to write", () => {
    const refusal = () => liquidityConstraint("PT1.5H=5000");
    expect(refusal).toThrow(InvalidArgumentError);
    expect(refusal).toThrow(
      'must be <ISO 8601 duration>=<bps>, such as PT24H=5000; its duration "PT1.5H" has a fraction (1.5H): give whole numbers, in a smaller unit if need be (PT90M, not PT1.5H).',
    );
  });

  test("a value without = says the form", () => {
    expect(() => liquidityConstraint("PT24H")).toThrow(
      "must be <ISO 8601 duration>=<bps>, such as PT24H=5000.",
    );
  });
});
