import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { ErrorBodySchema } from "../../../sdk/nodejs/contract/index.ts";
import { startTestSandbox, uuid, walletBody, type ApiResponse, type TestSandbox } from "../helpers.ts";

let t: TestSandbox;
let walletId: string;
beforeAll(async () => {
  t = await startTestSandbox();
  walletId = (await t.api("POST", "/v2/portfolio-wallets", { body: walletBody() })).body.id;
});
afterAll(() => t.close());

/** Asserts the error body of docs/spec-gaps.md and returns its details' fields. */
function expectError(res: ApiResponse, status: number, code: string): string[] {
  expect(res.status).toBe(status);
  const body = ErrorBodySchema.parse(res.body);
  expect(body.error.code).toBe(code);
  expect(body.error.requestId).toBe(res.headers.get("x-request-id"));
  return (body.error.details ?? []).map((d) => d.field);
}

/**
 * A validator's stock sentences ("Invalid input: expected string, received null", "Too small:
 * expected ..."): the sandbox words every problem itself, naming what the field must be.
 */
const STOCK_WORDING =
  /Invalid input|Invalid option|expected \w+, received|Too (small|big):|Unrecognized key/i;

function expectOwnWording(res: ApiResponse): void {
  const body = ErrorBodySchema.parse(res.body);
  expect(body.error.message).not.toMatch(STOCK_WORDING);
  for (const detail of body.error.details ?? []) expect(detail.reason).not.toMatch(STOCK_WORDING);
}

const createWith = (positions: unknown) =>
  t.api("POST", "/v2/portfolio-wallets", { body: { requestId: uuid(), positions } });

describe("request body", () => {
  test("malformed JSON is 400 malformed_json", async () => {
    const res = await t.api("POST", "/v2/portfolio-wallets", {
      raw: '{"requestId": ',
      headers: { "content-type": "application/json" },
    });
    expectError(res, 400, "malformed_json");
  });

  test("a non-JSON content type is 400 malformed_json", async () => {
    const res = await t.api("POST", "/v2/portfolio-wallets", {
      raw: JSON.stringify(walletBody()),
      headers: { "content-type": "text/plain" },
    });
    expectError(res, 400, "malformed_json");
    expect(res.body.error.message).toMatch(/application\/json/);
  });

  test("an empty body is 400 malformed_json", async () => {
    const res = await t.api("POST", "/v2/portfolio-wallets", {
      raw: "",
      headers: { "content-type": "application/json" },
    });
    expectError(res, 400, "malformed_json");
  });

  test("JSON that is not an object is 400 validation_failed", async () => {
    const res = await t.api("POST", "/v2/portfolio-wallets", { body: [1, 2] });
    expect(expectError(res, 400, "validation_failed")).toEqual(["(body)"]);
  });

  test("weights not summing to 10000 are 400 naming positions", async () => {
    const res = await createWith([
      { positionKey: "tbills", targetWeightBps: 6000 },
      { positionKey: "syrupUsdc", targetWeightBps: 3999 },
    ]);
    expect(expectError(res, 400, "validation_failed")).toEqual(["positions"]);
    expect(res.body.error.message).toMatch(/9999/);
  });

  test("negative and non-numeric weights are each named", async () => {
    const res = await createWith([
      { positionKey: "tbills", targetWeightBps: -100 },
      { positionKey: "syrupUsdc", targetWeightBps: "5000" },
    ]);
    expect(expectError(res, 400, "validation_failed")).toEqual([
      "positions[0].targetWeightBps",
      "positions[1].targetWeightBps",
    ]);
  });

  test("a duplicate positionKey is 400 naming the second occurrence", async () => {
    const res = await createWith([
      { positionKey: "tbills", targetWeightBps: 5000 },
      { positionKey: "tbills", targetWeightBps: 5000 },
    ]);
    expect(expectError(res, 400, "validation_failed")).toEqual(["positions[1].positionKey"]);
    expect(res.body.error.details[0].reason).toMatch(/duplicate/);
  });

  test("an unknown positionKey is 400 listing the valid keys", async () => {
    const res = await createWith([
      { positionKey: "tbills", targetWeightBps: 5000 },
      { positionKey: "bitcoin", targetWeightBps: 5000 },
    ]);
    expect(expectError(res, 400, "validation_failed")).toEqual(["positions[1].positionKey"]);
    expect(res.body.error.details[0].reason).toMatch(/tbills, resolvRlp, syrupUsdc/);
  });

  test("every bad field is named at once, unknown keys included", async () => {
    const res = await t.api("POST", "/v2/portfolio-wallets", {
      body: {
        requestId: "not-a-uuid",
        positions: [{ positionKey: "bitcoin", targetWeightBps: -1 }],
        label: 7,
      },
    });
    expect(expectError(res, 400, "validation_failed").sort()).toEqual(
      ["label", "positions", "positions[0].positionKey", "positions[0].targetWeightBps", "requestId"].sort(),
    );
  });

  test("a strategy update gets the same checks", async () => {
    const res = await t.api("PATCH", `/v2/portfolio-wallets/${walletId}/strategy`, {
      body: { requestId: uuid(), positions: [{ positionKey: "nope", targetWeightBps: 10000 }] },
    });
    expect(expectError(res, 400, "validation_failed")).toEqual(["positions[0].positionKey"]);
  });

  test("never answers 5xx to any JSON body, however odd", async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.jsonValue(),
        fc.constantFrom("wallet", "strategy", "quote", "webhook"),
        async (body, target) => {
          const path = {
            wallet: ["POST", "/v2/portfolio-wallets"],
            strategy: ["PATCH", `/v2/portfolio-wallets/${walletId}/strategy`],
            quote: ["POST", "/v2/portfolio-wallets/quote"],
            webhook: ["POST", "/webhooks/registrations"],
          }[target] as [string, string];
          const res = await t.api(path[0], path[1], { body });
          expect(res.status).toBeLessThan(500);
          if (res.status >= 400) expectOwnWording(res);
        },
      ),
      { numRuns: 150 },
    );
  });
});

describe("the sandbox's own wording", () => {
  test.each([
    ["POST", "/webhooks/registrations", { url: "https://example.com/h", eventTypes: null }],
    ["POST", "/webhooks/registrations", { url: 7, eventTypes: ["portfolio_wallet.balance.updated"] }],
    ["POST", "/webhooks/registrations", { url: "https://example.com/h", eventTypes: [], description: 5 }],
    [
      "POST",
      "/v2/portfolio-wallets/quote",
      { liquidityConstraints: [null], yieldSourceExclusions: "tbills" },
    ],
    ["POST", "/v2/portfolio-wallets/quote", []],
    ["POST", "/v2/portfolio-wallets/yield", { periodStartIso: null, portfolioWalletIds: [7] }],
    ["PATCH", "/webhooks/registrations/3f1c2a9e-8b7d-4c1e-9f0a-2b3c4d5e6f70/status", { status: null }],
    ["PUT", "/_sandbox/policy", { withdrawalApprovals: "two" }],
    ["POST", "/_sandbox/clock/advance", { ms: null }],
  ])("%s %s with %j names each field in its own words", async (method, path, body) => {
    const res = await t.api(method, path, { body });
    expect(res.status).toBe(400);
    expectOwnWording(res);
  });

  test("null where a string is expected says what the field must be", async () => {
    const res = await t.api("POST", "/webhooks/registrations", {
      body: { url: null, eventTypes: ["portfolio_wallet.balance.updated"] },
    });
    const details = ErrorBodySchema.parse(res.body).error.details ?? [];
    expect(details).toEqual([{ field: "url", reason: expect.stringMatching(/^must be/) as string }]);
    expect(details[0]?.reason).toMatch(/http\(s\) URL/);
  });

  test("a webhook registration takes description: null (spec 2.10: string or null)", async () => {
    // Regression: null was refused with a raw validator message.
    const res = await t.api("POST", "/webhooks/registrations", {
      body: {
        url: "https://example.com/hooks",
        eventTypes: ["portfolio_wallet.balance.updated"],
        description: null,
      },
    });
    expect(res.status).toBe(201);
    expect(res.body.description).toBeNull();
    await t.api("DELETE", `/webhooks/registrations/${res.body.id}`);
  });
});

describe("ids", () => {
  // Variant nibble 6: not an RFC 9562 UUID, but the canonical 8-4-4-4-12 hex form (docs/spec-gaps.md).
  const NON_RFC_ID = "e3e70682-c209-4cac-629f-6fbed82c07cd";

  test("any canonical 8-4-4-4-12 hex id is an id: a path id that names nothing is 404, not 400", async () => {
    const res = await t.api("GET", `/v2/portfolio-wallets/${NON_RFC_ID}`);
    expectError(res, 404, "not_found");
    const upper = await t.api("GET", `/v2/portfolio-wallets/${NON_RFC_ID.toUpperCase()}`);
    expectError(upper, 404, "not_found");
  });

  test("a requestId of that form creates a wallet", async () => {
    const res = await t.api("POST", "/v2/portfolio-wallets", { body: walletBody({ requestId: NON_RFC_ID }) });
    expect(res.status).toBe(201);
    expect(res.body.requestId).toBe(NON_RFC_ID);
  });

  test.each([
    "e3e70682c2094cac629f6fbed82c07cd",
    "e3e70682-c209-4cac-629f-6fbed82c07c",
    "{e3e70682-c209-4cac-629f-6fbed82c07cd}",
  ])("%s is not an id", async (id) => {
    const res = await t.api("GET", `/v2/portfolio-wallets/${encodeURIComponent(id)}`);
    expect(expectError(res, 400, "validation_failed")).toEqual(["id"]);
  });
});

describe("path parameters", () => {
  test.each([
    ["GET", "/v2/portfolio-wallets/not-a-uuid", "id"],
    ["PATCH", "/v2/portfolio-wallets/123/strategy", "id"],
    ["GET", "/webhooks/registrations/xyz", "registrationId"],
    ["PATCH", "/webhooks/registrations/xyz/status", "registrationId"],
    ["DELETE", "/webhooks/registrations/xyz", "registrationId"],
  ])("%s %s is 400 naming %s", async (method, path, param) => {
    const body = method === "GET" ? undefined : { requestId: uuid(), positions: [], status: "active" };
    const res = await t.api(method, path, { body });
    expect(expectError(res, 400, "validation_failed")).toEqual([param]);
  });
});

describe("list query", () => {
  test.each(["0", "101", "abc", "2.5"])("pageSize=%s is 400 naming pageSize", async (pageSize) => {
    const res = await t.api("GET", `/v2/portfolio-wallets?pageSize=${pageSize}`);
    expect(expectError(res, 400, "validation_failed")).toEqual(["pageSize"]);
  });

  test.each(["garbage", "2026-01-01T00:00:00.000Z", `2026-01-01T00:00:00.000Z|not-a-uuid`, `x|${uuid()}`])(
    "cursor=%s is 400 naming cursor",
    async (cursor) => {
      const res = await t.api("GET", `/v2/portfolio-wallets?cursor=${encodeURIComponent(cursor)}`);
      expect(expectError(res, 400, "validation_failed")).toEqual(["cursor"]);
    },
  );

  const LISTS = () => [
    "/v2/portfolio-wallets",
    `/v2/portfolio-wallets/${walletId}/withdrawals`,
    `/v2/portfolio-wallets/${walletId}/deposits`,
    "/webhooks/registrations",
  ];

  test.each(["1e1", "%202", "2%20", "+5", "0x10", "2.0", "-0", "１０"])(
    "pageSize=%s (not plain decimal digits) is 400 naming pageSize on every list",
    async (pageSize) => {
      for (const list of LISTS()) {
        const res = await t.api("GET", `${list}?pageSize=${pageSize}`);
        expect(expectError(res, 400, "validation_failed")).toEqual(["pageSize"]);
      }
    },
  );

  test("a repeated query parameter is 400 naming it, whatever its values", async () => {
    // Regression: ?pageSize=2&pageSize=500 answered 200 (the first value won).
    for (const list of LISTS()) {
      for (const query of [
        "pageSize=2&pageSize=500",
        "pageSize=2&pageSize=2",
        `cursor=a&cursor=b&pageSize=3`,
      ]) {
        const res = await t.api("GET", `${list}?${query}`);
        const fields = expectError(res, 400, "validation_failed");
        expect(fields[0]).toBe(query.startsWith("cursor") ? "cursor" : "pageSize");
        expect(res.body.error.details[0].reason).toMatch(/given 2 times; give it once/);
      }
    }
  });

  test("plain digits are read as they are, leading zeros included", async () => {
    const res = await t.api("GET", "/v2/portfolio-wallets?pageSize=007");
    expect(res.status).toBe(200);
    expect(res.body.pageSize).toBe(7);
  });

  test("the admin API's query parameters follow the same rules", async () => {
    for (const path of ["/_sandbox/ledger/entries", "/_sandbox/webhook-deliveries"]) {
      expect(expectError(await t.api("GET", `${path}?limit=1e1`), 400, "validation_failed")).toEqual([
        "limit",
      ]);
      expect(expectError(await t.api("GET", `${path}?limit=1&limit=2`), 400, "validation_failed")).toEqual([
        "limit",
      ]);
      expect((await t.api("GET", `${path}?limit=10`)).status).toBe(200);
    }
  });

  test("webhook list checks pageSize too", async () => {
    const res = await t.api("GET", "/webhooks/registrations?pageSize=1000");
    expect(expectError(res, 400, "validation_failed")).toEqual(["pageSize"]);
  });
});

describe("authentication", () => {
  test("a missing token is 401 unauthorized with WWW-Authenticate", async () => {
    const res = await t.api("GET", "/v2/portfolio-wallets/strategies", { token: null });
    expectError(res, 401, "unauthorized");
    expect(res.headers.get("www-authenticate")).toMatch(/^Bearer/);
  });

  test("an unknown token is 401", async () => {
    expectError(await t.api("GET", "/v2/portfolio-wallets", { token: "wrong" }), 401, "unauthorized");
  });

  test("a non-Bearer scheme is 401", async () => {
    const res = await t.api("GET", "/v2/portfolio-wallets", {
      token: null,
      headers: { authorization: "Basic dG9rZW4tYTo=" },
    });
    expectError(res, 401, "unauthorized");
  });

  test("admin calls need a token as well", async () => {
    expectError(await t.api("GET", "/_sandbox/request-counts", { token: null }), 401, "unauthorized");
  });
});

describe("unknown routes", () => {
  test("are 404 not_found in the error shape", async () => {
    expectError(await t.api("GET", "/v3/nothing"), 404, "not_found");
  });
});
