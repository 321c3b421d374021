import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import {
  DEADLINE_HEADER,
  refuseAfterDeadline,
  WALL_CLOCK_HEADER,
} from "../../../sandbox/http/deadlineMiddleware.ts";
import { CONSOLE_ACTION_HEADER } from "../../../sandbox/http/requestLogMiddleware.ts";
import { startTestSandbox, type TestSandbox } from "../helpers.ts";

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

  test("the request log keeps the console's action id, so an action it stopped waiting for can be looked up: applied, or refused as late on arrival", async () => {
    const lookUp = async (actionId: string) =>
      (await t.api("GET", `/_console/api/requests?actionId=${actionId}`)).body.data as {
        status: number;
        consoleActionId: string;
        path: string;
      }[];
    const applied = randomUUID();
    const refused = randomUUID();
    const send = (actionId: string, deadline: number) =>
      t.api("POST", "/_sandbox/clock/advance", {
        body: { seconds: 60 },
        headers: { [DEADLINE_HEADER]: String(deadline), [CONSOLE_ACTION_HEADER]: actionId.toUpperCase() },
      });
    expect((await send(applied, Date.now() + 60_000)).status).toBe(200);
    expect((await send(refused, Date.now() - 1)).status).toBe(408);
    expect(await lookUp(applied)).toEqual([
      expect.objectContaining({ status: 200, consoleActionId: applied, path: "/_sandbox/clock/advance" }),
    ]);
    expect(await lookUp(refused)).toEqual([
      expect.objectContaining({ status: 408, consoleActionId: refused }),
    ]);
    expect(await lookUp(randomUUID())).toEqual([]);
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
