// Regression tests for the defects of issue 10, one describe per defect. Each fails without its fix.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { DatabaseSync } from "node:sqlite";
import { afterAll, describe, expect, test } from "vitest";
import { createManualClock } from "../../sandbox/index.ts";
import { DATABASE_FILE } from "../../sandbox/store/db.ts";
import { OTHER_TOKEN, startTestSandbox, uuid, walletBody, type TestSandbox } from "../sandbox/helpers.ts";

const tempDirs: string[] = [];
afterAll(() => {
  for (const dir of tempDirs) rmSync(dir, { recursive: true, force: true });
});
function tempDir(): string {
  const dir = mkdtempSync(join(tmpdir(), "sandbox-defects-"));
  tempDirs.push(dir);
  return dir;
}

const FIXED_WIDTH_ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;
const YEAR_MS = 365 * 24 * 60 * 60 * 1000;

async function expectHealthy(t: TestSandbox): Promise<void> {
  for (const token of [undefined, OTHER_TOKEN]) {
    const res = await t.api("GET", "/v2/portfolio-wallets", token === undefined ? {} : { token });
    expect(res.status).toBe(200);
  }
}

describe("defect 1: a clock advance can no longer break the sandbox for everyone", () => {
  test("huge, infinite-ish and year-33715 advances are 400s naming the field and the limit; nothing moves", async () => {
    const t = await startTestSandbox();
    try {
      const before = (await t.api("GET", "/_sandbox/clock")).body.offsetMs;
      for (const [body, field] of [
        [{ ms: 9007199254740991 }, "ms"],
        [{ seconds: 1e308 }, "seconds"],
        [{ ms: 1e15 }, "ms"],
      ] as const) {
        const res = await t.api("POST", "/_sandbox/clock/advance", { body });
        expect(res.status, JSON.stringify(body)).toBe(400);
        expect(res.body.error.code).toBe("validation_failed");
        expect(res.body.error.details[0].field).toBe(field);
        expect(res.body.error.details[0].reason).toMatch(/at most/);
      }
      expect((await t.api("GET", "/_sandbox/clock")).body.offsetMs).toBe(before);
      await expectHealthy(t);
    } finally {
      await t.close();
    }
  });

  test("the clock stops at 9999-12-31T23:59:59.999Z and timestamps stay fixed width and in order", async () => {
    const t = await startTestSandbox({ clock: createManualClock(new Date("2026-01-01T00:00:00.000Z")) });
    try {
      const first = (await t.api("POST", "/v2/portfolio-wallets", { body: walletBody() })).body;
      let now = Date.parse((await t.api("GET", "/_sandbox/clock")).body.now);
      const end = Date.UTC(9999, 11, 31, 23, 59, 59, 999);
      while (end - now > 100 * YEAR_MS) {
        const res = await t.api("POST", "/_sandbox/clock/advance", { body: { ms: 100 * YEAR_MS } });
        expect(res.status).toBe(200);
        now = Date.parse(res.body.now);
      }
      const past = await t.api("POST", "/_sandbox/clock/advance", { body: { ms: end - now + 1 } });
      expect(past.status).toBe(400);
      expect(past.body.error.details[0].reason).toMatch(/past 9999-12-31T23:59:59.999Z/);
      const last = await t.api("POST", "/_sandbox/clock/advance", { body: { ms: end - now } });
      expect(last.body.now).toBe("9999-12-31T23:59:59.999Z");
      const second = (await t.api("POST", "/v2/portfolio-wallets", { body: walletBody() })).body;
      expect(second.createdAt).toBe("9999-12-31T23:59:59.999Z");
      const list = (await t.api("GET", "/v2/portfolio-wallets")).body.data as {
        id: string;
        createdAt: string;
      }[];
      expect(list.map((w) => w.id)).toEqual([second.id, first.id]);
      for (const wallet of list) expect(wallet.createdAt).toMatch(FIXED_WIDTH_ISO);
      await expectHealthy(t);
    } finally {
      await t.close();
    }
  });
});

describe("defect 5: the clock offset survives a restart", () => {
  test("after advancing two days and restarting, the offset is kept and new wallets sort after old ones", async () => {
    const dataDir = tempDir();
    const first = await startTestSandbox({ dataDir });
    const twoDays = 2 * 24 * 60 * 60 * 1000;
    expect((await first.api("POST", "/_sandbox/clock/advance", { body: { ms: twoDays } })).status).toBe(200);
    const older = (await first.api("POST", "/v2/portfolio-wallets", { body: walletBody() })).body;
    await first.close();

    const second = await startTestSandbox({ dataDir });
    try {
      expect((await second.api("GET", "/_sandbox/clock")).body.offsetMs).toBeGreaterThanOrEqual(twoDays);
      const newer = (await second.api("POST", "/v2/portfolio-wallets", { body: walletBody() })).body;
      expect(newer.createdAt > older.createdAt).toBe(true);
      const list = (await second.api("GET", "/v2/portfolio-wallets")).body.data as { id: string }[];
      expect(list.map((w) => w.id)).toEqual([newer.id, older.id]);
    } finally {
      await second.close();
    }
  });
});

describe("defect 3: totals of 2^53 micros and more are exact, and bounded", () => {
  async function depositTo(
    t: TestSandbox,
    wallet: { depositAddresses: Record<string, { address: string }> },
    amount: number,
  ) {
    return t.api("POST", "/_sandbox/deposits", {
      body: {
        chain: "ethereum",
        address: wallet.depositAddresses["ethereum"]?.address,
        amount,
        txHash: `0x${uuid().replaceAll("-", "")}`,
      },
    });
  }

  test("ten deposits of 1e9: the ledger answers exact totals; a 9.5e9 withdrawal is a 400 naming the limit", async () => {
    const t = await startTestSandbox({
      clock: createManualClock(new Date("2026-03-01T00:00:00.000Z")),
      depositProcessingDelayMs: 1000,
    });
    try {
      const wallet = (await t.api("POST", "/v2/portfolio-wallets", { body: walletBody() })).body;
      for (let i = 0; i < 10; i++) expect((await depositTo(t, wallet, 1e9)).status).toBe(201);
      await t.api("POST", "/_sandbox/clock/advance", { body: { ms: 1000 } });
      const ledger = await t.api("GET", "/_sandbox/ledger");
      expect(ledger.status).toBe(200);
      expect(ledger.body.total).toMatchObject({ depositsUsd: 1e10, balanceUsd: 1e10, discrepancyMicros: 0 });
      const read = await t.api("GET", `/v2/portfolio-wallets/${wallet.id}`);
      expect(read.body.totalBalanceUsd).toBe(1e10);

      const tooBig = await t.api("POST", `/v2/portfolio-wallets/${wallet.id}/withdraw`, {
        body: {
          requestId: uuid(),
          withdrawalAmount: 9.5e9,
          destinationToken: "usdc",
          destinationChain: "ethereum",
          destinationAddress: "0x52908400098527886E0F7030069857D2E4169EE7",
        },
      });
      expect(tooBig.status).toBe(400);
      expect(tooBig.body.error.details).toEqual([
        { field: "withdrawalAmount", reason: expect.stringMatching(/at most 1000000000 USD/) },
      ]);
      const allowed = await t.api("POST", `/v2/portfolio-wallets/${wallet.id}/withdraw`, {
        body: {
          requestId: uuid(),
          withdrawalAmount: 999_999_999.999999,
          destinationToken: "usdc",
          destinationChain: "ethereum",
          destinationAddress: "0x52908400098527886E0F7030069857D2E4169EE7",
        },
      });
      expect(allowed.status).toBe(201);
      const after = await t.api("GET", "/_sandbox/ledger");
      expect(after.body.total.discrepancyMicros).toBe(0);
      expect(after.body.total.depositsUsd).toBe(1e10);
    } finally {
      await t.close();
    }
  });

  test("a wallet holds at most 1e12 USD: a deposit past it is a 400, and yield stops at it", async () => {
    const dataDir = tempDir();
    const t = await startTestSandbox({
      dataDir,
      clock: createManualClock(new Date("2026-03-01T00:00:00.000Z")),
      depositProcessingDelayMs: 0,
    });
    try {
      const wallet = (await t.api("POST", "/v2/portfolio-wallets", { body: walletBody() })).body;
      expect((await depositTo(t, wallet, 1)).status).toBe(201);
      await t.api("POST", "/_sandbox/clock/advance", { body: { ms: 1 } });
      // Bring the wallet close to the maximum without a thousand deposits.
      const db = new DatabaseSync(join(dataDir, DATABASE_FILE));
      db.prepare(
        "UPDATE wallet_balances SET value_micros = value_micros + ? WHERE wallet_id = ? AND position_key = 'tbills'",
      ).run(999_999_998_999n * 1_000_000n, wallet.id);
      db.prepare(
        "INSERT INTO ledger_entries (organization_id, wallet_id, kind, amount_micros, at) VALUES ('org-a', ?, 'deposit_detected', ?, '2026-03-01T00:00:00.000Z')",
      ).run(wallet.id, 999_999_998_999n * 1_000_000n);
      db.close();

      const over = await depositTo(t, wallet, 1000.5);
      expect(over.status).toBe(400);
      expect(over.body.error.details[0]).toMatchObject({ field: "amount" });
      expect(over.body.error.details[0].reason).toMatch(
        /per-wallet maximum of 1000000000000 USD; at most 1000 USD more fits/,
      );
      expect((await depositTo(t, wallet, 1000)).status).toBe(201);

      // A century of yield on a full wallet credits nothing past the maximum, and conservation holds.
      expect((await t.api("POST", "/_sandbox/clock/advance", { body: { ms: 100 * YEAR_MS } })).status).toBe(
        200,
      );
      const read = await t.api("GET", `/v2/portfolio-wallets/${wallet.id}`);
      expect(read.status).toBe(200);
      expect(read.body.totalBalanceUsd).toBe(1e12);
      const ledger = await t.api("GET", "/_sandbox/ledger");
      expect(ledger.status).toBe(200);
      expect(ledger.body.total.discrepancyMicros).toBe(0);
    } finally {
      await t.close();
    }
  });
});

describe("defect 4: fault path patterns cannot block the server", () => {
  test("a pattern built to backtrack is armed and every request still answers; limits are 400/409", async () => {
    const t = await startTestSandbox();
    try {
      // As a regular expression this pattern backtracked through C(n, 15) splits of every path.
      const pathological = `/${"*a".repeat(15)}!`;
      for (const path of ["/******!", pathological]) {
        const armed = await t.api("POST", "/_sandbox/faults", {
          body: { path, kind: "drop", times: 1000 },
          token: OTHER_TOKEN,
        });
        expect(armed.status).toBe(201);
      }
      // A request that the faults must be checked against, with a path full of a's; a hang fails the test.
      const path = `/v2/portfolio-wallets/${"a".repeat(60)}`;
      for (const token of [OTHER_TOKEN, undefined]) {
        const res = await t.api("GET", path, token === undefined ? {} : { token });
        expect(res.status).toBe(400);
      }
      const tooLong = await t.api("POST", "/_sandbox/faults", {
        body: { path: `/${"x".repeat(300)}`, kind: "drop" },
      });
      expect(tooLong.body.error.details[0]).toMatchObject({
        field: "path",
        reason: "must be at most 200 characters",
      });
      const tooWild = await t.api("POST", "/_sandbox/faults", {
        body: { path: `/${":a/".repeat(17)}`, kind: "drop" },
      });
      expect(tooWild.body.error.details[0].reason).toMatch(/at most 16 wildcards/);
      for (let i = 0; i < 48; i++) {
        expect(
          (
            await t.api("POST", "/_sandbox/faults", {
              body: { path: "/nowhere", kind: "drop" },
              token: OTHER_TOKEN,
            })
          ).status,
        ).toBe(201);
      }
      const full = await t.api("POST", "/_sandbox/faults", {
        body: { path: "/nowhere", kind: "drop" },
        token: OTHER_TOKEN,
      });
      expect(full.status).toBe(409);
      // The cap is per organization: org-a can still arm its own.
      expect(
        (await t.api("POST", "/_sandbox/faults", { body: { path: "/nowhere", kind: "drop" } })).status,
      ).toBe(201);
    } finally {
      await t.close();
    }
  });
});

describe("defect 6: bodies are limited to 1 MB and errors do not echo the input", () => {
  test("a body over 1 MB is 413 before it is read: by Content-Length, and chunked", async () => {
    const t = await startTestSandbox();
    try {
      const big = JSON.stringify({ yieldSourceExclusions: ["x".repeat(2 * 1024 * 1024)] });
      const declared = await t.api("POST", "/v2/portfolio-wallets/quote", {
        raw: big,
        headers: { "content-type": "application/json" },
      });
      expect(declared.status).toBe(413);
      expect(declared.body.error.code).toBe("payload_too_large");
      expect(declared.headers.get("x-request-id")).toEqual(expect.any(String));

      const chunks = new ReadableStream<Uint8Array>({
        start(controller) {
          const chunk = new TextEncoder().encode("x".repeat(64 * 1024));
          for (let i = 0; i < 40; i++) controller.enqueue(chunk);
          controller.close();
        },
      });
      const chunked = await fetch(`${t.url}/v2/portfolio-wallets/quote`, {
        method: "POST",
        headers: { authorization: "Bearer token-a", "content-type": "application/json" },
        body: chunks,
        duplex: "half",
      } as RequestInit);
      expect(chunked.status).toBe(413);

      // A client that announces 20 MB and sends nothing gets its answer at once: nothing waits for the body.
      const { connect } = await import("node:net");
      const answer = await new Promise<string>((resolve, reject) => {
        const socket = connect(t.sandbox.port, "127.0.0.1", () => {
          socket.write(
            "POST /v2/portfolio-wallets/quote HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer token-a\r\n" +
              "Content-Type: application/json\r\nContent-Length: 20000000\r\n\r\n",
          );
        });
        let text = "";
        socket.on("data", (data: Buffer) => {
          text += data.toString();
          if (text.includes("\r\n\r\n")) {
            socket.destroy();
            resolve(text);
          }
        });
        socket.on("error", reject);
      });
      expect(answer.split("\r\n")[0]).toBe("HTTP/1.1 413 Payload Too Large");
    } finally {
      await t.close();
    }
  });

  test("a 900 kB value is quoted cut to 200 characters, and a thousand bad fields are summarised", async () => {
    const t = await startTestSandbox();
    try {
      const huge = "y".repeat(900 * 1024);
      const quote = await t.api("POST", "/v2/portfolio-wallets/quote", {
        body: { yieldSourceExclusions: [huge] },
      });
      expect(quote.status).toBe(400);
      const text = JSON.stringify(quote.body);
      expect(text.length).toBeLessThan(2000);
      expect(quote.body.error.details[0].reason).toContain(`(${huge.length + 2} characters)`);

      const positions = Array.from({ length: 1000 }, () => ({
        positionKey: huge.slice(0, 500),
        targetWeightBps: -1,
      }));
      const wallet = await t.api("POST", "/v2/portfolio-wallets", { body: { requestId: uuid(), positions } });
      expect(wallet.status).toBe(400);
      expect(wallet.body.error.details.length).toBeLessThanOrEqual(101);
      expect(wallet.body.error.details.at(-1)).toEqual({
        field: "(more)",
        reason: expect.stringMatching(/more problems not listed/),
      });
      expect(JSON.stringify(wallet.body).length).toBeLessThan(100_000);
    } finally {
      await t.close();
    }
  });
});

describe("defect 7: one organization's hanging receivers do not delay another's webhooks", () => {
  test("org-a's delivery arrives while every one of org-b's twenty hanging attempts is still waiting", async () => {
    const { startReceiver } = await import("../sandbox/domain/events/harness/receiver.ts");
    const t = await startTestSandbox({
      allowPrivateWebhookUrls: true,
      depositProcessingDelayMs: 60_000,
      // Hanging attempts hold their slot for 20 s: long past the wait below.
      webhookDelivery: { timeoutMs: 20_000, retryBaseDelayMs: 50, maxAttempts: 2 },
    });
    const hanging = await startReceiver(() => "hang");
    const live = await startReceiver();
    try {
      for (let i = 0; i < 20; i++) {
        const res = await t.api("POST", "/webhooks/registrations", {
          token: OTHER_TOKEN,
          body: { url: `${hanging.url}?n=${i}`, eventTypes: ["portfolio_wallet.deposit.status_changed"] },
        });
        expect(res.status).toBe(201);
      }
      const depositFor = async (token: string | undefined) => {
        const wallet = (
          await t.api("POST", "/v2/portfolio-wallets", { body: walletBody(), ...(token ? { token } : {}) })
        ).body;
        const res = await t.api("POST", "/_sandbox/deposits", {
          ...(token ? { token } : {}),
          body: {
            chain: "ethereum",
            address: wallet.depositAddresses.ethereum.address,
            amount: 5,
            txHash: `0x${uuid()}`,
          },
        });
        expect(res.status).toBe(201);
      };
      await depositFor(OTHER_TOKEN);
      await depositFor(OTHER_TOKEN);
      const { eventually } = await import("../sandbox/helpers.ts");
      await eventually(async () => hanging.requests.length > 0);

      await t.api("POST", "/webhooks/registrations", {
        body: { url: live.url, eventTypes: ["portfolio_wallet.deposit.status_changed"] },
      });
      await depositFor(undefined);
      await eventually(async () => live.requests.length === 1, 10_000);

      const orgB = (await t.api("GET", "/_sandbox/webhook-deliveries?limit=1000", { token: OTHER_TOKEN }))
        .body.data as {
        attempts: number;
        status: string;
      }[];
      expect(orgB).toHaveLength(40);
      // None of org-b's attempts has ended yet: org-a did not wait for them to time out.
      expect(orgB.every((d) => d.attempts === 0 && d.status === "pending")).toBe(true);
      // And org-b holds no more than its own share of the slots.
      expect(hanging.requests.length).toBeLessThanOrEqual(4);
    } finally {
      await hanging.close();
      await live.close();
      await t.close();
    }
  });
});
