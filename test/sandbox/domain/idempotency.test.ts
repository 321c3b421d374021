import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { bodyFingerprint, canonicalJson } from "../../../sandbox/domain/idempotency.ts";
import { OTHER_TOKEN, startTestSandbox, uuid, walletBody, type TestSandbox } from "../helpers.ts";

let t: TestSandbox;
beforeAll(async () => {
  t = await startTestSandbox();
});
afterAll(() => t.close());

const listAll = async (token?: string) =>
  (await t.api("GET", "/v2/portfolio-wallets?pageSize=100", token === undefined ? {} : { token })).body
    .data as { id: string }[];

describe("wallet creation requestId", () => {
  test("a replay with the same body answers 200 with the original wallet and creates nothing", async () => {
    const body = walletBody({ label: "replayed" });
    const first = await t.api("POST", "/v2/portfolio-wallets", { body });
    const countBefore = (await listAll()).length;
    const second = await t.api("POST", "/v2/portfolio-wallets", { body });
    expect(first.status).toBe(201);
    expect(second.status).toBe(200);
    expect(second.body.id).toBe(first.body.id);
    expect(second.body.requestId).toBe(body.requestId);
    expect((await listAll()).length).toBe(countBefore);
  });

  test("position order and ignored extra fields do not make a different body", async () => {
    const body = walletBody();
    const first = await t.api("POST", "/v2/portfolio-wallets", { body });
    const reordered = {
      requestId: body.requestId,
      positions: [
        { positionKey: "syrupUsdc", targetWeightBps: 4000, currentApy: 650 },
        { positionKey: "tbills", targetWeightBps: 6000 },
      ],
    };
    const second = await t.api("POST", "/v2/portfolio-wallets", { body: reordered });
    expect(second.status).toBe(200);
    expect(second.body.id).toBe(first.body.id);
  });

  test("the same requestId with a different body is 409 idempotency_conflict", async () => {
    const body = walletBody();
    await t.api("POST", "/v2/portfolio-wallets", { body });
    const res = await t.api("POST", "/v2/portfolio-wallets", {
      body: { ...body, positions: [{ positionKey: "tbills", targetWeightBps: 10000 }] },
    });
    expect(res.status).toBe(409);
    expect(res.body.error.code).toBe("idempotency_conflict");
    expect(res.body.error.details).toEqual([
      { field: "requestId", reason: "already used with a different body" },
    ]);
  });

  test("ten concurrent identical creates make exactly one wallet", async () => {
    const body = walletBody({ label: "concurrent" });
    const before = (await listAll()).length;
    const answers = await Promise.all(
      Array.from({ length: 10 }, () => t.api("POST", "/v2/portfolio-wallets", { body })),
    );
    expect(new Set(answers.map((a) => a.body.id)).size).toBe(1);
    expect(answers.filter((a) => a.status === 201)).toHaveLength(1);
    expect(answers.filter((a) => a.status === 200)).toHaveLength(9);
    expect((await listAll()).length).toBe(before + 1);
  });

  test("keys are scoped to the organization", async () => {
    const body = walletBody();
    const mine = await t.api("POST", "/v2/portfolio-wallets", { body });
    const theirs = await t.api("POST", "/v2/portfolio-wallets", { body, token: OTHER_TOKEN });
    expect(theirs.status).toBe(201);
    expect(theirs.body.id).not.toBe(mine.body.id);
  });

  test("a request rejected as invalid leaves the key unused", async () => {
    const requestId = uuid();
    const bad = await t.api("POST", "/v2/portfolio-wallets", {
      body: { requestId, positions: [{ positionKey: "tbills", targetWeightBps: 1 }] },
    });
    expect(bad.status).toBe(400);
    const good = await t.api("POST", "/v2/portfolio-wallets", { body: walletBody({ requestId }) });
    expect(good.status).toBe(201);
  });
});

describe("canonicalJson", () => {
  test("ignores object key order but not array order", () => {
    expect(canonicalJson({ b: 1, a: [2, { d: 1, c: 2 }] })).toBe('{"a":[2,{"c":2,"d":1}],"b":1}');
    expect(bodyFingerprint({ a: 1, b: 2 })).toBe(bodyFingerprint({ b: 2, a: 1 }));
    expect(bodyFingerprint([1, 2])).not.toBe(bodyFingerprint([2, 1]));
  });
});
