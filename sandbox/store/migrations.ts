import type { DatabaseSync } from "node:sqlite";
import { inTransaction } from "./connection.ts";
import { INDEXES_ON_ADDED_COLUMNS, MONEY_SCHEMA_STATEMENTS, SHARED_RATE_TRIGGERS } from "./moneySchema.ts";
import { SCHEMA_STATEMENTS } from "./schema.ts";
import { rebuildYieldAggregates } from "./sourceAccrualStore.ts";

/**
 * Brings a data file to the current schema. The file's schema version is SQLite's
 * `PRAGMA user_version`; each step below takes a file from one version to the next, in one
 * transaction that also records the new version, so a step runs once per file and a crash leaves
 * the file at the version before it.
 *
 * Tables and indexes are created by schema.ts and moneySchema.ts, whose idempotent statements run
 * at every open before the steps: a new table or index needs no step. A step is for what changes
 * data or drops an object. A column added to an existing table is added by its step (and any index
 * on it created there), since the schema's statements leave an existing table as it is.
 *
 * Steps run SQL of their own and read no store, with one exception: the yield aggregates of
 * version 4 are built by the same function the sandbox uses to rebuild them
 * (sourceAccrualStore.ts), so their arithmetic is written once.
 */
const STEPS: readonly { to: number; does: string; run: (db: DatabaseSync) => void }[] = [
  { to: 1, does: "rate history starts from the catalog's current rates", run: rateHistoryFromCatalog },
  { to: 2, does: "wallet money in integer micros, not REAL USD", run: usdColumnsToMicros },
  { to: 3, does: "due-work indexes in the order work is taken", run: dueWorkIndexes },
  { to: 4, does: "yield sums per source and withdrawn history built", run: yieldAggregatesFromWallets },
  { to: 5, does: "rate history per organization", run: rateHistoryPerOrganization },
  { to: 6, does: "webhook deliveries know their event's wallet", run: deliveryWallets },
  { to: 7, does: "the yield totals per organization, never read, dropped", run: yieldTotalsDropped },
  // The tables come from schema.ts; the version marks them, so an older snapshot is migrated (and
  // so given them) before it is restored.
  { to: 8, does: "webhook inboxes", run: () => {} },
];

/** The schema version this sandbox writes: a new data file starts at it. */
export const SCHEMA_VERSION = STEPS.length;

export function migrate(db: DatabaseSync): void {
  const from = schemaVersionOf(db);
  if (from > SCHEMA_VERSION) {
    throw new Error(
      `The data file is at schema version ${from}, written by a newer sandbox (this one knows versions up to ${SCHEMA_VERSION}): ` +
        "start that newer sandbox on it, or give this one another --data directory.",
    );
  }
  for (const statement of [...SCHEMA_STATEMENTS, ...MONEY_SCHEMA_STATEMENTS]) db.exec(statement);
  for (const step of STEPS.slice(from)) {
    inTransaction(db, () => {
      step.run(db);
      setSchemaVersion(db, step.to);
    });
  }
  for (const statement of INDEXES_ON_ADDED_COLUMNS) db.exec(statement);
  if (readUserVersion(db) !== SCHEMA_VERSION) setSchemaVersion(db, SCHEMA_VERSION);
}

const readUserVersion = (db: DatabaseSync) =>
  (db.prepare("PRAGMA user_version").get() as { user_version: number }).user_version;

// PRAGMA takes no bound parameter; the version is always one of STEPS' integers.
const setSchemaVersion = (db: DatabaseSync, version: number) => db.exec(`PRAGMA user_version = ${version}`);

/**
 * The file's schema version. Files written before versions were kept hold 0: their version is read
 * from their shape, once, by what each version added (the markers are those its migrations wrote).
 */
function schemaVersionOf(db: DatabaseSync): number {
  const recorded = readUserVersion(db);
  if (recorded !== 0) return recorded;
  if (!hasTable(db, "wallets")) return SCHEMA_VERSION; // a new file: the schema's statements are all of it
  if (!hasTable(db, "rate_history")) return 0;
  if (USD_COLUMNS.some(({ table, from }) => hasColumn(db, table, from))) return 1;
  if (!hasMarker(db, "migration.organization_yield_totals")) return 2;
  if (!hasMarker(db, "migration.organization_source_accruals")) return 3;
  if (!hasColumn(db, "rate_history", "organization_id")) return 4;
  if (!hasColumn(db, "webhook_deliveries", "wallet_id")) return 5;
  if (hasTable(db, "organization_yield_totals")) return 6;
  return 7;
}

const columnsOf = (db: DatabaseSync, table: string) =>
  (db.prepare("SELECT name FROM pragma_table_info(?)").all(table) as { name: string }[]).map(
    (row) => row.name,
  );
const hasTable = (db: DatabaseSync, table: string) => columnsOf(db, table).length > 0;
const hasColumn = (db: DatabaseSync, table: string, column: string) => columnsOf(db, table).includes(column);
const hasMarker = (db: DatabaseSync, key: string) =>
  hasTable(db, "sandbox_settings") &&
  db.prepare("SELECT 1 FROM sandbox_settings WHERE key = ?").get(key) !== undefined;

/**
 * Version 5 gave organizations rates of their own: rate history rows carry their owner ('' for the
 * shared catalog's, which every row before was), and the triggers that record the shared catalog's
 * rates look at shared rows only.
 */
function rateHistoryPerOrganization(db: DatabaseSync): void {
  if (!hasColumn(db, "rate_history", "organization_id"))
    db.exec("ALTER TABLE rate_history ADD COLUMN organization_id TEXT NOT NULL DEFAULT ''");
  db.exec("DROP TRIGGER IF EXISTS rate_history_on_catalog_insert");
  db.exec("DROP TRIGGER IF EXISTS rate_history_on_rate_change");
  for (const statement of SHARED_RATE_TRIGGERS) db.exec(statement);
}

/**
 * Version 6 gave each webhook delivery the wallet its event is about, read from the event's own
 * payload (every event type's data names it as portfolioWalletId), so the console lists one
 * wallet's deliveries from an index (moneySchema.ts INDEXES_ON_ADDED_COLUMNS) rather than by
 * reading every payload. A test event's wallet id is made up (domain/events/testEvents.ts): its
 * deliveries stay without one, as new ones are stored.
 */
function deliveryWallets(db: DatabaseSync): void {
  if (!hasColumn(db, "webhook_deliveries", "wallet_id"))
    db.exec("ALTER TABLE webhook_deliveries ADD COLUMN wallet_id TEXT");
  db.exec(
    `UPDATE webhook_deliveries SET wallet_id = (
       SELECT json_extract(e.payload, '$.data.portfolioWalletId') FROM webhook_events e
        WHERE e.id = webhook_deliveries.event_id AND json_extract(e.payload, '$.test') IS NULL)
     WHERE wallet_id IS NULL`,
  );
}

/** Version 1 (money flows) began rate history; a file from before has none: its current rates start it. */
function rateHistoryFromCatalog(db: DatabaseSync): void {
  db.exec(`INSERT INTO rate_history (position_key, rate_bps, effective_from)
     SELECT position_key, current_rate_bps, rate_updated_at FROM catalog_entries
     WHERE position_key NOT IN (SELECT position_key FROM rate_history)`);
}

/** The wallet tables' REAL USD columns before version 2, each with its micros column. */
const USD_COLUMNS: readonly { table: string; from: string; to: string; drop?: string[] }[] = [
  { table: "wallets", from: "pending_allocations_usd", to: "pending_allocations_micros" },
  { table: "wallet_balances", from: "value_usd", to: "value_micros", drop: ["balance_units"] },
  { table: "deposit_addresses", from: "total_balance_usd", to: "total_received_micros" },
  { table: "deposit_addresses", from: "pending_allocations_usd", to: "pending_allocations_micros" },
];

/**
 * Wallet tables once kept USD in REAL columns (always written as micros / 1e6, so rounding them
 * back recovers the micros exactly). Money now has one stored form: whole micros in INTEGER
 * columns, as the money tables always had.
 */
function usdColumnsToMicros(db: DatabaseSync): void {
  for (const { table, from, to, drop = [] } of USD_COLUMNS) {
    if (!hasColumn(db, table, from)) continue;
    if (!hasColumn(db, table, to))
      db.exec(`ALTER TABLE ${table} ADD COLUMN ${to} INTEGER NOT NULL DEFAULT 0`);
    db.exec(`UPDATE ${table} SET ${to} = CAST(ROUND(${from} * 1000000) AS INTEGER)`);
    for (const column of [from, ...drop]) db.exec(`ALTER TABLE ${table} DROP COLUMN ${column}`);
  }
}

/**
 * Version 3 computed accrual on reads, and two indexes were replaced by ones in the order work is
 * taken. It also began running yield totals per organization (organization_yield_totals), summed
 * from the ledger; they were written and never read, and version 7 drops them, so they are no
 * longer summed here.
 */
function dueWorkIndexes(db: DatabaseSync): void {
  db.exec("DROP INDEX IF EXISTS deposits_by_next_step");
  db.exec("DROP INDEX IF EXISTS withdrawal_legs_by_due");
}

/**
 * Version 4 began organizations' running sums per yield source (organization_source_accruals)
 * and their withdrawn history: each organization's are built from its wallets (what each position
 * holds, its remainder, its last settlement), its accrual entries and its completed payouts.
 * Global yield figures read the same afterwards: the sums are exact.
 */
function yieldAggregatesFromWallets(db: DatabaseSync): void {
  const organizations = db.prepare("SELECT DISTINCT organization_id FROM wallets").all() as {
    organization_id: string;
  }[];
  for (const { organization_id: organizationId } of organizations) rebuildYieldAggregates(db, organizationId);
}

/**
 * Version 7 dropped the yield totals per organization (organization_yield_totals, begun by
 * version 3): every entry kept them, but nothing read them: yield metrics read the running sums
 * per source and the withdrawn history (version 4).
 */
function yieldTotalsDropped(db: DatabaseSync): void {
  db.exec("DROP TABLE IF EXISTS organization_yield_totals");
}
