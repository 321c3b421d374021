// What the console says became of an action it stopped waiting for
// (sandbox/console/web/src/actionFollowUp.js), against stubbed answers: the applied-but-answered-
// late case cannot be made to happen in a sandbox without a long wait, and a route to provoke it
// has no place in the sandbox.
import path from "node:path";
import { pathToFileURL } from "node:url";
import { afterEach, describe, expect, test, vi } from "vitest";
import { repoRoot } from "../../../scripts/pulumiEnv.ts";

const SRC = path.join(repoRoot, "sandbox", "console", "web", "src");

interface FollowUp {
  kind: string;
  message: string;
}
// Browser scripts (no types for this project's TypeScript), so imported by URL, as copyAsCode.test.ts does.
const { followUpTimedOutAction } = (await import(
  pathToFileURL(path.join(SRC, "actionFollowUp.js")).href
)) as {
  followUpTimedOutAction: (error: unknown) => Promise<FollowUp> | null;
};
const api = (await import(pathToFileURL(path.join(SRC, "api.js")).href)) as {
  ACTION_ID_HEADER: string;
  request: (
    method: string,
    path: string,
    options: { token?: string | null; timeoutMs?: number },
  ) => Promise<unknown>;
};

const realFetch = globalThis.fetch;
afterEach(() => {
  globalThis.fetch = realFetch;
  vi.useRealTimers();
});

/**
 * Sends an action the stubbed sandbox never answers (the console stops waiting), then answers
 * the lookup of that action's id with `logged` as the request log's row; what the console says.
 */
async function followUpWhenLogged(
  logged: { status: number; requestId: string } | null,
  token: string | null = "t",
  whileLooking: () => Promise<unknown> = () => Promise.resolve(),
) {
  let actionId: string | null = null;
  const lookups: string[] = [];
  globalThis.fetch = ((url: string, init: RequestInit) => {
    const headers = new Headers(init.headers);
    if (init.method !== "GET") {
      actionId = headers.get(api.ACTION_ID_HEADER);
      const signal = init.signal!;
      return new Promise((_, reject) => signal.addEventListener("abort", () => reject(signal.reason)));
    }
    lookups.push(url);
    const data = logged === null ? [] : [{ ...logged, consoleActionId: actionId }];
    return Promise.resolve(new Response(JSON.stringify({ data }), { status: 200 }));
  }) as typeof fetch;
  const error = await api.request("POST", "/_sandbox/clock/advance", { token, timeoutMs: 1 }).then(
    () => null,
    (thrown: unknown) => thrown,
  );
  expect(error).toMatchObject({
    status: 0,
    timedOut: true,
    message: expect.stringMatching(/^No answer: .*it may have been applied/),
  });
  const pending = followUpTimedOutAction(error);
  await whileLooking();
  const followUp = await pending;
  return { followUp, actionId, lookups };
}

describe("an action the console stopped waiting for, looked up by its id once the sandbox answers", () => {
  test("applied, answered after the console stopped waiting: said applied, with its answer's status", async () => {
    const { followUp, actionId, lookups } = await followUpWhenLogged({ status: 201, requestId: "r-applied" });
    expect(actionId).toMatch(/^[0-9a-f-]{36}$/);
    expect(lookups).toEqual([`/_console/api/requests?actionId=${actionId}&limit=1`]);
    expect(followUp).toEqual({ kind: "applied", message: expect.stringContaining("Then: applied") });
    expect(followUp?.message).toContain("answered 201");
  });

  test("refused as late on arrival: said not applied (refused as late)", async () => {
    const { followUp } = await followUpWhenLogged({ status: 408, requestId: "r-late" });
    expect(followUp).toEqual({
      kind: "refused-late",
      message: expect.stringContaining("Then: not applied (refused as late)"),
    });
  });

  test("no record, at a second look too: said never arrived, not applied", async () => {
    // The second look waits a moment (the sandbox may still be reading the action): fake time.
    const { followUp, lookups } = await followUpWhenLogged(null, "t", () => {
      vi.useFakeTimers();
      return vi.runAllTimersAsync();
    });
    expect(lookups).toHaveLength(2);
    expect(followUp).toEqual({
      kind: "never-arrived",
      message: expect.stringContaining("Then: not applied. The sandbox answers again and has no record"),
    });
  });

  test("the connection failing during an action: said it may have been applied, then looked up as a timeout is", async () => {
    let actionId: string | null = null;
    globalThis.fetch = ((url: string, init: RequestInit) => {
      if (init.method !== "GET") {
        actionId = new Headers(init.headers).get(api.ACTION_ID_HEADER);
        return Promise.reject(new TypeError("Failed to fetch"));
      }
      const data = [{ status: 200, requestId: "r-broken", consoleActionId: actionId, path: url }];
      return Promise.resolve(new Response(JSON.stringify({ data }), { status: 200 }));
    }) as typeof fetch;
    const error = await api.request("POST", "/_sandbox/clock/advance", { token: "t" }).then(
      () => null,
      (thrown: unknown) => thrown,
    );
    expect(error).toMatchObject({
      status: 0,
      timedOut: false,
      message: expect.stringMatching(/^No answer: the connection .*it may have been/),
    });
    expect(await followUpTimedOutAction(error)).toEqual({
      kind: "applied",
      message: expect.stringContaining("Then: applied"),
    });
  });

  test("a signing provider's call (no token: not in the request log) is not looked up", async () => {
    const { followUp, lookups } = await followUpWhenLogged(null, null);
    expect(followUp).toBeNull();
    expect(lookups).toEqual([]);
  });
});
