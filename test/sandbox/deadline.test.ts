import { afterAll, beforeAll, describe, expect, test } from "vitest";
import {
  DEADLINE_HEADER,
  refuseAfterDeadline,
  WALL_CLOCK_HEADER,
} from "../../sandbox/http/deadlineMiddleware.ts";
import { startTestSandbox, type TestSandbox } from "./helpers.ts";

/** A request's deadline (sandbox/http/deadlineMiddleware.ts, docs/sandbox.md "Deadlines"). */

let t: TestSandbox;
beforeAll(async () => {
  t = await startTestSandbox();
});
afterAll(() => t.close());

const leadMs = async () => (await t.api("GET", "/_sandbox/clock")).body.organizationLeadMs as number;
const advance = (deadline: string) =>
  t.api("POST", "/_sandbox/clock/advance", {
    body: { seconds: 3600 },
    headers: { [DEADLINE_HEADER]: deadline },
  });

describe("a request's deadline", () => {
  test("passes up to its deadline, and is refused with deadline_passed after it", () => {
    expect(() => refuseAfterDeadline("1000", 999)).not.toThrow();
    expect(() => refuseAfterDeadline("1000", 1000)).not.toThrow();
    expect(() => refuseAfterDeadline("1000", 1250)).toThrow(
      expect.objectContaining({
        status: 408,
        code: "deadline_passed",
        message: expect.stringContaining("250 ms after"),
      }),
    );
  });

  test("a late action is refused and changes nothing; one in time is applied", async () => {
    const before = await leadMs();
    const late = await advance(String(Date.now() - 1));
    expect(late.status).toBe(408);
    expect(late.body.error).toMatchObject({
      code: "deadline_passed",
      message: expect.stringContaining("nothing of it was applied"),
    });
    expect(await leadMs()).toBe(before);
    const inTime = await advance(String(Date.now() + 60_000));
    expect(inTime.status).toBe(200);
    expect(await leadMs()).toBe(before + 3_600_000);
  });

  test("a deadline that is no moment is refused naming the header", async () => {
    const before = await leadMs();
    for (const bad of ["soon", "-5", "1.5", ""]) {
      const answer = await advance(bad);
      expect(answer.status, bad).toBe(400);
      expect(answer.body.error.details, bad).toEqual([
        { field: DEADLINE_HEADER, reason: expect.any(String) },
      ]);
    }
    expect(await leadMs()).toBe(before);
  });

  test("the signing provider's routes are held to it too, before their stamp is checked", async () => {
    const late = await t.api("POST", "/public/v1/submit/approve_activity", {
      body: {},
      token: null,
      headers: { [DEADLINE_HEADER]: String(Date.now() - 1) },
    });
    expect(late.status).toBe(408);
  });

  test("every answer carries the sandbox's wall clock, errors and unauthenticated ones included", async () => {
    for (const answer of [
      await t.api("GET", "/_sandbox/clock"),
      await t.api("GET", "/v2/portfolio-wallets", { token: null }),
      await advance(String(Date.now() - 1)),
    ]) {
      const stamped = Number(answer.headers.get(WALL_CLOCK_HEADER));
      expect(Math.abs(stamped - Date.now())).toBeLessThan(60_000);
    }
  });
});
