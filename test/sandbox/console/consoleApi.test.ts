import { ApiKeyStamper } from "@turnkey/sdk-server";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { generateTurnkeyApiKeyPair } from "../../sdk/approval/turnkeyKeys.ts";
import { EVENT_TYPES } from "../../../sdk/nodejs/contract/index.ts";
import { startReceiver } from "../domain/events/harness/receiver.ts";
import { eventually, OTHER_TOKEN, uuid } from "../helpers.ts";
import {
  DAY_MS,
  deposit,
  DEPOSIT_DELAY_MS,
  fundedWallet,
  startMoneySandbox,
  withdrawBody,
  type MoneySandbox,
} from "../moneyHelpers.ts";

/** The console's read API (docs/sandbox.md "Console API"): authenticated and isolated as the API. */

let m: MoneySandbox;
beforeAll(async () => {
  m = await startMoneySandbox();
});
afterAll(() => m.close());

const POSITIONS = [
  { positionKey: "tbills", targetWeightBps: 6000 },
  { positionKey: "syrupUsdc", targetWeightBps: 4000 },
];

async function setPolicy(policy: { strategyUpdateApprovals?: number; withdrawalApprovals?: number }) {
  const res = await m.t.api("PUT", "/_sandbox/policy", { body: policy });
  expect(res.status).toBe(200);
}

/** Votes at the signing provider with a freshly registered key of org-a, as an approver does. */
async function approveWithNewKey(activityId: string) {
  const keys = generateTurnkeyApiKeyPair();
  const registered = await m.t.api("POST", "/_sandbox/signing/api-keys", {
    body: { publicKey: keys.apiPublicKey, userName: "console test approver" },
  });
  expect(registered.status).toBe(201);
  const stamper = new ApiKeyStamper(keys);
  const post = async (path: string, body: unknown) => {
    const text = JSON.stringify(body);
    const res = await fetch(`${m.t.url}/public/v1${path}`, {
      method: "POST",
      headers: {
        "content-type": "application/json",
        "X-Stamp": (await stamper.stamp(text)).stampHeaderValue,
      },
      body: text,
    });
    return { status: res.status, body: (await res.json()) as { activity: { fingerprint: string } } };
  };
  const fetched = await post("/query/get_activity", { organizationId: "org-a", activityId });
  expect(fetched.status).toBe(200);
  const voted = await post("/submit/approve_activity", {
    type: "ACTIVITY_TYPE_APPROVE_ACTIVITY",
    timestampMs: String(Date.now()),
    organizationId: "org-a",
    parameters: { fingerprint: fetched.body.activity.fingerprint },
  });
  expect(voted.status).toBe(200);
}

describe("console API: authentication and isolation", () => {
  test("every console read needs a valid bearer token", async () => {
    for (const path of [
      "/_console/api/session",
      "/_console/api/signing-activities",
      `/_console/api/wallets/${uuid()}/strategy-updates`,
      `/_console/api/wallets/${uuid()}/withdrawals`,
      `/_console/api/wallets/${uuid()}/deposits`,
      "/_console/api/webhook-deliveries",
    ]) {
      expect((await m.t.api("GET", path, { token: null })).status, path).toBe(401);
      expect((await m.t.api("GET", path, { token: "not-a-token" })).status, path).toBe(401);
    }
  });

  test("the session names the token's organization, how the admin API is guarded, and the sandbox time", async () => {
    const res = await m.t.api("GET", "/_console/api/session");
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      organizationId: "org-a",
      adminApi: "open",
      now: m.clock.now().toISOString(),
      eventTypes: [...EVENT_TYPES],
    });
    expect((await m.t.api("GET", "/_console/api/session", { token: OTHER_TOKEN })).body.organizationId).toBe(
      "org-b",
    );
  });

  test("another organization's wallet is not found, and its activities and deliveries are not listed", async () => {
    await setPolicy({ strategyUpdateApprovals: 1 });
    const walletId = await fundedWallet(m, 100, POSITIONS);
    const update = await m.t.api("PATCH", `/v2/portfolio-wallets/${walletId}/strategy`, {
      body: { requestId: uuid(), positions: [{ positionKey: "tbills", targetWeightBps: 10000 }] },
    });
    expect(update.body.status).toBe("pending_approval");
    await setPolicy({ strategyUpdateApprovals: 0 });

    for (const path of [
      `/_console/api/wallets/${walletId}/strategy-updates`,
      `/_console/api/wallets/${walletId}/withdrawals`,
    ]) {
      const res = await m.t.api("GET", path, { token: OTHER_TOKEN });
      expect(res.status, path).toBe(404);
      expect(res.body.error.code).toBe("not_found");
    }
    const theirs = await m.t.api("GET", "/_console/api/signing-activities?status=all", {
      token: OTHER_TOKEN,
    });
    expect(theirs.status).toBe(200);
    expect(theirs.body.data).toEqual([]);
    const ours = await m.t.api("GET", "/_console/api/signing-activities?status=all");
    expect(ours.body.data.map((a: { signingActivityId: string }) => a.signingActivityId)).toContain(
      update.body.signingActivityId,
    );
    const deliveries = await m.t.api("GET", "/_console/api/webhook-deliveries", { token: OTHER_TOKEN });
    expect(deliveries.body.data.every((d: { organizationId: string }) => d.organizationId === "org-b")).toBe(
      true,
    );
  });

  test("bad query parameters are 400 naming the parameter", async () => {
    const cases: [string, string][] = [
      ["/_console/api/signing-activities?status=done", "status"],
      ["/_console/api/signing-activities?limit=0", "limit"],
      ["/_console/api/webhook-deliveries?limit=1000", "limit"],
      ["/_console/api/webhook-deliveries?status=lost", "status"],
      ["/_console/api/webhook-deliveries?walletId=not-a-wallet", "walletId"],
      [`/_console/api/wallets/${uuid()}/strategy-updates?limit=abc`, "limit"],
      [`/_console/api/wallets/${uuid()}/withdrawals?cursor=nope`, "cursor"],
      ["/_console/api/wallets/not-a-uuid/withdrawals", "id"],
      [`/_console/api/wallets/${uuid()}/deposits?pageSize=0`, "pageSize"],
      [`/_console/api/wallets/${uuid()}/deposits?cursor=nope`, "cursor"],
      ["/_console/api/wallets/not-a-uuid/deposits", "id"],
    ];
    for (const [path, field] of cases) {
      const res = await m.t.api("GET", path);
      expect(res.status, path).toBe(400);
      expect(
        res.body.error.details.map((d: { field: string }) => d.field),
        path,
      ).toContain(field);
    }
  });
});

describe("console API: what the console shows", () => {
  test("a pending strategy update comes with the allocation now and after approval, and counts votes", async () => {
    const walletId = await fundedWallet(m, 1000, POSITIONS);
    await setPolicy({ strategyUpdateApprovals: 2 });
    const proposed = [
      { positionKey: "tbills", targetWeightBps: 5000 },
      { positionKey: "resolvRlp", targetWeightBps: 5000 },
    ];
    const update = await m.t.api("PATCH", `/v2/portfolio-wallets/${walletId}/strategy`, {
      body: { requestId: uuid(), positions: proposed },
    });
    await setPolicy({ strategyUpdateApprovals: 0 });
    const activityId = update.body.signingActivityId as string;
    await approveWithNewKey(activityId);

    const res = await m.t.api("GET", "/_console/api/signing-activities");
    const request = res.body.data.find(
      (a: { signingActivityId: string }) => a.signingActivityId === activityId,
    );
    expect(request).toMatchObject({
      status: "ACTIVITY_STATUS_CONSENSUS_NEEDED",
      requiredApprovals: 2,
      approvals: 1,
      rejections: 0,
      walletId,
      operation: {
        kind: "strategy_update",
        strategyUpdateId: update.body.id,
        status: "pending_approval",
        currentPositions: POSITIONS,
        proposedPositions: proposed,
      },
    });

    // Once decided, it leaves the pending list and stays in the full one.
    expect((await m.t.api("POST", `/_sandbox/signing-activities/${activityId}/approve`)).status).toBe(200);
    const pending = await m.t.api("GET", "/_console/api/signing-activities?status=pending");
    expect(pending.body.data.map((a: { signingActivityId: string }) => a.signingActivityId)).not.toContain(
      activityId,
    );
    const all = await m.t.api("GET", "/_console/api/signing-activities?status=all");
    expect(
      all.body.data.find((a: { signingActivityId: string }) => a.signingActivityId === activityId).status,
    ).toBe("ACTIVITY_STATUS_COMPLETED");
  });

  test("a pending withdrawal says how much goes where", async () => {
    const walletId = await fundedWallet(m, 1000, POSITIONS);
    await setPolicy({ withdrawalApprovals: 1 });
    const withdrawal = await m.t.api("POST", `/v2/portfolio-wallets/${walletId}/withdraw`, {
      body: withdrawBody(250.5),
    });
    await setPolicy({ withdrawalApprovals: 0 });
    expect(withdrawal.body.status).toBe("pending_approval");
    const res = await m.t.api("GET", "/_console/api/signing-activities?status=pending");
    const request = res.body.data.find(
      (a: { signingActivityId: string }) => a.signingActivityId === withdrawal.body.signingActivityId,
    );
    expect(request).toMatchObject({
      approvals: 0,
      requiredApprovals: 1,
      walletId,
      operation: {
        kind: "withdrawal",
        withdrawalId: withdrawal.body.id,
        status: "pending_approval",
        withdrawalAmount: 250.5,
        destinationToken: "usdc",
        destinationChain: "ethereum",
        destinationAddress: withdrawal.body.destinationAddress,
      },
    });
  });

  test("a wallet's strategy updates are listed newest first with their status and failure reason", async () => {
    const walletId = await fundedWallet(m, 500, POSITIONS);
    const first = await m.t.api("PATCH", `/v2/portfolio-wallets/${walletId}/strategy`, {
      body: { requestId: uuid(), positions: [{ positionKey: "tbills", targetWeightBps: 10000 }] },
    });
    await m.advance(1000);
    expect(
      (await m.t.api("POST", "/_sandbox/faults/strategy-update", { body: { walletId, reason: "boom" } }))
        .status,
    ).toBe(201);
    const second = await m.t.api("PATCH", `/v2/portfolio-wallets/${walletId}/strategy`, {
      body: { requestId: uuid(), positions: POSITIONS },
    });
    await m.advance(1000);
    const res = await m.t.api("GET", `/_console/api/wallets/${walletId}/strategy-updates?limit=10`);
    expect(res.status).toBe(200);
    expect(
      res.body.data.map((u: { id: string; status: string; failureReason: string | null }) => [
        u.id,
        u.status,
        u.failureReason,
      ]),
    ).toEqual([
      [second.body.id, "failed", "boom"],
      [first.body.id, "completed", null],
    ]);
    const limited = await m.t.api("GET", `/_console/api/wallets/${walletId}/strategy-updates?limit=1`);
    expect(limited.body.data).toHaveLength(1);
  });

  test("withdrawals come whole, with each leg's due and change times on the sandbox clock", async () => {
    const walletId = await fundedWallet(m, 1000, POSITIONS);
    const created = await m.t.api("POST", `/v2/portfolio-wallets/${walletId}/withdraw`, {
      body: withdrawBody(700),
    });
    expect(created.status).toBe(201);
    const startedAt = m.clock.now().toISOString();
    const dueAt = new Date(m.clock.now().getTime() + DAY_MS).toISOString();

    const before = await m.t.api("GET", `/_console/api/wallets/${walletId}/withdrawals`);
    expect(before.status).toBe(200);
    const [timeline] = before.body.data;
    // The public withdrawal, as GET .../withdrawals/{id} answers it...
    const publicView = await m.t.api(
      "GET",
      `/v2/portfolio-wallets/${walletId}/withdrawals/${created.body.id}`,
    );
    const { legTimes, ...withdrawal } = timeline;
    expect(withdrawal).toEqual(publicView.body);
    // ...with its legs' times.
    expect(legTimes).toEqual([
      {
        legKey: "instant",
        status: "completed",
        outcome: null,
        amount: 400,
        positionKeys: ["syrupUsdc"],
        maxProcessingTime: "PT0H",
        dueAt: null,
        updatedAt: startedAt,
      },
      {
        legKey: "redeem",
        status: "processing",
        outcome: null,
        amount: 300,
        positionKeys: ["tbills"],
        maxProcessingTime: "PT24H",
        dueAt,
        updatedAt: startedAt,
      },
    ]);

    await m.advance(DAY_MS);
    const after = await m.t.api("GET", `/_console/api/wallets/${walletId}/withdrawals`);
    expect(after.body.data[0].status).toBe("completed");
    expect(after.body.data[0].legTimes[1]).toMatchObject({
      status: "completed",
      dueAt: null,
      updatedAt: dueAt,
    });
  });

  test("a failed withdrawal tells the leg that failed from the legs only returned with it", async () => {
    const walletId = await fundedWallet(m, 1000, [
      { positionKey: "tbills", targetWeightBps: 5000 },
      { positionKey: "resolvRlp", targetWeightBps: 5000 },
    ]);
    const armed = await m.t.api("POST", "/_sandbox/faults/withdrawal-leg", {
      body: { walletId, legKey: "redeem", reason: "bridge outage" },
    });
    expect(armed.status).toBe(201);
    const created = await m.t.api("POST", `/v2/portfolio-wallets/${walletId}/withdraw`, {
      body: withdrawBody(900),
    });
    expect(created.status).toBe(201);
    await m.advance(DAY_MS);
    const { body } = await m.t.api("GET", `/_console/api/wallets/${walletId}/withdrawals`);
    const [withdrawal] = body.data;
    expect(withdrawal.status).toBe("failed");
    expect(withdrawal.failureReason).toMatch(/^payout leg redeem_PT24H failed: bridge outage; /);
    // Both stopped legs read `failed` publicly; only the first failed, the other was returned.
    expect(
      withdrawal.legTimes.map((leg: { legKey: string; status: string; outcome: string | null }) => [
        leg.legKey,
        leg.status,
        leg.outcome,
      ]),
    ).toEqual([
      ["redeem_PT24H", "failed", "failed"],
      ["redeem_PT168H", "failed", "returned"],
    ]);
  });

  test("withdrawal pages follow the public list's cursors", async () => {
    const walletId = await fundedWallet(m, 1000, POSITIONS);
    for (let i = 0; i < 3; i += 1) {
      expect(
        (await m.t.api("POST", `/v2/portfolio-wallets/${walletId}/withdraw`, { body: withdrawBody(1) }))
          .status,
      ).toBe(201);
      await m.advance(1);
    }
    const publicPage = await m.t.api("GET", `/v2/portfolio-wallets/${walletId}/withdrawals?pageSize=2`);
    const page = await m.t.api("GET", `/_console/api/wallets/${walletId}/withdrawals?pageSize=2`);
    expect(page.body.data.map((w: { id: string }) => w.id)).toEqual(
      publicPage.body.data.map((w: { id: string }) => w.id),
    );
    expect(page.body.nextCursor).toBe(publicPage.body.nextCursor);
    const next = await m.t.api(
      "GET",
      `/_console/api/wallets/${walletId}/withdrawals?pageSize=2&cursor=${encodeURIComponent(page.body.nextCursor)}`,
    );
    expect(next.body.data).toHaveLength(1);
    expect(next.body.nextCursor).toBeNull();
  });
});

describe("console requests (X-Sandbox-Console)", () => {
  test("are neither counted nor faulted, so watching in the console changes nothing a test sees", async () => {
    const walletId = await fundedWallet(m, 100, POSITIONS);
    await m.t.api("DELETE", "/_sandbox/request-counts");
    const armed = await m.t.api("POST", "/_sandbox/faults", {
      body: { method: "GET", path: "/v2/portfolio-wallets/:id", kind: "status", status: 503, times: 1 },
    });
    expect(armed.status).toBe(201);

    const fromConsole = await m.t.api("GET", `/v2/portfolio-wallets/${walletId}`, {
      headers: { "X-Sandbox-Console": "1" },
    });
    expect(fromConsole.status).toBe(200);
    expect((await m.t.api("GET", "/_sandbox/request-counts")).body.counts).toEqual({});

    // The fault is still armed for the client it was meant for, and that client is counted.
    expect((await m.t.api("GET", `/v2/portfolio-wallets/${walletId}`)).status).toBe(503);
    expect((await m.t.api("GET", "/_sandbox/request-counts")).body.counts).toEqual({
      "GET /v2/portfolio-wallets/:id": 1,
    });
    await m.t.api("DELETE", "/_sandbox/faults");
  });

  test("still need the API token and see only its organization", async () => {
    const walletId = await fundedWallet(m, 100, POSITIONS);
    const headers = { "X-Sandbox-Console": "1" };
    expect((await m.t.api("GET", `/v2/portfolio-wallets/${walletId}`, { token: null, headers })).status).toBe(
      401,
    );
    expect(
      (await m.t.api("GET", `/v2/portfolio-wallets/${walletId}`, { token: OTHER_TOKEN, headers })).status,
    ).toBe(404);
  });
});

describe("console page and files", () => {
  test("/_console serves the page to a browser without a token, with a strict content security policy", async () => {
    const redirect = await fetch(`${m.t.url}/_console`, { redirect: "manual" });
    expect(redirect.status).toBe(302);
    expect(redirect.headers.get("location")).toBe("/_console/");
    for (const path of ["/_console/", "/_console/wallets", `/_console/wallets/${uuid()}/withdrawals`]) {
      const res = await fetch(`${m.t.url}${path}`);
      expect(res.status, path).toBe(200);
      expect(res.headers.get("content-type")).toBe("text/html; charset=utf-8");
      expect(res.headers.get("cache-control")).toBe("no-store");
      const csp = res.headers.get("content-security-policy") ?? "";
      expect(csp).toContain("default-src 'none'");
      expect(csp).toContain("script-src 'self'");
      expect(csp).toContain("connect-src 'self'");
      expect(csp).toContain("frame-ancestors 'none'");
      expect(res.headers.get("referrer-policy")).toBe("no-referrer");
      const html = await res.text();
      expect(html).toContain('<script type="module" src="/_console/assets/console.js"></script>');
      // Nothing from outside the sandbox.
      expect(html).not.toMatch(/(?:src|href)="(?:https?:)?\/\//);
    }
  });

  test("serves its scripts and styles, and nothing else from the disk", async () => {
    const script = await fetch(`${m.t.url}/_console/assets/console.js`);
    expect(script.status).toBe(200);
    expect(script.headers.get("content-type")).toBe("text/javascript; charset=utf-8");
    expect(script.headers.get("x-content-type-options")).toBe("nosniff");
    const styles = await fetch(`${m.t.url}/_console/assets/console.css`);
    expect(styles.headers.get("content-type")).toBe("text/css; charset=utf-8");
    for (const path of [
      "/_console/assets/nothing.js",
      "/_console/assets/../consolePages.ts",
      "/_console/assets/%2e%2e/%2e%2e/consoleApi.ts",
      "/_console/assets/js/..%2f..%2f..%2fpackage.json",
      "/_console/assets/..%2fsrc%2fmain.js",
      "/_console/assets/%2e%2e%2fsrc/format.js",
    ]) {
      const res = await fetch(`${m.t.url}${path}`);
      const text = await res.text();
      expect(text, path).not.toContain("import ");
      expect(text, path).not.toContain('"name"');
    }
  });

  test("an unknown console API path is a 404 after authentication, not the page", async () => {
    expect((await m.t.api("GET", "/_console/api/nothing", { token: null })).status).toBe(401);
    const res = await m.t.api("GET", "/_console/api/nothing");
    expect(res.status).toBe(404);
    expect(res.body.error.code).toBe("not_found");
  });
});

test("a deposit shows up in the console's reads as the public API shows it", async () => {
  const walletId = await fundedWallet(m, 100, POSITIONS);
  await deposit(m, walletId, 50);
  await m.advance(DEPOSIT_DELAY_MS);
  const wallet = await m.t.api("GET", `/v2/portfolio-wallets/${walletId}`, {
    headers: { "X-Sandbox-Console": "1" },
  });
  expect(wallet.body.totalBalanceUsd).toBe(150);
});

describe("console API: a wallet's deposits with each leg's amount", () => {
  type Leg = { legKey: string; status: string; amount: number | null };
  const readDeposits = async (walletId: string, query = "") =>
    (await m.t.api("GET", `/_console/api/wallets/${walletId}/deposits${query}`)).body as {
      data: {
        id: string;
        amountUsd: number;
        status: string;
        legStatuses: Record<string, string>;
        legs: Leg[];
      }[];
      nextCursor: string | null;
    };

  test("a completed deposit's legs carry what the ledger routed to each position, summing to its amount", async () => {
    const walletId = await fundedWallet(m, 100, POSITIONS);
    const pending = await deposit(m, walletId, 33.333333);
    // While processing, the split is not made yet: statuses, no amounts.
    const before = await readDeposits(walletId);
    expect(before.data[0]!.id).toBe(pending.id);
    expect(before.data[0]!.legs.map((leg) => leg.amount)).toEqual([null, null]);
    await m.advance(DEPOSIT_DELAY_MS);
    const { data } = await readDeposits(walletId);
    const publicList = await m.t.api("GET", `/v2/portfolio-wallets/${walletId}/deposits`);
    expect(data.map(({ legs: _legs, ...rest }) => rest)).toEqual(publicList.body.data);
    for (const d of data) {
      expect(d.status).toBe("completed");
      const micros = d.legs.reduce((sum, leg) => sum + Math.round((leg.amount ?? NaN) * 1e6), 0);
      expect(micros, d.id).toBe(Math.round(d.amountUsd * 1e6));
      for (const leg of d.legs) expect(leg.status).toBe(d.legStatuses[leg.legKey]);
    }
    // 60/40 of 33.333333 in micros, the odd micro to the larger remainder.
    expect(data[0]!.legs).toEqual([
      { legKey: "tbills", status: "completed", amount: 20 },
      { legKey: "syrupUsdc", status: "completed", amount: 13.333333 },
    ]);
    expect(data[1]!.legs).toEqual([
      { legKey: "tbills", status: "completed", amount: 60 },
      { legKey: "syrupUsdc", status: "completed", amount: 40 },
    ]);
  });

  test("a leg whose share rounds to nothing is skipped with 0; pages follow the public cursors; other organizations see 404", async () => {
    const walletId = await fundedWallet(m, 100, POSITIONS);
    await deposit(m, walletId, 0.000001);
    await m.advance(DEPOSIT_DELAY_MS);
    const first = await readDeposits(walletId, "?pageSize=1");
    expect(first.data[0]!.amountUsd).toBe(0.000001);
    expect(first.data[0]!.legs).toEqual([
      { legKey: "tbills", status: "completed", amount: 0.000001 },
      { legKey: "syrupUsdc", status: "skipped", amount: 0 },
    ]);
    const second = await readDeposits(
      walletId,
      `?pageSize=1&cursor=${encodeURIComponent(first.nextCursor!)}`,
    );
    expect(second.data[0]!.amountUsd).toBe(100);
    expect(
      (await m.t.api("GET", `/_console/api/wallets/${walletId}/deposits`, { token: OTHER_TOKEN })).status,
    ).toBe(404);
  });
});

describe("console API: a webhook delivery in detail, and redelivered", () => {
  test("shows the event's body and the headers attempts send; redelivers it as a new delivery of the same event while the registration is active", async () => {
    const w = await startMoneySandbox({ allowPrivateWebhookUrls: true });
    const receiver = await startReceiver(() => 200);
    try {
      const hook = await w.t.api("POST", "/webhooks/registrations", {
        body: { url: receiver.url, eventTypes: ["portfolio_wallet.balance.updated"] },
      });
      expect(hook.status).toBe(201);
      await fundedWallet(w, 100, POSITIONS);
      const deliveries = async () =>
        (await w.t.api("GET", "/_console/api/webhook-deliveries?limit=100")).body.data as {
          id: string;
          eventId: string;
          status: string;
        }[];
      await eventually(async () => (await deliveries()).some((d) => d.status === "succeeded"));
      const [first] = (await deliveries()).filter((d) => d.status === "succeeded");
      const sent = receiver.requests.find((r) => r.headers["x-portfolio-event-id"] === first!.eventId)!;

      const detail = await w.t.api("GET", `/_console/api/webhook-deliveries/${first!.id}`);
      expect(detail.status).toBe(200);
      // The body exactly as the receiver got it, and the headers it got, by name.
      expect(detail.body.payload).toEqual(JSON.parse(sent.body));
      const names = detail.body.headers.map((header: { name: string }) => header.name);
      for (const name of ["x-portfolio-event-id", "x-portfolio-timestamp", "x-portfolio-signature"]) {
        expect(names).toContain(name);
        expect(sent.headers[name]).toBeDefined();
      }
      expect(detail.body.headers).toContainEqual({ name: "x-portfolio-event-id", value: first!.eventId });
      expect(
        (await w.t.api("GET", `/_console/api/webhook-deliveries/${first!.id}`, { token: OTHER_TOKEN }))
          .status,
      ).toBe(404);

      const before = receiver.requests.length;
      const again = await w.t.api("POST", `/_console/api/webhook-deliveries/${first!.id}/redeliver`);
      expect(again.status).toBe(201);
      expect(again.body).toMatchObject({ eventId: first!.eventId, status: "pending", attempts: 0 });
      expect(again.body.id).not.toBe(first!.id);
      await eventually(async () => receiver.requests.length > before);
      const replay = receiver.requests.at(-1)!;
      expect(replay.headers["x-portfolio-event-id"]).toBe(first!.eventId);
      expect(replay.body).toBe(sent.body);
      await eventually(
        async () => (await deliveries()).find((d) => d.id === again.body.id)?.status === "succeeded",
      );
      // The original keeps its own history.
      expect((await deliveries()).find((d) => d.id === first!.id)?.status).toBe("succeeded");

      expect(
        (
          await w.t.api("POST", `/_console/api/webhook-deliveries/${first!.id}/redeliver`, {
            token: OTHER_TOKEN,
          })
        ).status,
      ).toBe(404);
      await w.t.api("PATCH", `/webhooks/registrations/${hook.body.id}/status`, {
        body: { status: "disabled" },
      });
      const refused = await w.t.api("POST", `/_console/api/webhook-deliveries/${first!.id}/redeliver`);
      expect(refused.status).toBe(409);
      expect(refused.body.error.message).toContain("its registration is disabled: enable it first");
    } finally {
      await receiver.close();
      await w.close();
    }
  });
});

describe("console API: a wallet over time", () => {
  test("its history, replayed from the ledger, ends at the wallet's figures, and steps at each booking", async () => {
    const walletId = await fundedWallet(m, 1000, POSITIONS);
    await m.advance(DAY_MS);
    // A withdrawal books the accrual up to now: with the clock still, the ledger is whole.
    expect(
      (await m.t.api("POST", `/v2/portfolio-wallets/${walletId}/withdraw`, { body: withdrawBody(300) }))
        .status,
    ).toBe(201);
    const { body: history } = await m.t.api("GET", `/_console/api/wallets/${walletId}/history`);
    const { body: wallet } = await m.t.api("GET", `/v2/portfolio-wallets/${walletId}`);
    const { body: metrics } = await m.t.api("POST", "/v2/portfolio-wallets/yield", {
      body: { portfolioWalletIds: [walletId] },
    });
    expect(history.truncated).toBe(false);
    const points = history.points as {
      at: string;
      balanceUsd: number;
      yieldGeneratedUsd: number;
      positions: Record<string, number>;
    }[];
    expect(points.length).toBeGreaterThanOrEqual(3);
    // Oldest first, one point per moment.
    const times = points.map((point) => point.at);
    expect([...times].sort()).toEqual(times);
    expect(new Set(times).size).toBe(times.length);
    // The deposit, detected then invested by target weight.
    expect(points[0]).toMatchObject({ balanceUsd: 1000, yieldGeneratedUsd: 0 });
    const last = points.at(-1)!;
    expect(last.balanceUsd).toBe(wallet.totalBalanceUsd);
    for (const position of wallet.positions as { positionKey: string; valueUsd: number }[])
      expect(last.positions[position.positionKey], position.positionKey).toBe(position.valueUsd);
    expect(last.yieldGeneratedUsd).toBe(metrics.portfolioWallets[walletId].generated);
    expect(last.yieldGeneratedUsd).toBeGreaterThan(0);
    expect(
      (await m.t.api("GET", `/_console/api/wallets/${walletId}/history`, { token: OTHER_TOKEN })).status,
    ).toBe(404);
  });
});
