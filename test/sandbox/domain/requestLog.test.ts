import { afterAll, beforeAll, describe, expect, test } from "vitest";
import {
  createRequestLog,
  REDACTED,
  redactBody,
  redactValue,
  TOO_DEEP_TO_KEEP,
  REQUEST_LOG_BODIES_KEPT,
  REQUEST_LOG_CAPACITY,
  type LoggedRequest,
} from "../../../sandbox/domain/requestLog.ts";
import { OTHER_TOKEN, startTestSandbox, TWO_SOURCES, uuid, type TestSandbox } from "../helpers.ts";

/** The request log of the console's Events page (sandbox/domain/requestLog.ts). */

let t: TestSandbox;
beforeAll(async () => {
  t = await startTestSandbox({ allowPrivateWebhookUrls: true });
});
afterAll(() => t.close());

const entry = (n: number): LoggedRequest => ({
  requestId: `r${n}`,
  method: "GET",
  path: `/v2/portfolio-wallets`,
  query: "",
  status: 200,
  at: new Date(n).toISOString(),
  durationMs: 1,
  walletId: null,
  madeIds: [],
  consoleActionId: null,
  requestBody: null,
  responseBody: null,
});

describe("the request log", () => {
  test("keeps each organization's last requests, newest first, with status, path, time and request id; not the console's own reads", async () => {
    const wallet = await t.api("POST", "/v2/portfolio-wallets", {
      body: { requestId: uuid(), label: "Logged", positions: TWO_SOURCES },
    });
    expect(wallet.status).toBe(201);
    const missing = await t.api("GET", `/v2/portfolio-wallets/${uuid()}`);
    expect(missing.status).toBe(404);
    await t.api("GET", "/_console/api/session", { headers: { "x-sandbox-console": "1" } });
    // The console's yield reads are POSTs that change nothing: left out too; a script's are kept.
    await t.api("POST", "/v2/portfolio-wallets/yield", { body: {}, headers: { "x-sandbox-console": "1" } });
    const listed = await t.api("GET", "/_console/api/requests?limit=10", {
      headers: { "x-sandbox-console": "1" },
    });
    expect(listed.status).toBe(200);
    const [last, before] = listed.body.data;
    expect(last).toMatchObject({
      method: "GET",
      status: 404,
      requestId: missing.headers.get("x-request-id"),
    });
    expect(before).toMatchObject({
      method: "POST",
      path: "/v2/portfolio-wallets",
      status: 201,
      walletId: wallet.body.id,
      requestId: wallet.headers.get("x-request-id"),
    });
    expect(last).not.toHaveProperty("requestBody");
    expect(listed.body.data.map((r: { path: string }) => r.path)).not.toContain("/_console/api/session");
    expect(listed.body.data.map((r: { path: string }) => r.path)).not.toContain(
      "/v2/portfolio-wallets/yield",
    );
    const yieldRead = await t.api("POST", "/v2/portfolio-wallets/yield", { body: {} });
    const withScript = await t.api("GET", "/_console/api/requests?limit=1");
    expect(withScript.body.data[0].requestId).toBe(yieldRead.headers.get("x-request-id"));

    const byWallet = await t.api("GET", `/_console/api/requests?walletId=${wallet.body.id}`);
    expect(byWallet.body.data.map((r: { requestId: string }) => r.requestId)).toEqual([
      wallet.headers.get("x-request-id"),
    ]);
    const notFound = await t.api("GET", "/_console/api/requests?status=4xx&method=GET");
    expect(notFound.body.data.every((r: { status: number }) => r.status >= 400 && r.status < 500)).toBe(true);
    expect(notFound.body.data.length).toBeGreaterThan(0);

    const detail = await t.api("GET", `/_console/api/requests/${wallet.headers.get("x-request-id")}`);
    expect(detail.status).toBe(200);
    expect(JSON.parse(detail.body.requestBody)).toMatchObject({ label: "Logged" });
    expect(JSON.parse(detail.body.responseBody)).toMatchObject({ id: wallet.body.id });
  });

  test("never keeps a webhook secret or a token-like field", async () => {
    const made = await t.api("POST", "/webhooks/registrations", {
      body: { url: "http://127.0.0.1:9/hooks", eventTypes: ["portfolio_wallet.balance.updated"] },
    });
    expect(made.body.secret).toMatch(/^whsec_/);
    const detail = await t.api("GET", `/_console/api/requests/${made.headers.get("x-request-id")}`);
    expect(detail.status).toBe(200);
    expect(JSON.stringify(detail.body)).not.toContain(made.body.secret);
    expect(JSON.parse(detail.body.responseBody).secret).toBe("[redacted]");
    expect(JSON.parse(redactBody('{"a":{"apiToken":"t","n":[{"privateKey":"k"}]},"x":"whsec_abc"}'))).toEqual(
      {
        a: { apiToken: "[redacted]", n: [{ privateKey: "[redacted]" }] },
        x: "[redacted]",
      },
    );
    expect(redactBody("not json whsec_abc-1")).toBe("not json [redacted]");
    expect(redactBody(JSON.stringify({ pad: "p".repeat(10_000) })).length).toBeLessThanOrEqual(4097);
    // Nesting JSON.parse accepts but a walk cannot: nothing of it kept, and no throw.
    expect(redactBody(`${"[".repeat(200_000)}${"]".repeat(200_000)}`)).toBe(TOO_DEEP_TO_KEEP);
  });

  test("a body naming no secret field is kept as written, a webhook secret in it still replaced; one naming any is walked field by field", () => {
    const wallet = { id: "w", positions: [{ positionKey: "tbills", valueUsd: 1.5 }] };
    expect(redactValue(wallet)).toBe(JSON.stringify(wallet));
    expect(redactValue({ note: "whsec_abc-1" })).toBe(JSON.stringify({ note: REDACTED }));
    // A field name that JSON text escapes (a quote inside it) is still found and redacted.
    expect(JSON.parse(redactValue({ 'api"key': "k-1" }))).toEqual({ 'api"key': REDACTED });
    expect(JSON.parse(redactValue({ nested: [{ apiToken: "t-1" }] }))).toEqual({
      nested: [{ apiToken: REDACTED }],
    });
  });

  test("a withdrawal's destinationToken is a token symbol, kept as sent; a token or secret beside it is still redacted", () => {
    const body = {
      withdrawalAmount: 5,
      destinationToken: "usdc",
      destinationChain: "base",
      adminToken: "a-1",
    };
    expect(JSON.parse(redactValue(body))).toEqual({ ...body, adminToken: REDACTED });
    expect(JSON.parse(redactValue({ destinationToken: "usdc", token: "t-1", secret: "s-1" }))).toEqual({
      destinationToken: "usdc",
      token: REDACTED,
      secret: REDACTED,
    });
  });

  test("another organization's requests are neither listed nor found", async () => {
    const mine = await t.api("GET", "/v2/portfolio-wallets");
    const theirs = await t.api("GET", "/_console/api/requests?limit=200", { token: OTHER_TOKEN });
    expect(theirs.body.data.map((r: { requestId: string }) => r.requestId)).not.toContain(
      mine.headers.get("x-request-id"),
    );
    const across = await t.api("GET", `/_console/api/requests/${mine.headers.get("x-request-id")}`, {
      token: OTHER_TOKEN,
    });
    expect(across.status).toBe(404);
  });

  test("bad filters are 400 naming them", async () => {
    for (const [query, field] of [
      ["status=abc", "status"],
      ["status=6xx", "status"],
      ["method=TRACE", "method"],
      ["walletId=nope", "walletId"],
      ["limit=0", "limit"],
      ["limit=201", "limit"],
    ]) {
      const refused = await t.api("GET", `/_console/api/requests?${query}`);
      expect(refused.status, query).toBe(400);
      expect(refused.body.error.details[0].field).toBe(field);
    }
    expect((await t.api("GET", "/_console/api/requests/not-an-id")).status).toBe(400);
  });

  test(`is a ring of ${REQUEST_LOG_CAPACITY} per organization: the oldest are overwritten, so it never grows with requests`, () => {
    const log = createRequestLog();
    for (let n = 0; n < REQUEST_LOG_CAPACITY + 100; n += 1) log.record("org", entry(n));
    const all = log.list("org", { limit: 10_000 });
    expect(all).toHaveLength(REQUEST_LOG_CAPACITY);
    expect(all[0]!.requestId).toBe(`r${REQUEST_LOG_CAPACITY + 99}`);
    expect(all.at(-1)!.requestId).toBe("r100");
    expect(log.find("org", "r99")).toBeNull();
    expect(log.find("org", "r100")?.requestId).toBe("r100");
    expect(log.list("other", { limit: 10 })).toEqual([]);
    const small = createRequestLog(3);
    for (let n = 0; n < 2; n += 1) small.record("org", entry(n));
    expect(small.list("org", { limit: 10 }).map((r) => r.requestId)).toEqual(["r1", "r0"]);
  });

  test(`keeps the bodies of the newest ${REQUEST_LOG_BODIES_KEPT} requests only, and every older one without them`, () => {
    const log = createRequestLog();
    for (let n = 0; n < REQUEST_LOG_CAPACITY + 10; n += 1)
      log.record("org", { ...entry(n), requestBody: `{"n":${n}}`, responseBody: "{}" });
    const newest = REQUEST_LOG_CAPACITY + 9;
    const kept = log.find("org", `r${newest - REQUEST_LOG_BODIES_KEPT + 1}`);
    expect(kept?.requestBody).not.toBeNull();
    expect(kept?.responseBody).not.toBeNull();
    const older = log.find("org", `r${newest - REQUEST_LOG_BODIES_KEPT}`);
    expect(older).toMatchObject({ requestBody: null, responseBody: null, status: 200 });
    expect(log.find("org", "r10")).toMatchObject({ requestBody: null, responseBody: null });
  });
});

describe("finding any id", () => {
  test("names what an id is in the organization and its wallet; another organization's is not found", async () => {
    const wallet = await t.api("POST", "/v2/portfolio-wallets", {
      body: { requestId: uuid(), label: "Found", positions: TWO_SOURCES },
    });
    const hook = await t.api("POST", "/webhooks/registrations", {
      body: { url: "http://127.0.0.1:9/found", eventTypes: ["portfolio_wallet.balance.updated"] },
    });
    const theirs = await t.api("POST", "/v2/portfolio-wallets", {
      body: { requestId: uuid(), label: "Theirs", positions: TWO_SOURCES },
      token: OTHER_TOKEN,
    });
    const find = (id: string, token?: string) =>
      t.api("GET", `/_console/api/ids/${id}`, token === undefined ? {} : { token });
    expect((await find(wallet.body.id)).body).toEqual({
      kind: "wallet",
      id: wallet.body.id,
      walletId: wallet.body.id,
    });
    expect((await find(hook.body.id)).body).toEqual({
      kind: "webhook_registration",
      id: hook.body.id,
      walletId: null,
    });
    const requestId = wallet.headers.get("x-request-id")!;
    expect((await find(requestId)).body).toEqual({
      kind: "request",
      id: requestId,
      walletId: wallet.body.id,
    });
    expect((await find(theirs.body.id)).status).toBe(404);
    expect((await find(theirs.body.id, OTHER_TOKEN)).body.kind).toBe("wallet");
    expect((await find(uuid())).status).toBe(404);
    const bad = await find("not-an-id");
    expect(bad.status).toBe(400);
    expect(bad.body.error.details[0].field).toBe("id");
  });
});
