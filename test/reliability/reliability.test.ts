// The sandbox's reliability suite (issue 10): a bad-input matrix over every endpoint, races,
// kill -9 during a write burst, outbox growth and a noisy neighbour. Bounded loops, loopback only,
// no timed assertion but the two relative bounds docs/sandbox.md states (outbox insert cost, a
// neighbour's effect on p95). It prints a figures table at the end. Defect regressions are in
// defects.test.ts.
import { spawn, type ChildProcess } from "node:child_process";
import { once } from "node:events";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { createManualClock, startSandbox, type Sandbox, type SandboxOptions } from "../../sandbox/index.ts";
import { generateTurnkeyApiKeyPair } from "../sdk/approval/turnkeyKeys.ts";
import { eventually } from "../sandbox/helpers.ts";
import { startReceiver, type Receiver } from "../sandbox/domain/events/harness/receiver.ts";
import { fundedWallet, type SandboxAccess } from "../support/sandboxAccess.ts";
import {
  BAD_BODIES,
  BAD_IDS,
  BAD_QUERY_VALUES,
  BAD_VALUES,
  ENDPOINTS,
  type Endpoint,
} from "./badInputMatrix.ts";
import { Figures } from "./figures.ts";
import { OutboxFixture } from "./outboxInsertCost.ts";
import { p95, pool, send, type Answer } from "./http.ts";

const figures = new Figures();
afterAll(() => {
  console.log(`\nsandbox reliability figures\n${figures.table()}\n`);
});

const ADMIN_TOKEN = "reliability-admin-token-5b1e";
/** org-b's own admin token (docs/sandbox.md "Admin token"): it must open nothing of org-a's. */
const ORG_B_ADMIN_TOKEN = "reliability-org-b-admin-token-77c2";
const A = "token-a";
const B = "token-b";
const EVM = "0x52908400098527886E0F7030069857D2E4169EE7";
const ORG_B_DESTINATION = "0x00000000000000000000000000000000000b0b0b";
const MAX_ANSWER_BYTES = 64 * 1024;

function headersFor(token: string | null, admin: string | null, contentType: string | null = null) {
  const headers: Record<string, string> = {};
  if (token !== null) headers["authorization"] = `Bearer ${token}`;
  if (admin !== null) headers["x-sandbox-admin-token"] = admin;
  if (contentType !== null) headers["content-type"] = contentType;
  return headers;
}

/** A client of one organization against a sandbox URL (admin token sent on every call). */
const accessOf = (url: string, token: string): SandboxAccess => ({ url, token, adminToken: ADMIN_TOKEN });

function clientOf(url: string, token: string) {
  return async (method: string, path: string, body?: unknown): Promise<Answer> =>
    send(url, method, path, {
      headers: headersFor(token, ADMIN_TOKEN, body === undefined ? null : "application/json"),
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
}

/** An in-memory sandbox of org-a (token A) and org-b (token B) that requires the admin token. */
function twoOrganizationSandbox(options: SandboxOptions = {}): Promise<Sandbox> {
  return startSandbox({
    port: 0,
    dataDir: ":memory:",
    tokens: { [A]: "org-a", [B]: "org-b" },
    adminToken: ADMIN_TOKEN,
    organizationAdminTokens: { [ORG_B_ADMIN_TOKEN]: "org-b" },
    depositProcessingDelayMs: 0,
    ...options,
  });
}

const withdrawBody = (amount: number, destination = EVM, requestId = randomUUID()) => ({
  requestId,
  withdrawalAmount: amount,
  destinationToken: "usdc",
  destinationChain: "ethereum",
  destinationAddress: destination,
});

/** The console's request log (sandbox/domain/requestLog.ts): it answers the caller's own requests. */
const REQUEST_LOG_PATH = "/_console/api/requests";

describe("bad-input matrix", () => {
  let sandbox: Sandbox;
  const ids: Record<"own" | "other", Record<string, string>> = { own: {}, other: {} };
  let orgBMarkers: string[] = [];

  beforeAll(async () => {
    sandbox = await twoOrganizationSandbox({
      clock: createManualClock(new Date("2026-03-01T00:00:00.000Z")),
      policies: {
        "org-a": { withdrawalApprovals: 1 },
        "org-b": { withdrawalApprovals: 1, strategyUpdateApprovals: 1 },
      },
    });
    for (const [side, token] of [
      ["own", A],
      ["other", B],
    ] as const) {
      const api = clientOf(sandbox.url, token);
      const label = side === "other" ? "ORGB-LABEL-7f3a" : "org-a wallet";
      const { wallet, depositId } = await fundedWallet(accessOf(sandbox.url, token), 1000, {
        positions: [{ positionKey: "syrupUsdc", targetWeightBps: 10000 }],
        label,
      });
      await api("POST", "/_sandbox/clock/advance", { ms: 1 });
      const withdrawal = await api(
        "POST",
        `/v2/portfolio-wallets/${wallet.id}/withdraw`,
        withdrawBody(10, side === "other" ? ORG_B_DESTINATION : EVM),
      );
      expect(withdrawal.status).toBe(201);
      const update = await api("PATCH", `/v2/portfolio-wallets/${wallet.id}/strategy`, {
        requestId: randomUUID(),
        positions: [{ positionKey: "tbills", targetWeightBps: 10000 }],
      });
      expect(update.status).toBe(200);
      const webhook = await api("POST", "/webhooks/registrations", {
        url: side === "other" ? "https://orgb-marker.example.com/hooks" : "https://example.com/hooks",
        eventTypes: ["portfolio_wallet.balance.updated"],
        description: side === "other" ? "ORGB-DESC-7f3a" : "org-a hook",
      });
      expect(webhook.status).toBe(201);
      const keys = generateTurnkeyApiKeyPair();
      const key = await api("POST", "/_sandbox/signing/api-keys", {
        publicKey: keys.apiPublicKey,
        userName: `${side}-approver-7f3a`,
      });
      expect(key.status).toBe(201);
      // A fault that nothing triggers (no request goes to its path), to disarm by id.
      const fault = await api("POST", "/_sandbox/faults", {
        method: "GET",
        path: "/v2/never-requested-7f3a",
        kind: "status",
        status: 503,
      });
      expect(fault.status).toBe(201);
      ids[side] = {
        wallet: wallet.id,
        fault: fault.json.id,
        // No real delivery: redelivering one would send it to these registrations' example.com
        // URLs, and tests send nothing off loopback. Unknown ids, each organization's its own.
        delivery: randomUUID(),
        deposit: depositId,
        withdrawal: withdrawal.json.id,
        webhook: webhook.json.id,
        activity: withdrawal.json.signingActivityId,
        update: update.json.id ?? randomUUID(),
        positionKey: "tbills",
        publicKey: keys.apiPublicKey,
        // Each organization's own inbox of this name: the URL names no organization.
        inbox: "reliability",
      };
      if (side === "other") {
        orgBMarkers = [
          "ORGB-LABEL-7f3a",
          "ORGB-DESC-7f3a",
          "orgb-marker.example.com",
          "other-approver-7f3a",
          ORG_B_DESTINATION,
          webhook.json.secret,
          wallet.depositAddresses.ethereum.address,
          ...Object.values(ids.other).filter((id) => id !== "tbills"),
        ];
      }
    }
  });
  afterAll(() => sandbox.close());

  test("every endpoint answers every bad input with a small 4xx, and never with another organization's data", async () => {
    type Case = {
      method: string;
      path: string;
      headers: Record<string, string>;
      body?: string;
      /** The one status the case must get, when the oracle is stricter than "a small 4xx". */
      status?: number;
    };
    const cases: Case[] = [];
    const fill = (endpoint: Endpoint, values: Record<string, string>) =>
      endpoint.path.replace(/\{(\w+)\}/g, (_, name: string) =>
        encodeURI(values[name] ?? "x").replaceAll("%25", "%"),
      );
    for (const endpoint of ENDPOINTS) {
      const json = headersFor(A, ADMIN_TOKEN, "application/json");
      const own = fill(endpoint, ids.own);
      const placeholders = [...endpoint.path.matchAll(/\{(\w+)\}/g)].map((m) => m[1] ?? "");
      // Path parameters: another organization's ids, and things that are no id at all.
      for (const name of placeholders) {
        for (const value of [ids.other[name] ?? "x", ...BAD_IDS]) {
          cases.push({
            method: endpoint.method,
            path: fill(endpoint, { ...ids.own, [name]: value }),
            headers: json,
            ...(endpoint.method === "GET" || endpoint.method === "DELETE" ? {} : { body: "{}" }),
          });
        }
      }
      // Credentials: none, a wrong API token, no or a wrong admin token.
      cases.push({ method: endpoint.method, path: own, headers: headersFor(null, ADMIN_TOKEN) });
      cases.push({ method: endpoint.method, path: own, headers: headersFor("nope", ADMIN_TOKEN) });
      cases.push({ method: endpoint.method, path: own, headers: headersFor(A, null) });
      cases.push({ method: endpoint.method, path: own, headers: headersFor(A, "wrong") });
      // Another organization's admin token, with or without a body: refused before anything is read.
      if (endpoint.admin === true)
        for (const body of endpoint.method === "GET" || endpoint.method === "DELETE"
          ? [undefined]
          : [undefined, "{}"])
          cases.push({
            method: endpoint.method,
            path: own,
            headers: headersFor(A, ORG_B_ADMIN_TOKEN, "application/json"),
            ...(body === undefined ? {} : { body }),
            status: 403,
          });
      // Queries.
      for (const name of endpoint.query ?? ["pageSize"]) {
        for (const value of BAD_QUERY_VALUES) {
          cases.push({
            method: endpoint.method,
            path: `${own}?${name}=${encodeURIComponent(value)}`,
            headers: json,
          });
        }
      }
      if (endpoint.method === "GET" || endpoint.method === "DELETE") continue;
      // Whole bodies.
      for (const [contentType, raw] of BAD_BODIES) {
        cases.push({
          method: endpoint.method,
          path: own,
          headers: headersFor(A, ADMIN_TOKEN, contentType),
          body: raw,
        });
      }
      cases.push({
        method: endpoint.method,
        path: own,
        headers: json,
        body: JSON.stringify({ pad: "p".repeat(1_100_000) }),
      });
      // Each field with each bad value, alone and all at once.
      for (const field of endpoint.fields ?? []) {
        for (const value of BAD_VALUES)
          cases.push({
            method: endpoint.method,
            path: own,
            headers: json,
            body: JSON.stringify({ [field]: value }),
          });
      }
      for (const value of BAD_VALUES) {
        const all = Object.fromEntries((endpoint.fields ?? []).map((field) => [field, value]));
        cases.push({ method: endpoint.method, path: own, headers: json, body: JSON.stringify(all) });
      }
    }

    let largest = 0;
    const answers = await pool(
      cases.map((c) => async () => {
        const answer = await send(sandbox.url, c.method, c.path, {
          headers: c.headers,
          ...(c.body === undefined ? {} : { body: c.body }),
        });
        return { c, answer };
      }),
      8,
    );
    const problems: string[] = [];
    for (const { c, answer } of answers) {
      figures.record("bad-input matrix", answer.status);
      largest = Math.max(largest, answer.text.length);
      const sent = `${c.path} ${c.body ?? ""}`;
      // The request log answers org-a's own earlier requests, among them this matrix's paths that
      // name org-b's ids: those ids are what org-a sent, not org-b's data. Its content markers
      // (labels, descriptions, URLs, the secret, addresses) org-a never sends, so they still count.
      const orgBIds = Object.values(ids.other);
      const markers = c.path.startsWith(REQUEST_LOG_PATH)
        ? orgBMarkers.filter((marker) => !orgBIds.includes(marker))
        : orgBMarkers;
      const leaked = markers.filter((marker) => answer.text.includes(marker) && !sent.includes(marker));
      if (leaked.length > 0) figures.group("bad-input matrix").leaks += 1;
      const ok =
        typeof answer.status === "number" &&
        answer.status < 500 &&
        (c.status === undefined || answer.status === c.status) &&
        answer.text.length <= MAX_ANSWER_BYTES &&
        leaked.length === 0;
      if (!ok && problems.length < 10) {
        problems.push(
          `${c.method} ${c.path.slice(0, 120)} ${String(c.body).slice(0, 80)} → ${answer.status} ${answer.text.slice(0, 200)} ${leaked.join(",")}`,
        );
      }
    }
    figures.group("bad-input matrix").notes.push(`largest answer ${largest} bytes`);
    expect(problems).toEqual([]);

    // The sandbox still serves both organizations (once a tiny rate limit the matrix may have set
    // is lifted), and no money moved wrongly.
    for (const token of [A, B]) {
      const api = clientOf(sandbox.url, token);
      expect((await api("PUT", "/_sandbox/rate-limit", { requestsPerSecond: null })).status).toBe(200);
      expect((await api("GET", "/v2/portfolio-wallets")).status).toBe(200);
      const ledger = await api("GET", "/_sandbox/ledger");
      expect(ledger.status).toBe(200);
      expect(ledger.json.total.discrepancyMicros).toBe(0);
    }
    expect(Object.prototype).not.toHaveProperty("polluted");
  });
});

describe("races", () => {
  let sandbox: Sandbox;
  beforeAll(async () => {
    sandbox = await twoOrganizationSandbox({
      clock: createManualClock(new Date("2026-03-01T00:00:00.000Z")),
      policies: { "org-b": { strategyUpdateApprovals: 1 } },
    });
  });
  afterAll(() => sandbox.close());
  const record = (answers: Answer[]) => answers.forEach((a) => figures.record("races", a.status));

  test("fifty concurrent withdrawals on one wallet never overdraw it", async () => {
    const api = clientOf(sandbox.url, A);
    const { wallet } = await fundedWallet(accessOf(sandbox.url, A), 1000, {
      positions: [{ positionKey: "syrupUsdc", targetWeightBps: 10000 }],
    });
    await api("POST", "/_sandbox/clock/advance", { ms: 1 });
    const answers = await Promise.all(
      Array.from({ length: 50 }, () =>
        api("POST", `/v2/portfolio-wallets/${wallet.id}/withdraw`, withdrawBody(30)),
      ),
    );
    record(answers);
    const accepted = answers.filter((a) => a.status === 201).length;
    expect(accepted).toBe(33);
    expect(answers.filter((a) => a.status === 422).length).toBe(17);
    const after = await api("GET", `/v2/portfolio-wallets/${wallet.id}`);
    expect(after.json.totalBalanceUsd).toBe(10);
    expect((await api("GET", "/_sandbox/ledger")).json.total.discrepancyMicros).toBe(0);
  });

  test("concurrent requests with one requestId create one resource", async () => {
    const api = clientOf(sandbox.url, A);
    const body = {
      requestId: randomUUID(),
      positions: [{ positionKey: "syrupUsdc", targetWeightBps: 10000 }],
    };
    const wallets = await Promise.all(
      Array.from({ length: 20 }, () => api("POST", "/v2/portfolio-wallets", body)),
    );
    record(wallets);
    expect(new Set(wallets.map((w) => w.json.id)).size).toBe(1);
    expect(wallets.map((w) => w.status).sort((x, y) => Number(x) - Number(y))).toEqual([
      ...Array<number>(19).fill(200),
      201,
    ]);

    const walletId = wallets[0]?.json.id as string;
    await api("POST", "/_sandbox/deposits", {
      chain: "ethereum",
      address: wallets[0]?.json.depositAddresses.ethereum.address,
      amount: 100,
      txHash: "0xrace",
    });
    await api("POST", "/_sandbox/clock/advance", { ms: 1 });
    const withdraw = withdrawBody(5);
    const withdrawals = await Promise.all(
      Array.from({ length: 20 }, () => api("POST", `/v2/portfolio-wallets/${walletId}/withdraw`, withdraw)),
    );
    record(withdrawals);
    expect(new Set(withdrawals.map((w) => w.json.id)).size).toBe(1);
    expect((await api("GET", `/v2/portfolio-wallets/${walletId}`)).json.totalBalanceUsd).toBe(95);
    const deposits = await Promise.all(
      Array.from({ length: 20 }, () =>
        api("POST", "/_sandbox/deposits", {
          chain: "ethereum",
          address: wallets[0]?.json.depositAddresses.ethereum.address,
          amount: 100,
          txHash: "0xrace",
        }),
      ),
    );
    record(deposits);
    expect(deposits.every((d) => d.status === 200 && d.json.id === deposits[0]?.json.id)).toBe(true);
  });

  test("concurrent strategy PATCHes leave exactly one update open", async () => {
    for (const token of [A, B]) {
      const api = clientOf(sandbox.url, token);
      const { wallet } = await fundedWallet(accessOf(sandbox.url, token), 100, {
        positions: [{ positionKey: "syrupUsdc", targetWeightBps: 10000 }],
      });
      const patches = await Promise.all(
        Array.from({ length: 20 }, (_, i) =>
          api("PATCH", `/v2/portfolio-wallets/${wallet.id}/strategy`, {
            requestId: randomUUID(),
            positions: [
              { positionKey: "tbills", targetWeightBps: 100 + i },
              { positionKey: "syrupUsdc", targetWeightBps: 9900 - i },
            ],
          }),
        ),
      );
      record(patches);
      expect(patches.every((p) => p.status === 200 || p.status === 409)).toBe(true);
      const updates = await Promise.all(
        patches
          .filter((p) => p.status === 200)
          .map((p) => api("GET", `/_sandbox/strategy-updates/${p.json.id}`)),
      );
      const open = updates.filter(
        (u) => u.json.status === "processing" || u.json.status === "pending_approval",
      );
      expect(open).toHaveLength(1);
    }
  });
});

describe("kill -9 during a write burst", () => {
  const dataDir = mkdtempSync(join(tmpdir(), "sandbox-kill9-"));
  const children: ChildProcess[] = [];
  afterAll(async () => {
    for (const child of children)
      if (child.exitCode === null && child.signalCode === null) child.kill("SIGKILL");
    rmSync(dataDir, { recursive: true, force: true });
  });

  async function startChild(): Promise<{ child: ChildProcess; url: string }> {
    const child = spawn(process.execPath, ["cli/main.ts", "sandbox", "--port", "0", "--data", dataDir], {
      env: { ...process.env, SANDBOX_TOKENS: `${A}=org-k`, SANDBOX_ADMIN_TOKEN: ADMIN_TOKEN },
      stdio: ["ignore", "pipe", "pipe"],
    });
    children.push(child);
    const url = await new Promise<string>((resolve, reject) => {
      let stdout = "";
      child.stdout?.on("data", (chunk: Buffer) => {
        stdout += chunk.toString();
        const line = stdout.split("\n")[0] ?? "";
        if (stdout.includes("\n")) resolve(line.replace("listening on ", ""));
      });
      child.once("exit", (code) => reject(new Error(`sandbox exited with ${code}`)));
    });
    return { child, url };
  }

  test("every acknowledged write is there after a restart", async () => {
    const first = await startChild();
    const api = clientOf(first.url, A);
    // The child sandbox processes deposits after its default delay of a second of sandbox time.
    const { wallet } = await fundedWallet(accessOf(first.url, A), 1, {
      positions: [{ positionKey: "tbills", targetWeightBps: 10000 }],
      settleMs: 60_000,
    });
    const acknowledged: { kind: "wallet" | "deposit"; id: string }[] = [];
    let killed = false;
    const tasks = Array.from({ length: 400 }, (_, i) => async () => {
      if (killed) return;
      const answer =
        i % 2 === 0
          ? await api("POST", "/v2/portfolio-wallets", {
              requestId: randomUUID(),
              positions: [{ positionKey: "tbills", targetWeightBps: 10000 }],
            })
          : await api("POST", "/_sandbox/deposits", {
              chain: "ethereum",
              address: wallet.depositAddresses.ethereum.address,
              amount: 1,
              txHash: `0x${randomUUID().replaceAll("-", "")}`,
            });
      figures.record("kill -9 and restart", answer.status);
      if (answer.status === 201)
        acknowledged.push({ kind: i % 2 === 0 ? "wallet" : "deposit", id: answer.json.id });
      if (!killed && acknowledged.length >= 150) {
        killed = true;
        first.child.kill("SIGKILL");
      }
    });
    await pool(tasks, 16);
    if (!killed) first.child.kill("SIGKILL");
    if (first.child.exitCode === null && first.child.signalCode === null) await once(first.child, "exit");
    expect(first.child.signalCode).toBe("SIGKILL");

    const second = await startChild();
    const after = clientOf(second.url, A);
    let lost = 0;
    for (const write of acknowledged) {
      const path =
        write.kind === "wallet"
          ? `/v2/portfolio-wallets/${write.id}`
          : `/v2/portfolio-wallets/${wallet.id}/deposits/${write.id}`;
      if ((await after("GET", path)).status !== 200) lost += 1;
    }
    figures.group("kill -9 and restart").lostWrites += lost;
    figures
      .group("kill -9 and restart")
      .notes.push(`${acknowledged.length} writes acknowledged before kill -9`);
    expect(lost).toBe(0);
    expect(acknowledged.length).toBeGreaterThanOrEqual(150);
    const ledger = await after("GET", "/_sandbox/ledger");
    expect(ledger.json.total.discrepancyMicros).toBe(0);
    second.child.kill("SIGTERM");
    await once(second.child, "exit");
  });
});

describe("outbox growth", () => {
  test("a delivery insert costs the same with 1k and 100k deliveries stored", () => {
    const outbox = new OutboxFixture();
    outbox.fillTo(1_000);
    const small = outbox.perInsertMicros();
    outbox.fillTo(100_000);
    const large = outbox.perInsertMicros();
    outbox.close();
    const group = figures.group("outbox growth");
    group.cases += 2000;
    group.notes.push(
      `per insert: ${small.toFixed(1)} µs at 1k rows, ${large.toFixed(1)} µs at 100k rows (×${(large / small).toFixed(2)})`,
    );
    // Generous: a scan of the table per insert makes this ×50 or more.
    expect(large / small).toBeLessThan(4);
  });
});

describe("noisy neighbour", () => {
  test("one organization's hanging receivers and heavy writes leave another's p95 within the documented bound", async () => {
    const sandbox = await twoOrganizationSandbox({
      allowPrivateWebhookUrls: true,
      webhookDelivery: { timeoutMs: 30_000, maxAttempts: 2 },
    });
    const receivers: Receiver[] = [await startReceiver(() => "hang"), await startReceiver()];
    try {
      const [hanging, live] = receivers as [Receiver, Receiver];
      const a = clientOf(sandbox.url, A);
      const b = clientOf(sandbox.url, B);
      const everything = [{ positionKey: "syrupUsdc", targetWeightBps: 10000 }];
      const { wallet: walletA } = await fundedWallet(accessOf(sandbox.url, A), 1000, {
        positions: everything,
      });
      const { wallet: walletB } = await fundedWallet(accessOf(sandbox.url, B), 1_000_000, {
        positions: everything,
      });
      const readA = async () => {
        const started = performance.now();
        const answer = await a("GET", `/v2/portfolio-wallets/${walletA.id}`);
        figures.record("noisy neighbour", answer.status);
        return performance.now() - started;
      };
      const quiet: number[] = [];
      for (let i = 0; i < 100; i++) quiet.push(await readA());

      for (let i = 0; i < 20; i++) {
        await b("POST", "/webhooks/registrations", {
          url: `${hanging.url}?n=${i}`,
          eventTypes: ["portfolio_wallet.balance.updated", "portfolio_wallet.withdrawal.status_changed"],
        });
      }
      await a("POST", "/webhooks/registrations", {
        url: live.url,
        eventTypes: ["portfolio_wallet.withdrawal.status_changed"],
      });
      let noisy = true;
      const neighbour: number[] = [];
      const noise = pool(
        Array.from({ length: 200 }, () => async () => {
          if (!noisy) return;
          const started = performance.now();
          const answer = await b("POST", `/v2/portfolio-wallets/${walletB.id}/withdraw`, withdrawBody(1));
          neighbour.push(performance.now() - started);
          figures.record("noisy neighbour", answer.status);
        }),
        8,
      );
      await eventually(async () => hanging.requests.length > 0, 10_000);
      const loud: number[] = [];
      for (let i = 0; i < 100; i++) loud.push(await readA());
      // org-a's webhook goes out while org-b's receivers still hang.
      expect((await a("POST", `/v2/portfolio-wallets/${walletA.id}/withdraw`, withdrawBody(1))).status).toBe(
        201,
      );
      await eventually(async () => live.requests.length > 0, 10_000);
      noisy = false;
      await noise;
      const orgBDeliveries = await b("GET", "/_sandbox/webhook-deliveries?limit=1000");
      expect((orgBDeliveries.json.data as { attempts: number }[]).every((d) => d.attempts === 0)).toBe(true);

      const [quietP95, loudP95, neighbourP95] = [p95(quiet), p95(loud), p95(neighbour)];
      figures
        .group("noisy neighbour")
        .notes.push(
          `org-a GET p95 ${quietP95.toFixed(1)} ms quiet, ${loudP95.toFixed(1)} ms beside org-b's 20 hanging receivers and 8-way write burst (org-b's own write p95 ${neighbourP95.toFixed(1)} ms); org-a's webhook delivered while org-b's hung`,
        );
      // docs/sandbox.md: receivers cost nobody anything, and the one event loop is shared fairly: a
      // neighbour's load leaves an organization's p95 within 5 × its quiet p95 + 100 ms, or within
      // the neighbour's own p95 when that is larger (a slower machine).
      expect(loudP95).toBeLessThanOrEqual(Math.max(5 * quietP95 + 100, neighbourP95));
    } finally {
      for (const receiver of receivers) await receiver.close();
      await sandbox.close();
    }
  });
});
