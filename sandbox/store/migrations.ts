import type { DatabaseSync } from "node:sqlite";

/**
 * Brings a data file written by an older sandbox up to the current schema. Each step checks what
 * the file holds, so running them on a new or an already migrated file changes nothing.
 */
export function migrate(db: DatabaseSync): void {
  usdColumnsToMicros(db);
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
