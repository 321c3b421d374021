import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { DatabaseSync } from "node:sqlite";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { createManualClock } from "../../../sandbox/index.ts";
import { openDatabase } from "../../../sandbox/store/db.ts";
import { fundedWallet } from "../../support/sandboxAccess.ts";
import { growLedger } from "../../support/storeSeeding.ts";
import { OTHER_TOKEN, startTestSandbox, TOKEN, type TestSandbox } from "../helpers.ts";
import { withdrawBody } from "../moneyHelpers.ts";
import { queryPlan, recordStatements, type StatementRecorder } from "./queryPlans/statementRecorder.ts";

// One organization's requests read none of another's rows: with organization A holding 10 or
// 100,000 ledger rows, organization B's requests (wallets, money, yield over a lifetime and a
// period, the ledger audit and listing) make the same statements, each handing back the same rows,
// and every read of the ledger is keyed by B's organization or B's wallet.

const LEDGER_ROWS = [10, 100_000] as const;
const DAY_MS = 24 * 60 * 60 * 1000;

interface Store {
  dataDir: string;
  sandbox: TestSandbox;
  db: DatabaseSync;
}

let recorder: StatementRecorder;
const stores = new Map<number, Store>();

async function storeWith(ledgerRows: number): Promise<Store> {
  const dataDir = mkdtempSync(join(tmpdir(), `sandbox-orgs-${ledgerRows}-`));
  const clock = createManualClock(new Date("2026-03-01T00:00:00.000Z"));
  const options = { dataDir, clock, depositProcessingDelayMs: 1000 };
  let sandbox = await startTestSandbox(options);
  const { wallet } = await fundedWallet({ url: sandbox.url, token: TOKEN }, 1000, { settleMs: 1000 });
  await sandbox.close();
  const db = openDatabase(dataDir);
  const existing = (db.prepare("SELECT COUNT(*) AS n FROM ledger_entries").get() as { n: number }).n;
  growLedger(db, wallet.id as string, ledgerRows - existing);
  db.close();
  sandbox = await startTestSandbox(options);
  const started = recorder.latestDatabase;
  if (started === null) throw new Error("the sandbox prepared nothing at its start");
  return { dataDir, sandbox, db: started };
}

/** Organization B's requests; the statements they ran, each with the rows it handed back. */
async function requestsOfB(store: Store): Promise<string[]> {
  recorder.executions.length = 0;
  const { sandbox } = store;
  const api = async (method: string, path: string, body?: unknown) => {
    const res = await sandbox.api(method, path, {
      token: OTHER_TOKEN,
      ...(body === undefined ? {} : { body }),
    });
    expect(res.status, `${method} ${path}: ${JSON.stringify(res.body)}`).toBeLessThan(300);
    return res.body;
  };
  const { wallet } = await fundedWallet({ url: sandbox.url, token: OTHER_TOKEN }, 5000, { settleMs: 1000 });
  await api("POST", "/_sandbox/clock/advance", { ms: DAY_MS });
  await api("GET", "/v2/portfolio-wallets/strategies");
  await api("GET", `/v2/portfolio-wallets/${wallet.id}`);
  await api("GET", "/v2/portfolio-wallets?pageSize=10");
  await api("POST", `/v2/portfolio-wallets/${wallet.id}/withdraw`, withdrawBody(100));
  await api("GET", `/v2/portfolio-wallets/${wallet.id}/withdrawals?pageSize=10`);
  await api("GET", `/v2/portfolio-wallets/${wallet.id}/deposits?pageSize=10`);
  await api("POST", "/_sandbox/clock/advance", { ms: DAY_MS });
  await api("POST", "/v2/portfolio-wallets/yield", {});
  await api("POST", "/v2/portfolio-wallets/yield", { portfolioWalletIds: [wallet.id] });
  await api("POST", "/v2/portfolio-wallets/yield", {
    periodStartIso: "2026-03-01T12:00:00.000Z",
    portfolioWalletIds: [wallet.id],
  });
  await api("GET", "/_sandbox/ledger");
  await api("GET", "/_sandbox/ledger/entries?limit=50");
  await api("GET", `/_sandbox/ledger/entries?walletId=${wallet.id}&limit=50`);
  return recorder.executions.map((e) => `${e.sql.replace(/\s+/g, " ").trim()} → ${e.rows} rows`);
}

beforeAll(async () => {
  recorder = recordStatements();
  for (const rows of LEDGER_ROWS) stores.set(rows, await storeWith(rows));
}, 120_000);

afterAll(async () => {
  recorder.stop();
  for (const store of stores.values()) {
    await store.sandbox.close();
    rmSync(store.dataDir, { recursive: true, force: true });
  }
});

describe("one organization's requests read none of another's rows", () => {
  test("organization A holds the ledger rows it was given", async () => {
    for (const [rows, store] of stores) {
      const count = store.db.prepare(
        "SELECT COUNT(*) AS n FROM ledger_entries WHERE organization_id = 'org-a'",
      );
      expect((count.get() as { n: number }).n).toBe(rows);
      // Its audit still balances: the extra rows move nothing.
      const audit = await store.sandbox.api("GET", "/_sandbox/ledger");
      expect(audit.body.total.discrepancyMicros).toBe(0);
    }
  });

  test("B's requests make the same statements with the same rows whether A holds 10 or 100,000 ledger rows", async () => {
    const [few, many] = LEDGER_ROWS.map((rows) => stores.get(rows) as Store) as [Store, Store];
    const withFew = await requestsOfB(few);
    const withMany = await requestsOfB(many);
    expect(withFew.filter((run) => run.includes("ledger_entries")).length).toBeGreaterThan(5);
    expect(withMany).toEqual(withFew);

    // Every read of the ledger B made is keyed by B's organization or one of B's wallets.
    const ledgerReads = new Set(
      withMany
        .map((run) => run.slice(0, run.lastIndexOf(" → ")))
        .filter((sql) => /FROM ledger_entries/.test(sql)),
    );
    for (const sql of ledgerReads) {
      for (const step of queryPlan(many.db, sql).filter((s) => /ledger_entries/.test(s))) {
        expect(step, sql).toMatch(
          /^SEARCH ledger_entries USING (COVERING )?INDEX \w+ \((organization_id|wallet_id)=\?/,
        );
      }
    }
  });
});
