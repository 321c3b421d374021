import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { DatabaseSync } from "node:sqlite";
import { afterAll, beforeEach, describe, expect, test } from "vitest";
import { createManualClock } from "../../../sandbox/index.ts";
import { DATABASE_FILE } from "../../../sandbox/store/db.ts";
import { SCHEMA_VERSION } from "../../../sandbox/store/migrations.ts";
import { fundedWallet } from "../../support/sandboxAccess.ts";
import { OTHER_TOKEN, startTestSandbox, TOKEN, uuid, type TestSandbox } from "../helpers.ts";
import { expectGlobalGenerated, withdrawBody } from "../moneyHelpers.ts";

// A data directory written before accrual was computed on reads: no running sums per yield
// source, an accrual entry per position on every request, and none of the indexes that keep
// requests to their own rows. Opening it migrates it: the source sums built from its wallets, the
// indexes built, and every figure reads as before, to the micro.

const DAY_MS = 24 * 60 * 60 * 1000;
// Each test starts from a new data directory at the same time.
let dataDir = "";
let clock = createManualClock(new Date("2026-03-01T00:00:00.000Z"));
let options = { dataDir, clock, depositProcessingDelayMs: 1000 };
const directories: string[] = [];
beforeEach(() => {
  dataDir = mkdtempSync(join(tmpdir(), "sandbox-migrate-accrual-"));
  directories.push(dataDir);
  clock = createManualClock(new Date("2026-03-01T00:00:00.000Z"));
  options = { dataDir, clock, depositProcessingDelayMs: 1000 };
});
afterAll(() => {
  for (const directory of directories) rmSync(directory, { recursive: true, force: true });
});

/** What this version added to the schema; the sandbox before it had none of these. */
const ADDED_INDEXES = [
  "deposit_addresses_by_address",
  "deposit_addresses_by_wallet",
  "deposits_by_next_step_id",
  "ledger_by_org_kind",
  "ledger_by_org_seq",
  "ledger_by_wallet_position",
  "ledger_by_wallet_seq",
  "signing_api_keys_by_org_created",
  "signing_votes_by_activity",
  "strategy_updates_by_wallet_status",
  "wallet_targets_by_order",
  "webhook_deliveries_due_by_registration",
  "webhook_events_by_created",
  "withdrawal_legs_by_due_order",
  "withdrawal_legs_by_withdrawal",
  "withdrawals_by_wallet_status",
];
/** Indexes the sandbox before it had, which this version replaced. */
const REPLACED_INDEXES = {
  deposits_by_next_step: "deposits (next_step_at)",
  withdrawal_legs_by_due: "withdrawal_legs (status, due_at)",
};

/** A simulated transfer of `amount` USD to a wallet's ethereum deposit address. */
async function depositOnEthereum(sandbox: TestSandbox, address: string, amount: number, token = TOKEN) {
  await sandbox.api("POST", "/_sandbox/deposits", {
    body: { chain: "ethereum", address, amount, txHash: `0x${uuid().replaceAll("-", "")}` },
    token,
  });
}

/** Every figure a reader sees: wallets, lifetime yield per wallet and in all, the audit. */
async function figures(sandbox: TestSandbox, token: string) {
  const list = await sandbox.api("GET", "/v2/portfolio-wallets?pageSize=100", { token });
  const ids = (list.body.data as { id: string }[]).map((w) => w.id).sort();
  const yieldMetrics = await sandbox.api("POST", "/v2/portfolio-wallets/yield", {
    body: { portfolioWalletIds: ids },
    token,
  });
  const audit = await sandbox.api("GET", "/_sandbox/ledger", { token });
  // Since the last money movement: the source sums built by the migration are the ones the
  // movements kept, exactly. Over the whole run: the yield withdrawn, rebuilt from the payouts.
  const now = clock.now().getTime();
  const recent = await sandbox.api("POST", "/v2/portfolio-wallets/yield", {
    body: { portfolioWalletIds: ids, periodStartIso: new Date(now - DAY_MS).toISOString() },
    token,
  });
  const whole = await sandbox.api("POST", "/v2/portfolio-wallets/yield", {
    body: { periodStartIso: "2026-03-01T00:00:00.000Z" },
    token,
  });
  return {
    wallets: list.body.data,
    yield: yieldMetrics.body,
    recentYield: recent.body,
    withdrawnOverTheRun: whole.body.global.withdrawn,
    audit: audit.body,
  };
}

/**
 * Turns the data file into what the sandbox two schema versions back wrote (version 2: accrual
 * settled on every request). `userVersion` is what its header says: 0 for a file written before
 * versions were kept (its version read from its shape), or 2 for one that recorded it.
 */
function writtenTwoVersionsBack(userVersion: 0 | 2): void {
  const db = new DatabaseSync(join(dataDir, DATABASE_FILE));
  try {
    db.exec("BEGIN");
    db.exec(`PRAGMA user_version = ${userVersion}`);
    db.exec("DROP TABLE organization_source_accruals");
    db.exec("DROP TABLE organization_sources");
    db.exec("DROP TABLE organization_withdrawn_history");
    db.exec("DELETE FROM sandbox_settings WHERE key LIKE 'migration.%'");
    for (const index of ADDED_INDEXES) db.exec(`DROP INDEX ${index}`);
    for (const [index, on] of Object.entries(REPLACED_INDEXES)) db.exec(`CREATE INDEX ${index} ON ${on}`);
    // The previous version settled accrual on every request: a position's accrual arrived in many
    // entries. Each entry becomes three over the thirds of its span, summing to the same micros.
    const entries = db
      .prepare("SELECT seq, amount_micros AS amount, from_at, at FROM ledger_entries WHERE kind = 'accrual'")
      .all() as { seq: number; amount: number; from_at: string; at: string }[];
    expect(entries.length).toBeGreaterThan(0);
    const insertPart = db.prepare(
      `INSERT INTO ledger_entries (organization_id, wallet_id, kind, position_key, amount_micros, yield_micros, ref_id, detail, from_at, at)
       SELECT organization_id, wallet_id, kind, position_key, ?, ?, ref_id, detail, ?, ? FROM ledger_entries WHERE seq = ?`,
    );
    for (const entry of entries) {
      const from = Date.parse(entry.from_at);
      const span = Date.parse(entry.at) - from;
      const cuts = [
        from,
        from + Math.floor(span / 3),
        from + Math.floor((2 * span) / 3),
        Date.parse(entry.at),
      ];
      const third = Math.floor(entry.amount / 3);
      const amounts = [third, third, entry.amount - 2 * third];
      amounts.forEach((amount, part) => {
        const fromIso = new Date(cuts[part] as number).toISOString();
        insertPart.run(amount, amount, fromIso, new Date(cuts[part + 1] as number).toISOString(), entry.seq);
      });
      db.prepare("DELETE FROM ledger_entries WHERE seq = ?").run(entry.seq);
    }
    db.exec("COMMIT");
  } finally {
    db.close();
  }
}

function schemaObjects(): { indexes: string[]; tables: string[]; version: number } {
  const db = new DatabaseSync(join(dataDir, DATABASE_FILE));
  try {
    const names = (type: string) =>
      (db.prepare("SELECT name FROM sqlite_master WHERE type = ?").all(type) as { name: string }[]).map(
        (row) => row.name,
      );
    const { user_version: version } = db.prepare("PRAGMA user_version").get() as { user_version: number };
    return { indexes: names("index"), tables: names("table"), version };
  } finally {
    db.close();
  }
}

describe("opening a data directory written before accrual was computed on reads", () => {
  test.each([
    {
      written: "before schema versions were kept (user_version 0, version read from its shape)",
      userVersion: 0,
    },
    { written: "two schema versions back (user_version 2)", userVersion: 2 },
  ] as const)(
    "written $written: migrates it on start: the new indexes built, every figure kept",
    async ({ userVersion }) => {
      // Money in two organizations: deposits, time, a withdrawal paid out with a yield share, more time.
      let sandbox = await startTestSandbox(options);
      for (const token of [TOKEN, OTHER_TOKEN]) {
        const access = { url: sandbox.url, token };
        const { wallet } = await fundedWallet(access, 250_000, { settleMs: 1000 });
        await fundedWallet(access, 1_000, { settleMs: 1000 });
        await sandbox.api("POST", "/_sandbox/clock/advance", { body: { ms: 3 * DAY_MS } });
        const withdrawal = await sandbox.api("POST", `/v2/portfolio-wallets/${wallet.id}/withdraw`, {
          body: withdrawBody(1000),
          token,
        });
        expect(withdrawal.status).toBe(201);
        await depositOnEthereum(sandbox, wallet.depositAddresses.ethereum.address, 5, token);
        await sandbox.api("POST", "/_sandbox/clock/advance", { body: { ms: 2 * DAY_MS } });
      }
      const before = { a: await figures(sandbox, TOKEN), b: await figures(sandbox, OTHER_TOKEN) };
      await sandbox.close();

      writtenTwoVersionsBack(userVersion);
      const old = schemaObjects();
      expect(old.version).toBe(userVersion);
      expect(old.tables).not.toContain("organization_yield_totals");
      expect(old.tables).not.toContain("organization_source_accruals");
      expect(old.indexes).toEqual(expect.arrayContaining(Object.keys(REPLACED_INDEXES)));
      expect(old.indexes.filter((index) => ADDED_INDEXES.includes(index))).toEqual([]);

      sandbox = await startTestSandbox(options);
      try {
        expect(await figures(sandbox, TOKEN)).toEqual(before.a);
        expect(await figures(sandbox, OTHER_TOKEN)).toEqual(before.b);
        expect(before.a.audit.total.discrepancyMicros).toBe(0);
        expect(before.a.recentYield.global.generated).toBeGreaterThan(0);
        expect(before.a.withdrawnOverTheRun).toBeGreaterThan(0);
      } finally {
        await sandbox.close();
      }
      const migrated = schemaObjects();
      expect(migrated.version).toBe(SCHEMA_VERSION);
      expect(migrated.indexes).toEqual(expect.arrayContaining(ADDED_INDEXES));
      expect(migrated.indexes.filter((index) => index in REPLACED_INDEXES)).toEqual([]);
      // Version 3's yield totals, never read, are gone with version 7.
      expect(migrated.tables).not.toContain("organization_yield_totals");

      // Once per file: a later start leaves the sums to the movements that keep them, and money
      // that moves after the migration is counted on top.
      sandbox = await startTestSandbox(options);
      try {
        const wallet = before.a.wallets[0] as {
          id: string;
          depositAddresses: { ethereum: { address: string } };
        };
        await depositOnEthereum(sandbox, wallet.depositAddresses.ethereum.address, 10);
        await sandbox.api("POST", "/_sandbox/clock/advance", { body: { ms: DAY_MS } });
        const after = await figures(sandbox, TOKEN);
        expect(after.audit.total.discrepancyMicros).toBe(0);
        expect(after.yield.global.generated).toBeGreaterThan(before.a.yield.global.generated);
        const perWallet = Object.values(
          after.yield.portfolioWallets as Record<string, { generated: number }>,
        );
        const holdingMoney = (after.wallets as { positions: { valueUsd: number }[] }[]).reduce(
          (count, w) => count + w.positions.filter((p) => p.valueUsd > 0).length,
          0,
        );
        expectGlobalGenerated(
          Math.round(after.yield.global.generated * 1e6),
          perWallet.reduce((sum, w) => sum + Math.round(w.generated * 1e6), 0),
          holdingMoney,
        );
      } finally {
        await sandbox.close();
      }
    },
    60_000,
  );
});
