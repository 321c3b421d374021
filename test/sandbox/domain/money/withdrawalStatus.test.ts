import { describe, expect, test } from "vitest";
import { isFinished, statusFromLegs } from "../../../../sandbox/domain/money/withdrawalStatus.ts";

describe("statusFromLegs", () => {
  test("is completed when every leg paid or was skipped", () => {
    expect(statusFromLegs(["completed", "skipped"])).toBe("completed");
    expect(statusFromLegs(["completed"])).toBe("completed");
  });

  test("is partially_completed while some legs paid and others still run", () => {
    expect(statusFromLegs(["completed", "processing"])).toBe("partially_completed");
  });

  test("is processing while no leg has paid", () => {
    expect(statusFromLegs(["processing", "processing"])).toBe("processing");
    expect(statusFromLegs(["skipped", "processing"])).toBe("processing");
  });
});

describe("isFinished", () => {
  test("only completed and failed withdrawals stop moving", () => {
    expect(
      ["pending_approval", "processing", "partially_completed", "completed", "failed"].filter(isFinished),
    ).toEqual(["completed", "failed"]);
  });
});
