import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { DatabaseSync } from "node:sqlite";
import { afterAll, describe, expect, test } from "vitest";
import { DATABASE_FILE, openDatabase } from "../../../sandbox/store/db.ts";
import { SCHEMA_VERSION } from "../../../sandbox/store/migrations.ts";
import { listDeliveries } from "../../../sandbox/store/webhookDeliveryStore.ts";
import { ORG, startTestSandbox } from "../helpers.ts";

const dataDir = mkdtempSync(join(tmpdir(), "sandbox-migrate-"));
afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

const WALLET = "3f1c2a9e-8b7d-4c1e-9f0a-2b3c4d5e6f70";
const AT = "2026-01-01T00:00:00.000Z";

/** The wallet tables as an older sandbox wrote them: USD in REAL columns. */
function writeOldDataFile(): void {
  const db = new DatabaseSync(join(dataDir, DATABASE_FILE));
  db.exec(`CREATE TABLE wallets (id TEXT PRIMARY KEY, organization_id TEXT NOT NULL, request_id TEXT NOT NULL,
    label TEXT, status TEXT NOT NULL, pending_allocations_usd REAL NOT NULL DEFAULT 0,
    created_at TEXT NOT NULL, updated_at TEXT NOT NULL)`);
  db.exec(`CREATE TABLE wallet_targets (wallet_id TEXT NOT NULL REFERENCES wallets(id), position_key TEXT NOT NULL,
    target_weight_bps INTEGER NOT NULL, asset TEXT NOT NULL, max_processing_time TEXT NOT NULL,
    sort_order INTEGER NOT NULL, PRIMARY KEY (wallet_id, position_key))`);
  db.exec(`CREATE TABLE wallet_balances (wallet_id TEXT NOT NULL REFERENCES wallets(id), position_key TEXT NOT NULL,
    balance_units REAL NOT NULL DEFAULT 0, value_usd REAL NOT NULL DEFAULT 0, updated_at TEXT NOT NULL,
    PRIMARY KEY (wallet_id, position_key))`);
  db.exec(`CREATE TABLE deposit_addresses (wallet_id TEXT NOT NULL REFERENCES wallets(id), chain TEXT NOT NULL,
    address TEXT NOT NULL, total_balance_usd REAL NOT NULL DEFAULT 0, pending_allocations_usd REAL NOT NULL DEFAULT 0,
    PRIMARY KEY (wallet_id, chain), UNIQUE (chain, address))`);
  db.prepare("INSERT INTO wallets VALUES (?, ?, ?, NULL, 'active', ?, ?, ?)").run(
    WALLET,
    ORG,
    "3f1c2a9e-8b7d-4c1e-9f0a-2b3c4d5e6f71",
    0.000001,
    AT,
    AT,
  );
  db.prepare("INSERT INTO wallet_targets VALUES (?, 'syrupUsdc', 10000, 'syrupUSDC', 'PT0H', 0)").run(WALLET);
  db.prepare("INSERT INTO wallet_balances VALUES (?, 'syrupUsdc', ?, ?, ?)").run(
    WALLET,
    1234.567891,
    1234.567891,
    AT,
  );
  db.prepare("INSERT INTO deposit_addresses VALUES (?, 'ethereum', '0xabc', ?, ?)").run(
    WALLET,
    1234.567892,
    0.000001,
  );
  db.close();
}

describe("opening an older data file", () => {
  test("converts the wallet tables' REAL USD columns to integer micros, keeping every figure", async () => {
    writeOldDataFile();
    const sandbox = await startTestSandbox({ dataDir });
    try {
      const wallet = await sandbox.api("GET", `/v2/portfolio-wallets/${WALLET}`);
      expect(wallet.status).toBe(200);
      expect(wallet.body).toMatchObject({
        totalBalanceUsd: 1234.567892,
        instantWithdrawableUsd: 1234.567891,
        pendingAllocationsUsd: 0.000001,
        depositAddresses: { ethereum: { totalBalanceUsd: 1234.567892, pendingAllocationsUsd: 0.000001 } },
        positions: [{ positionKey: "syrupUsdc", valueUsd: 1234.567891, balanceUnits: 1234.567891 }],
      });
    } finally {
      await sandbox.close();
    }
    const db = new DatabaseSync(join(dataDir, DATABASE_FILE));
    const columns = (table: string) =>
      (
        db.prepare("SELECT name, type FROM pragma_table_info(?)").all(table) as {
          name: string;
          type: string;
        }[]
      )
        .filter((c) => c.name.endsWith("_usd") || c.name.endsWith("_micros") || c.name === "balance_units")
        .map((c) => `${c.name} ${c.type}`);
    expect(columns("wallets")).toEqual(["pending_allocations_micros INTEGER"]);
    expect(columns("wallet_balances")).toEqual(["value_micros INTEGER"]);
    expect(columns("deposit_addresses")).toEqual([
      "total_received_micros INTEGER",
      "pending_allocations_micros INTEGER",
    ]);
    expect(db.prepare("PRAGMA user_version").get()).toEqual({ user_version: SCHEMA_VERSION });
    db.close();
  });

  test("refuses a file a newer sandbox wrote, saying what to do, and leaves its tables as they were", () => {
    const newerDir = mkdtempSync(join(tmpdir(), "sandbox-newer-"));
    try {
      const db = new DatabaseSync(join(newerDir, DATABASE_FILE));
      db.exec(`PRAGMA user_version = ${SCHEMA_VERSION + 1}`);
      db.exec("CREATE TABLE wallets (id TEXT PRIMARY KEY)");
      db.close();
      expect(() => openDatabase(newerDir)).toThrow(
        `The data file is at schema version ${SCHEMA_VERSION + 1}, written by a newer sandbox (this one knows versions up to ${SCHEMA_VERSION}): start that newer sandbox on it, or give this one another --data directory.`,
      );
      const after = new DatabaseSync(join(newerDir, DATABASE_FILE));
      expect(after.prepare("SELECT name FROM sqlite_master WHERE type = 'table'").all()).toEqual([
        { name: "wallets" },
      ]);
      after.close();
    } finally {
      rmSync(newerDir, { recursive: true, force: true });
    }
  });

  test("version 6: each webhook delivery gets its event's wallet from the event's payload (a test event's none), listed by wallet from an index", () => {
    const dir = mkdtempSync(join(tmpdir(), "sandbox-events-"));
    const OTHER = "3f1c2a9e-8b7d-4c1e-9f0a-2b3c4d5e6f72";
    try {
      // A version-5 file: the current schema less the column and its index.
      const old = openDatabase(dir);
      old.exec("DROP INDEX webhook_deliveries_by_org_wallet_seq");
      old.exec("ALTER TABLE webhook_deliveries DROP COLUMN wallet_id");
      old.exec("PRAGMA user_version = 5");
      const event = old.prepare(
        "INSERT INTO webhook_events (id, organization_id, type, payload, created_at) VALUES (?, ?, 't', ?, ?)",
      );
      const delivery = old.prepare(
        `INSERT INTO webhook_deliveries (id, seq, organization_id, event_id, event_type, registration_id, url,
           status, attempts, created_at, updated_at) VALUES (?, ?, ?, ?, 't', 'reg', 'https://example.com/h', 'succeeded', 1, ?, ?)`,
      );
      const events = [
        { id: "e-mine", payload: { data: { portfolioWalletId: WALLET } } },
        { id: "e-other", payload: { data: { portfolioWalletId: OTHER } } },
        { id: "e-test", payload: { test: true, data: { portfolioWalletId: WALLET } } },
      ];
      for (const [index, { id, payload }] of events.entries()) {
        event.run(id, ORG, JSON.stringify(payload), AT);
        delivery.run(`d-${id}`, index + 1, ORG, id, AT, AT);
      }
      old.close();

      const db = openDatabase(dir);
      try {
        expect(db.prepare("PRAGMA user_version").get()).toEqual({ user_version: SCHEMA_VERSION });
        expect(db.prepare("SELECT id, wallet_id FROM webhook_deliveries ORDER BY id").all()).toEqual([
          { id: "d-e-mine", wallet_id: WALLET },
          { id: "d-e-other", wallet_id: OTHER },
          { id: "d-e-test", wallet_id: null },
        ]);
        const listed = listDeliveries(db, ORG, { walletId: WALLET, limit: 10 });
        expect(listed.map((one) => [one.id, one.walletId, one.test])).toEqual([["d-e-mine", WALLET, false]]);
        expect(listDeliveries(db, ORG, { limit: 10 }).map((one) => [one.id, one.test])).toEqual([
          ["d-e-test", true],
          ["d-e-other", false],
          ["d-e-mine", false],
        ]);
        // Another organization's filter finds none of them.
        expect(listDeliveries(db, "org-elsewhere", { walletId: WALLET, limit: 10 })).toEqual([]);
      } finally {
        db.close();
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  test("version 7: the yield totals per organization, written and never read, are dropped", () => {
    const dir = mkdtempSync(join(tmpdir(), "sandbox-totals-"));
    try {
      // A version-6 file: the current schema and the table version 3 began, with a row.
      const old = openDatabase(dir);
      old.exec(`CREATE TABLE organization_yield_totals (organization_id TEXT PRIMARY KEY,
        generated_micros TEXT NOT NULL, withdrawn_micros TEXT NOT NULL)`);
      old.prepare("INSERT INTO organization_yield_totals VALUES (?, '5', '1')").run(ORG);
      old.exec("PRAGMA user_version = 6");
      old.close();

      const db = openDatabase(dir);
      try {
        expect(db.prepare("PRAGMA user_version").get()).toEqual({ user_version: SCHEMA_VERSION });
        expect(
          db.prepare("SELECT name FROM sqlite_master WHERE name = 'organization_yield_totals'").all(),
        ).toEqual([]);
      } finally {
        db.close();
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  test("a new file starts at the current schema version, and reopening it changes nothing", () => {
    const newDir = mkdtempSync(join(tmpdir(), "sandbox-new-"));
    try {
      const schema = () => {
        const db = openDatabase(newDir);
        try {
          return {
            version: db.prepare("PRAGMA user_version").get(),
            objects: db.prepare("SELECT type, name, sql FROM sqlite_master ORDER BY name").all(),
          };
        } finally {
          db.close();
        }
      };
      const first = schema();
      expect(first.version).toEqual({ user_version: SCHEMA_VERSION });
      expect(schema()).toEqual(first);
    } finally {
      rmSync(newDir, { recursive: true, force: true });
    }
  });
});
