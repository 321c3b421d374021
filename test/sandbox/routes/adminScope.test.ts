// Admin tokens scoped to one organization (docs/sandbox.md "Admin token"), over every operation of
// the admin API's table: a token of org-a opens org-a's admin calls and nothing of org-b's, and
// nothing that acts on every organization.
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { ADMIN_OPERATIONS } from "../../../sandbox/routes/adminOperations.ts";
import { OTHER_ORG, OTHER_TOKEN, ORG, startTestSandbox, TOKEN, type TestSandbox } from "../helpers.ts";

const SANDBOX_ADMIN = "sandbox-admin-token-for-scope-tests";
const ORG_A_ADMIN = "org-a-admin-token-for-scope-tests";
const ORG_B_ADMIN = "org-b-admin-token-for-scope-tests";
const admin = (token: string) => ({ "x-sandbox-admin-token": token });

/** A path of the table with every `{parameter}` filled (a well-formed id: the gate answers before any lookup). */
const filled = (path: string) =>
  path.replace(/\{(\w+)\}/g, (_, name: string) =>
    name === "positionKey" ? "tbills" : "00000000-0000-4000-8000-000000000000",
  );

let t: TestSandbox;
beforeAll(async () => {
  t = await startTestSandbox({
    adminToken: SANDBOX_ADMIN,
    organizationAdminTokens: { [ORG_A_ADMIN]: ORG, [ORG_B_ADMIN]: OTHER_ORG },
  });
});
afterAll(() => t.close());

describe("an admin token scoped to one organization", () => {
  test("the table holds the admin API (so the loops below reach every admin operation)", () => {
    expect(ADMIN_OPERATIONS.length).toBeGreaterThan(20);
    expect(ADMIN_OPERATIONS.every((op) => op.path.startsWith("/_sandbox"))).toBe(true);
  });

  test("is refused on every admin operation for another organization, with a 403 naming both, and changes nothing", async () => {
    const before = await t.api("GET", "/_sandbox/policy", {
      token: OTHER_TOKEN,
      headers: admin(ORG_B_ADMIN),
    });
    const clockBefore = await t.api("GET", "/_sandbox/clock", {
      token: OTHER_TOKEN,
      headers: admin(ORG_B_ADMIN),
    });
    for (const operation of ADMIN_OPERATIONS) {
      const method = operation.method.toUpperCase();
      const res = await t.api(method, filled(operation.path), {
        token: OTHER_TOKEN,
        headers: admin(ORG_A_ADMIN),
        ...(operation.body === undefined
          ? {}
          : { body: { ms: 1, currentRateBps: 1, withdrawalApprovals: 3 } }),
      });
      const name = `${method} ${operation.path}`;
      expect(res.status, name).toBe(403);
      expect(res.body.error.code, name).toBe("forbidden");
      expect(res.body.error.message, name).toContain(`scoped to organization "${ORG}"`);
      expect(res.body.error.message, name).toContain(`cannot act for organization "${OTHER_ORG}"`);
    }
    // org-b's own admin token sees what it saw before: nothing was applied.
    expect(
      (await t.api("GET", "/_sandbox/policy", { token: OTHER_TOKEN, headers: admin(ORG_B_ADMIN) })).body,
    ).toEqual(before.body);
    const clockAfter = await t.api("GET", "/_sandbox/clock", {
      token: OTHER_TOKEN,
      headers: admin(ORG_B_ADMIN),
    });
    expect(clockAfter.body.offsetMs).toBe(clockBefore.body.offsetMs);
  });

  test("opens its own organization's admin operations, and refuses only those that act on every organization", async () => {
    const refusedAsSandboxWide: string[] = [];
    for (const operation of ADMIN_OPERATIONS) {
      const method = operation.method.toUpperCase();
      const res = await t.api(method, filled(operation.path), {
        token: TOKEN,
        headers: admin(ORG_A_ADMIN),
        ...(operation.body === undefined ? {} : { body: {} }),
      });
      const name = `${method} ${operation.path}`;
      if (res.status === 403) {
        expect(res.body.error.message, name).toMatch(/acts on every organization of this sandbox/);
        refusedAsSandboxWide.push(name);
      } else expect(res.status, name).toBeLessThan(500);
    }
    // Only the whole-sandbox snapshots are sandbox-wide by themselves (they read or replace every
    // organization's state, and so does listing or reading their files); the clock and rate calls
    // are, when told `scope: "sandbox"` (below).
    expect(refusedAsSandboxWide).toEqual([
      "POST /_sandbox/snapshot/save",
      "POST /_sandbox/snapshot/restore",
      "GET /_sandbox/snapshots",
      "GET /_sandbox/snapshots/{file}",
    ]);
  });

  test("changes its organization's rates, and is refused changing every organization's", async () => {
    const own = await t.api("PUT", "/_sandbox/catalog/tbills/rate", {
      headers: admin(ORG_A_ADMIN),
      body: { currentRateBps: 777 },
    });
    expect(own.status).toBe(200);
    expect(own.body).toMatchObject({ currentRateBps: 777, scope: "organization" });
    const all = await t.api("PUT", "/_sandbox/catalog/tbills/rate", {
      headers: admin(ORG_A_ADMIN),
      body: { currentRateBps: 1, scope: "sandbox" },
    });
    expect(all.status).toBe(403);
    expect(all.body.error.message).toMatch(
      /a rate change of every organization's catalog acts on every organization/,
    );
    const seenByB = await t.api("GET", "/v2/portfolio-wallets/yield-sources", { token: OTHER_TOKEN });
    expect(
      seenByB.body.yieldSources.find((s: { positionKey: string }) => s.positionKey === "tbills")
        .currentRateBps,
    ).not.toBe(777);
  });

  test("moves its organization's clock, and is refused moving every organization's", async () => {
    const own = await t.api("POST", "/_sandbox/clock/advance", {
      headers: admin(ORG_A_ADMIN),
      body: { ms: 1000 },
    });
    expect(own.status).toBe(200);
    expect(own.body.scope).toBe("organization");
    const all = await t.api("POST", "/_sandbox/clock/advance", {
      headers: admin(ORG_A_ADMIN),
      body: { ms: 1000, scope: "sandbox" },
    });
    expect(all.status).toBe(403);
    expect(all.body.error.message).toMatch(
      /moving every organization's clock acts on every organization of this sandbox, so it needs the sandbox's admin token; the admin token sent is scoped to organization "org-a"/,
    );
    const other = await t.api("GET", "/_sandbox/clock", { token: OTHER_TOKEN, headers: admin(ORG_B_ADMIN) });
    expect(other.body.organizationLeadMs).toBe(0);
    const whole = await t.api("POST", "/_sandbox/clock/advance", {
      headers: admin(SANDBOX_ADMIN),
      body: { ms: 1000, scope: "sandbox" },
    });
    expect(whole.status).toBe(200);
  });

  test("says what it acts on, and the sandbox's admin token still acts for every organization", async () => {
    const scoped = await t.api("GET", "/_sandbox/admin-scope", { headers: admin(ORG_A_ADMIN) });
    expect(scoped.body).toEqual({ organizationId: ORG, scope: "organization" });
    for (const token of [TOKEN, OTHER_TOKEN]) {
      const whole = await t.api("GET", "/_sandbox/admin-scope", { token, headers: admin(SANDBOX_ADMIN) });
      expect(whole.status).toBe(200);
      expect(whole.body.scope).toBe("sandbox");
    }
    const change = await t.api("PUT", "/_sandbox/policy", {
      token: OTHER_TOKEN,
      headers: admin(ORG_B_ADMIN),
      body: { withdrawalApprovals: 2 },
    });
    expect(change.status).toBe(200);
    const seen = await t.api("GET", "/_sandbox/policy", { headers: admin(ORG_A_ADMIN) });
    expect(seen.body.withdrawalApprovals).toBe(0);
  });

  test("a wrong token is still refused, and the console's session says the admin API takes tokens", async () => {
    const wrong = await t.api("GET", "/_sandbox/policy", { headers: admin(`${ORG_A_ADMIN}x`) });
    expect(wrong.status).toBe(403);
    expect(wrong.body.error.message).toMatch(/x-sandbox-admin-token/);
    expect((await t.api("GET", "/_console/api/session")).body.adminApi).toBe("token");
  });
});

describe("configuring organizations' admin tokens", () => {
  test("without the sandbox's admin token, an API token alone no longer opens the admin API", async () => {
    const only = await startTestSandbox({ organizationAdminTokens: { [ORG_A_ADMIN]: ORG } });
    try {
      expect((await only.api("GET", "/_sandbox/policy")).status).toBe(403);
      expect((await only.api("GET", "/_sandbox/policy", { headers: admin(ORG_A_ADMIN) })).status).toBe(200);
    } finally {
      await only.close();
    }
  });

  test("an empty token, or one equal to the sandbox's admin token, is refused at startup", async () => {
    await expect(startTestSandbox({ organizationAdminTokens: { "": ORG } })).rejects.toThrow(
      /non-empty token and organization id/,
    );
    await expect(
      startTestSandbox({ adminToken: SANDBOX_ADMIN, organizationAdminTokens: { [SANDBOX_ADMIN]: ORG } }),
    ).rejects.toThrow(/is the sandbox's own admin token/);
  });
});
