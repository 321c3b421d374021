import { afterEach, describe, expect, test } from "vitest";
import { OTHER_TOKEN, startTestSandbox, type TestSandbox } from "../helpers.ts";

const ADMIN_TOKEN = "admin-token-for-tests-0123456789";
const sandboxes: TestSandbox[] = [];
afterEach(async () => {
  for (const t of sandboxes.splice(0)) await t.close();
});
async function sandbox(adminToken: string | null | undefined): Promise<TestSandbox> {
  const t = await startTestSandbox(adminToken === undefined ? {} : { adminToken });
  sandboxes.push(t);
  return t;
}

const ADMIN_CALLS: [string, string, unknown?][] = [
  ["GET", "/_sandbox/policy"],
  ["GET", "/_sandbox/clock"],
  ["POST", "/_sandbox/clock/advance", { ms: 1 }],
  ["PUT", "/_sandbox/catalog/tbills/rate", { currentRateBps: 1 }],
  ["GET", "/_sandbox/signing/api-keys"],
  ["GET", "/_sandbox/ledger"],
  ["GET", "/_sandbox"],
];

describe("the admin token", () => {
  test("with a token configured, every admin call needs it in X-Sandbox-Admin-Token; API calls do not", async () => {
    const t = await sandbox(ADMIN_TOKEN);
    for (const [method, path, body] of ADMIN_CALLS) {
      const attempts: Record<string, string>[] = [
        {},
        { "x-sandbox-admin-token": "wrong" },
        { "x-sandbox-admin-token": "" },
      ];
      for (const headers of attempts) {
        const res = await t.api(method, path, { body, headers });
        expect(res.status, `${method} ${path} ${JSON.stringify(headers)}`).toBe(403);
        expect(res.body.error.code).toBe("forbidden");
        expect(res.body.error.message).toMatch(/x-sandbox-admin-token/);
      }
    }
    const admin = { "x-sandbox-admin-token": ADMIN_TOKEN };
    expect((await t.api("GET", "/_sandbox/policy", { headers: admin })).status).toBe(200);
    expect((await t.api("GET", "/_sandbox/signing/api-keys", { headers: admin })).status).toBe(200);
    expect((await t.api("GET", "/v2/portfolio-wallets")).status).toBe(200);
  });

  test("the API token still says which organization an admin call acts for", async () => {
    const t = await sandbox(ADMIN_TOKEN);
    const admin = { "x-sandbox-admin-token": ADMIN_TOKEN };
    await t.api("PUT", "/_sandbox/policy", { headers: admin, body: { withdrawalApprovals: 2 } });
    expect((await t.api("GET", "/_sandbox/policy", { headers: admin })).body.withdrawalApprovals).toBe(2);
    const other = await t.api("GET", "/_sandbox/policy", { headers: admin, token: OTHER_TOKEN });
    expect(other.body.withdrawalApprovals).toBe(0);
    expect((await t.api("GET", "/_sandbox/policy", { headers: admin, token: null })).status).toBe(401);
  });

  test("with the admin API off (null), every admin call is 403 saying how to switch it on", async () => {
    const t = await sandbox(null);
    for (const [method, path, body] of ADMIN_CALLS) {
      const res = await t.api(method, path, { body, headers: { "x-sandbox-admin-token": "anything" } });
      expect(res.status, `${method} ${path}`).toBe(403);
      expect(res.body.error.message).toMatch(/admin API of this sandbox is off: start it with --admin-token/);
    }
    expect((await t.api("GET", "/v2/portfolio-wallets")).status).toBe(200);
  });

  test("left out, as in-process test sandboxes do, any API token may call the admin API", async () => {
    const t = await sandbox(undefined);
    expect((await t.api("GET", "/_sandbox/policy")).status).toBe(200);
    expect((await t.api("GET", "/_sandbox/policy", { token: OTHER_TOKEN })).status).toBe(200);
  });

  test("an empty admin token is refused at startup", async () => {
    await expect(startTestSandbox({ adminToken: "" })).rejects.toThrow(/adminToken must not be empty/);
  });
});
