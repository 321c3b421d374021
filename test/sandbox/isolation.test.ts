import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { OTHER_TOKEN, startTestSandbox, uuid, walletBody, type TestSandbox } from "./helpers.ts";

let t: TestSandbox;
let walletId: string;
let webhookId: string;
beforeAll(async () => {
  t = await startTestSandbox();
  walletId = (await t.api("POST", "/v2/portfolio-wallets", { body: walletBody() })).body.id;
  webhookId = (
    await t.api("POST", "/webhooks/registrations", {
      body: { url: "https://example.com/hooks", eventTypes: ["portfolio_wallet.balance.updated"] },
    })
  ).body.id;
});
afterAll(() => t.close());

describe("organization isolation", () => {
  test("another organization's wallet is 404", async () => {
    const res = await t.api("GET", `/v2/portfolio-wallets/${walletId}`, { token: OTHER_TOKEN });
    expect(res.status).toBe(404);
    expect(res.body.error.code).toBe("not_found");
  });

  test("another organization's wallets are not listed", async () => {
    const res = await t.api("GET", "/v2/portfolio-wallets", { token: OTHER_TOKEN });
    expect(res.body.data.map((w: { id: string }) => w.id)).not.toContain(walletId);
  });

  test("another organization cannot update the strategy (404) and the wallet is unchanged", async () => {
    const res = await t.api("PATCH", `/v2/portfolio-wallets/${walletId}/strategy`, {
      token: OTHER_TOKEN,
      body: { requestId: uuid(), positions: [{ positionKey: "tbills", targetWeightBps: 10000 }] },
    });
    expect(res.status).toBe(404);
    const wallet = (await t.api("GET", `/v2/portfolio-wallets/${walletId}`)).body;
    expect(wallet.strategyConfig.positions).toHaveLength(2);
  });

  test("another organization's webhook is 404 for read, status change and delete", async () => {
    for (const [method, path, body] of [
      ["GET", `/webhooks/registrations/${webhookId}`, undefined],
      ["PATCH", `/webhooks/registrations/${webhookId}/status`, { status: "disabled" }],
      ["DELETE", `/webhooks/registrations/${webhookId}`, undefined],
    ] as const) {
      const res = await t.api(method, path, { token: OTHER_TOKEN, body });
      expect(res.status, `${method} ${path}`).toBe(404);
    }
    expect((await t.api("GET", `/webhooks/registrations/${webhookId}`)).body.status).toBe("active");
  });

  test("another organization's webhooks are not listed", async () => {
    const res = await t.api("GET", "/webhooks/registrations", { token: OTHER_TOKEN });
    expect(res.body.data).toEqual([]);
  });
});
