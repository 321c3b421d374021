import type { DatabaseSync } from "node:sqlite";
import { addToWithdrawnHistory } from "./ledgerStore.ts";
import { rebuildSourceAccruals } from "./sourceAccrualStore.ts";

/**
 * Brings a data file written by an older sandbox up to the current schema. Each step checks what
 * the file holds, so running them on a new or an already migrated file changes nothing.
 */
export function migrate(db: DatabaseSync): void {
  usdColumnsToMicros(db);
  yieldTotalsFromLedger(db);
  yieldAggregatesFromWallets(db);
}

const hasColumn = (db: DatabaseSync, table: string, column: string) =>
  (db.prepare(`SELECT name FROM pragma_table_info(?)`).all(table) as { name: string }[]).some(
    (row) => row.name === column,
  );

/**
 * Wallet tables once kept USD in REAL columns (always written as micros / 1e6, so rounding them
 * back recovers the micros exactly). Money now has one stored form: whole micros in INTEGER
 * columns, as the money tables always had.
 */
function usdColumnsToMicros(db: DatabaseSync): void {
  const conversions: { table: string; from: string; to: string; drop?: string[] }[] = [
    { table: "wallets", from: "pending_allocations_usd", to: "pending_allocations_micros" },
    { table: "wallet_balances", from: "value_usd", to: "value_micros", drop: ["balance_units"] },
    { table: "deposit_addresses", from: "total_balance_usd", to: "total_received_micros" },
    { table: "deposit_addresses", from: "pending_allocations_usd", to: "pending_allocations_micros" },
  ];
  for (const { table, from, to, drop = [] } of conversions) {
    if (!hasColumn(db, table, from)) continue;
    db.exec("BEGIN IMMEDIATE");
    try {
      if (!hasColumn(db, table, to))
        db.exec(`ALTER TABLE ${table} ADD COLUMN ${to} INTEGER NOT NULL DEFAULT 0`);
      db.exec(`UPDATE ${table} SET ${to} = CAST(ROUND(${from} * 1000000) AS INTEGER)`);
      for (const column of [from, ...drop]) db.exec(`ALTER TABLE ${table} DROP COLUMN ${column}`);
      db.exec("COMMIT");
    } catch (error) {
      db.exec("ROLLBACK");
      throw error;
    }
  }
}

/**
 * Organizations' running yield totals (organization_yield_totals) began with this version: a data
 * file from before has none, so they are summed once from its ledger, in bigint (a lifetime sum
 * may pass SQLite's 64-bit SUM), for each organization that has entries and no totals.
 */
function yieldTotalsFromLedger(db: DatabaseSync): void {
  // Once per data file: later, every entry keeps the totals itself.
  const marker = "migration.organization_yield_totals";
  if (db.prepare("SELECT 1 FROM sandbox_settings WHERE key = ?").get(marker) !== undefined) return;
  const missing = db
    .prepare(
      `SELECT DISTINCT organization_id FROM ledger_entries
       WHERE organization_id NOT IN (SELECT organization_id FROM organization_yield_totals)`,
    )
    .all() as { organization_id: string }[];
  const rows = db.prepare(
    `SELECT kind, CAST(amount_micros AS TEXT) AS amount, CAST(yield_micros AS TEXT) AS yield
     FROM ledger_entries WHERE organization_id = ? AND kind IN ('accrual', 'payout_completed')`,
  );
  const write = db.prepare(
    "INSERT INTO organization_yield_totals (organization_id, generated_micros, withdrawn_micros) VALUES (?, ?, ?)",
  );
  db.exec("BEGIN IMMEDIATE");
  try {
    for (const { organization_id: organizationId } of missing) {
      let generated = 0n;
      let withdrawn = 0n;
      for (const row of rows.iterate(organizationId) as Iterable<{
        kind: string;
        amount: string;
        yield: string;
      }>) {
        if (row.kind === "accrual") generated += BigInt(row.amount);
        else withdrawn += BigInt(row.yield);
      }
      write.run(organizationId, generated.toString(), withdrawn.toString());
    }
    db.prepare("INSERT INTO sandbox_settings (key, value) VALUES (?, ?)").run(marker, "done");
    db.exec("COMMIT");
  } catch (error) {
    db.exec("ROLLBACK");
    throw error;
  }
}

/**
 * Organizations' running sums per yield source (organization_source_accruals) and their withdrawn
 * history began with this version: a data file from before has neither, so each organization's
 * are built once from its wallets (what each position holds, its remainder, its last settlement),
 * its accrual entries (yield credited per source) and its completed payouts (yield withdrawn by
 * each instant). Global yield figures read the same afterwards: the sums are exact.
 */
function yieldAggregatesFromWallets(db: DatabaseSync): void {
  // Once per data file: later, every settlement and money movement keeps them itself.
  const marker = "migration.organization_source_accruals";
  if (db.prepare("SELECT 1 FROM sandbox_settings WHERE key = ?").get(marker) !== undefined) return;
  const organizations = db.prepare("SELECT DISTINCT organization_id FROM wallets").all() as {
    organization_id: string;
  }[];
  db.exec("BEGIN IMMEDIATE");
  try {
    for (const { organization_id: organizationId } of organizations)
      rebuildYieldAggregates(db, organizationId);
    db.prepare("INSERT INTO sandbox_settings (key, value) VALUES (?, ?)").run(marker, "done");
    db.exec("COMMIT");
  } catch (error) {
    db.exec("ROLLBACK");
    throw error;
  }
}

/**
 * Builds an organization's yield aggregates from its wallets and ledger, replacing any it had:
 * the migration above, and a data file filled by copying rows (test/support/storeSeeding.ts).
 */
export function rebuildYieldAggregates(db: DatabaseSync, organizationId: string): void {
  rebuildSourceAccruals(db, organizationId);
  db.prepare("DELETE FROM organization_withdrawn_history WHERE organization_id = ?").run(organizationId);
  const payouts = db
    .prepare(
      `SELECT at, CAST(yield_micros AS TEXT) AS yield FROM ledger_entries
       WHERE organization_id = ? AND kind = 'payout_completed' ORDER BY at, seq`,
    )
    .all(organizationId) as { at: string; yield: string }[];
  for (const payout of payouts) {
    if (BigInt(payout.yield) !== 0n)
      addToWithdrawnHistory(db, organizationId, payout.at, BigInt(payout.yield));
  }
}
