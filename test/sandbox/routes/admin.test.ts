import { afterEach, beforeEach, describe, expect, test } from "vitest";
import { OTHER_TOKEN, startTestSandbox, uuid, walletBody, type TestSandbox } from "../helpers.ts";

let t: TestSandbox;
beforeEach(async () => {
  t = await startTestSandbox();
});
afterEach(() => t.close());

const walletCount = async () =>
  (await t.api("GET", "/v2/portfolio-wallets?pageSize=100")).body.data.length as number;
const addFault = (fault: Record<string, unknown>) => t.api("POST", "/_sandbox/faults", { body: fault });

describe("fault injection", () => {
  test("a status fault answers 503 N times without applying the request, then lets requests through", async () => {
    expect(
      (
        await addFault({
          method: "POST",
          path: "/v2/portfolio-wallets",
          kind: "status",
          status: 503,
          times: 2,
        })
      ).status,
    ).toBe(201);
    const body = walletBody();
    const a = await t.api("POST", "/v2/portfolio-wallets", { body });
    const b = await t.api("POST", "/v2/portfolio-wallets", { body });
    expect([a.status, b.status]).toEqual([503, 503]);
    expect(a.body.error.code).toBe("unavailable");
    expect(a.headers.get("x-request-id")).toBe(a.body.error.requestId);
    expect(await walletCount()).toBe(0);
    expect((await t.api("POST", "/v2/portfolio-wallets", { body })).status).toBe(201);
  });

  test("a 429 fault carries Retry-After and the rate_limited code", async () => {
    await addFault({
      method: "GET",
      path: "/v2/portfolio-wallets/strategies",
      kind: "status",
      status: 429,
      retryAfterSeconds: 7,
    });
    const res = await t.api("GET", "/v2/portfolio-wallets/strategies");
    expect(res.status).toBe(429);
    expect(res.headers.get("retry-after")).toBe("7");
    expect(res.body.error.code).toBe("rate_limited");
    expect((await t.api("GET", "/v2/portfolio-wallets/strategies")).status).toBe(200);
  });

  test("a 500 fault is internal_error", async () => {
    await addFault({ method: "*", path: "/v2/*", kind: "status", status: 500 });
    const res = await t.api("GET", "/v2/portfolio-wallets");
    expect(res.status).toBe(500);
    expect(res.body.error.code).toBe("internal_error");
  });

  test("route patterns match one path segment per :param", async () => {
    const id = (await t.api("POST", "/v2/portfolio-wallets", { body: walletBody() })).body.id;
    await addFault({ method: "GET", path: "/v2/portfolio-wallets/:id", kind: "status", status: 502 });
    expect((await t.api("GET", "/v2/portfolio-wallets")).status).toBe(200);
    expect((await t.api("GET", `/v2/portfolio-wallets/${id}`)).status).toBe(502);
  });

  test("a delay fault holds the answer back", async () => {
    await addFault({ method: "GET", path: "/v2/portfolio-wallets/strategies", kind: "delay", delayMs: 300 });
    const started = Date.now();
    const res = await t.api("GET", "/v2/portfolio-wallets/strategies");
    expect(res.status).toBe(200);
    expect(Date.now() - started).toBeGreaterThanOrEqual(290);
  });

  test("a drop fault applies the request, then closes the connection without an answer", async () => {
    await addFault({ method: "POST", path: "/v2/portfolio-wallets", kind: "drop" });
    const body = walletBody();
    await expect(t.api("POST", "/v2/portfolio-wallets", { body })).rejects.toThrow();
    expect(await walletCount()).toBe(1);
    const retry = await t.api("POST", "/v2/portfolio-wallets", { body });
    expect(retry.status).toBe(200);
    expect(await walletCount()).toBe(1);
  });

  test("faults belong to the organization that registered them", async () => {
    await addFault({ method: "GET", path: "/v2/portfolio-wallets", kind: "status", status: 503 });
    expect((await t.api("GET", "/v2/portfolio-wallets", { token: OTHER_TOKEN })).status).toBe(200);
    expect((await t.api("GET", "/_sandbox/faults", { token: OTHER_TOKEN })).body.faults).toEqual([]);
    expect((await t.api("GET", "/_sandbox/faults")).body.faults).toHaveLength(1);
    expect((await t.api("DELETE", "/_sandbox/faults")).status).toBe(204);
    expect((await t.api("GET", "/v2/portfolio-wallets")).status).toBe(200);
  });

  test("every armed fault is listed, planned failures included, and each can be disarmed alone", async () => {
    const wallet = (await t.api("POST", "/v2/portfolio-wallets", { body: walletBody() })).body;
    const http = (
      await addFault({ method: "GET", path: "/v2/portfolio-wallets", kind: "status", status: 503 })
    ).body;
    const leg = await t.api("POST", "/_sandbox/faults/withdrawal-leg", {
      body: { walletId: wallet.id, legKey: "redeem", reason: "bridge outage" },
    });
    expect(leg.status).toBe(201);
    const strategy = await t.api("POST", "/_sandbox/faults/strategy-update", {
      body: { walletId: wallet.id, reason: "rebalance refused" },
    });
    expect(strategy.status).toBe(201);
    const listed = (await t.api("GET", "/_sandbox/faults")).body;
    expect(listed.faults.map((fault: { id: string }) => fault.id)).toEqual([http.id]);
    expect(listed.planned).toEqual([
      {
        id: leg.body.id,
        kind: "withdrawal-leg",
        walletId: wallet.id,
        legKey: "redeem",
        reason: "bridge outage",
      },
      { id: strategy.body.id, kind: "strategy-update", walletId: wallet.id, reason: "rebalance refused" },
    ]);
    // Another organization neither sees nor disarms them.
    const theirs = (await t.api("GET", "/_sandbox/faults", { token: OTHER_TOKEN })).body;
    expect(theirs).toEqual({ faults: [], planned: [] });
    expect((await t.api("DELETE", `/_sandbox/faults/${leg.body.id}`, { token: OTHER_TOKEN })).status).toBe(
      404,
    );

    expect((await t.api("DELETE", `/_sandbox/faults/${leg.body.id}`)).status).toBe(204);
    expect((await t.api("DELETE", `/_sandbox/faults/${http.id}`)).status).toBe(204);
    expect((await t.api("DELETE", `/_sandbox/faults/${http.id}`)).status).toBe(404);
    const left = (await t.api("GET", "/_sandbox/faults")).body;
    expect(left.faults).toEqual([]);
    expect(left.planned.map((fault: { id: string }) => fault.id)).toEqual([strategy.body.id]);
    expect((await t.api("GET", "/v2/portfolio-wallets")).status).toBe(200);
  });

  test("admin calls are never faulted", async () => {
    await addFault({ method: "*", path: "/*", kind: "status", status: 503, times: 5 });
    expect((await t.api("GET", "/_sandbox/request-counts")).status).toBe(200);
    expect((await t.api("GET", "/v2/portfolio-wallets")).status).toBe(503);
  });

  test("after lets that many matching requests pass first, and every matching request counts for every waiting fault", async () => {
    const route = "/v2/portfolio-wallets/strategies";
    // Faults meant for the 2nd and the 4th request of the route: the 2nd is faulted by the first
    // and still counts towards the second.
    await addFault({ method: "GET", path: route, kind: "status", status: 503, after: 1 });
    await addFault({ method: "GET", path: route, kind: "status", status: 500, after: 3 });
    const statuses: number[] = [];
    for (let i = 0; i < 6; i++) statuses.push((await t.api("GET", route)).status);
    expect(statuses).toEqual([200, 503, 200, 500, 200, 200]);
  });

  test("a concurrency fault refuses, with 429 and Retry-After and without applying, requests beyond its bound in flight", async () => {
    await addFault({
      method: "POST",
      path: "/v2/portfolio-wallets",
      kind: "concurrency",
      maxInFlight: 3,
      times: 100,
    });
    // The requests it lets through are held in flight by a delay (the next fault in line), so all five arrive at once.
    await addFault({ method: "POST", path: "/v2/portfolio-wallets", kind: "delay", delayMs: 300, times: 5 });
    await t.api("DELETE", "/_sandbox/request-counts");
    const answers = await Promise.all(
      Array.from({ length: 5 }, () => t.api("POST", "/v2/portfolio-wallets", { body: walletBody() })),
    );
    const statuses = answers.map((a) => a.status).sort();
    // Three are let through; the later two find three in flight and are refused.
    expect(statuses).toEqual([201, 201, 201, 429, 429]);
    const refused = answers.find((a) => a.status === 429)!;
    expect(refused.headers.get("retry-after")).toBe("1");
    expect(refused.body.error.code).toBe("rate_limited");
    expect(await walletCount()).toBe(3);
    const counts = await t.api("GET", "/_sandbox/request-counts");
    // Three held by the delay, plus one refused (a refused request may leave before the next arrives).
    expect(counts.body.inFlight.now).toBe(0);
    expect(counts.body.inFlight.peak).toBeGreaterThanOrEqual(4);
  });

  test("rejects a fault with a status that is not 429 or 5xx", async () => {
    const res = await addFault({ method: "GET", path: "/v2/portfolio-wallets", kind: "status", status: 404 });
    expect(res.status).toBe(400);
    expect(res.body.error.details[0].field).toBe("status");
  });
});

describe("request counter", () => {
  test("counts per method and route pattern, skips admin calls, and resets", async () => {
    const id = (await t.api("POST", "/v2/portfolio-wallets", { body: walletBody() })).body.id;
    await t.api("GET", `/v2/portfolio-wallets/${id}`);
    await t.api("GET", `/v2/portfolio-wallets/${uuid()}`);
    await t.api("GET", "/v2/portfolio-wallets/strategies");
    await t.api("GET", "/_sandbox/clock");
    const counts = (await t.api("GET", "/_sandbox/request-counts")).body.counts;
    expect(counts).toEqual({
      "GET /v2/portfolio-wallets/:id": 2,
      "GET /v2/portfolio-wallets/strategies": 1,
      "POST /v2/portfolio-wallets": 1,
    });
    expect((await t.api("DELETE", "/_sandbox/request-counts")).status).toBe(204);
    expect((await t.api("GET", "/_sandbox/request-counts")).body.counts).toEqual({});
  });

  test("counts faulted requests and is per organization", async () => {
    await addFault({ method: "POST", path: "/v2/portfolio-wallets", kind: "status", status: 503 });
    await t.api("POST", "/v2/portfolio-wallets", { body: walletBody() });
    expect((await t.api("GET", "/_sandbox/request-counts")).body.counts).toEqual({
      "POST /v2/portfolio-wallets": 1,
    });
    expect((await t.api("GET", "/_sandbox/request-counts", { token: OTHER_TOKEN })).body.counts).toEqual({});
  });
});

describe("sandbox clock", () => {
  test("advancing moves every new timestamp forward", async () => {
    const before = (await t.api("GET", "/_sandbox/clock")).body;
    const advanced = await t.api("POST", "/_sandbox/clock/advance", { body: { seconds: 3600 } });
    expect(advanced.body.offsetMs).toBe(before.offsetMs + 3_600_000);
    const wallet = (await t.api("POST", "/v2/portfolio-wallets", { body: walletBody() })).body;
    expect(Date.parse(wallet.createdAt) - Date.now()).toBeGreaterThan(3_599_000);
  });

  test("refuses to move backwards", async () => {
    const res = await t.api("POST", "/_sandbox/clock/advance", { body: { ms: -5 } });
    expect(res.status).toBe(400);
  });
});

describe("organization policy", () => {
  test("defaults to no approvals and is set per organization", async () => {
    expect((await t.api("GET", "/_sandbox/policy")).body).toEqual({
      strategyUpdateApprovals: 0,
      withdrawalApprovals: 0,
    });
    const set = await t.api("PUT", "/_sandbox/policy", { body: { withdrawalApprovals: 2 } });
    expect(set.body).toEqual({ strategyUpdateApprovals: 0, withdrawalApprovals: 2 });
    expect((await t.api("GET", "/_sandbox/policy", { token: OTHER_TOKEN })).body.withdrawalApprovals).toBe(0);
  });

  test("can be configured at startup", async () => {
    const configured = await startTestSandbox({ policies: { "org-a": { strategyUpdateApprovals: 3 } } });
    try {
      expect((await configured.api("GET", "/_sandbox/policy")).body.strategyUpdateApprovals).toBe(3);
    } finally {
      await configured.close();
    }
  });

  test("rejects a negative approval count", async () => {
    const res = await t.api("PUT", "/_sandbox/policy", { body: { strategyUpdateApprovals: -1 } });
    expect(res.status).toBe(400);
    expect(res.body.error.details[0].field).toBe("strategyUpdateApprovals");
  });
});
