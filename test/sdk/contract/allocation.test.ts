import { describe, expect, test } from "vitest";
import { weightOf, weightsByKeyOf } from "../../../sdk/nodejs/contract/allocation.ts";

describe("an allocation's map", () => {
  test("a later duplicate key wins, as the positions are listed", () => {
    expect(
      weightsByKeyOf([
        { positionKey: "tbills", targetWeightBps: 4000 },
        { positionKey: "tbills", targetWeightBps: 6000 },
      ]),
    ).toEqual({ tbills: 6000 });
  });

  test("a key the map lacks weighs 0, even one named as every object's member", () => {
    const weights = weightsByKeyOf([{ positionKey: "tbills", targetWeightBps: 10000 }]);
    expect(weightOf(weights, "tbills")).toBe(10000);
    expect(weightOf(weights, "syrupUsdc")).toBe(0);
    // A service that adds a yield source keyed `constructor` must not read Object's constructor.
    expect(weightOf(weights, "constructor")).toBe(0);
    expect(weightOf(weights, "toString")).toBe(0);
    expect(
      weightOf(weightsByKeyOf([{ positionKey: "constructor", targetWeightBps: 2500 }]), "constructor"),
    ).toBe(2500);
  });
});
