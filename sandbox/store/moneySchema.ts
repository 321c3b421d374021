/**
 * SQLite schema of money flows: rate history, accrual state, the ledger, deposits, withdrawals and
 * webhook deliveries. Money is counted in whole micro-units (1e-6 USD) in INTEGER columns, as in
 * the wallet tables. Every statement is idempotent, like schema.ts; what changes an older file's
 * data or drops what it had is a step in migrations.ts.
 */
/**
 * The triggers that record the shared catalog's rates in rate_history (organization_id ''), each
 * never before the key's last shared rate. Schema version 5 replaced older files' copies, whose
 * "last rate" also counted organizations' own rows (migrations.ts).
 */
export const SHARED_RATE_TRIGGERS: readonly string[] = [
  `CREATE TRIGGER IF NOT EXISTS rate_history_on_catalog_insert AFTER INSERT ON catalog_entries BEGIN
     INSERT INTO rate_history (position_key, rate_bps, effective_from)
     VALUES (NEW.position_key, NEW.current_rate_bps, MAX(NEW.rate_updated_at,
       COALESCE((SELECT MAX(effective_from) FROM rate_history
                 WHERE organization_id = '' AND position_key = NEW.position_key), '')));
   END`,
  `CREATE TRIGGER IF NOT EXISTS rate_history_on_rate_change AFTER UPDATE OF current_rate_bps ON catalog_entries BEGIN
     INSERT INTO rate_history (position_key, rate_bps, effective_from)
     VALUES (NEW.position_key, NEW.current_rate_bps, MAX(NEW.rate_updated_at,
       COALESCE((SELECT MAX(effective_from) FROM rate_history
                 WHERE organization_id = '' AND position_key = NEW.position_key), '')));
   END`,
];

/**
 * Indexes on columns a migration step adds to an existing table: created once the steps have run
 * (migrations.ts), since the schema's statements run before them, on an older file's tables.
 */
export const INDEXES_ON_ADDED_COLUMNS: readonly string[] = [
  // A yield source's shared rates, and one organization's own (rateHistoryStore.ts).
  `CREATE INDEX IF NOT EXISTS rate_history_by_org_key
     ON rate_history (organization_id, position_key, effective_from, seq)`,
  // One wallet's deliveries newest first (the console's Events page filtered by wallet), read in
  // order from the index whatever the number of wallets: webhookDeliveryStore.ts listDeliveries.
  `CREATE INDEX IF NOT EXISTS webhook_deliveries_by_org_wallet_seq
     ON webhook_deliveries (organization_id, wallet_id, seq)`,
];

export const MONEY_SCHEMA_STATEMENTS: readonly string[] = [
  // Every rate a yield source has had, and since when: accrual integrates over it piecewise.
  // organization_id '' is the shared catalog's, recorded by triggers on each catalog insert and rate
  // change, whoever makes it, on the shared clock; an organization's own rows (its view of the
  // catalog: docs/sandbox.md "Rates per organization") are on its clock. effective_from never
  // moves backwards for a key and owner, so a catalog file with an old rateUpdatedAt cannot
  // rewrite history.
  `CREATE TABLE IF NOT EXISTS rate_history (
     seq INTEGER PRIMARY KEY AUTOINCREMENT,
     position_key TEXT NOT NULL,
     rate_bps REAL NOT NULL,
     effective_from TEXT NOT NULL,
     organization_id TEXT NOT NULL DEFAULT ''
   )`,
  `CREATE INDEX IF NOT EXISTS rate_history_by_key ON rate_history (position_key, effective_from, seq)`,
  ...SHARED_RATE_TRIGGERS,
  // Per wallet: how far accrual has been settled, and the yield still held (generated, not paid out).
  `CREATE TABLE IF NOT EXISTS wallet_accruals (
     wallet_id TEXT PRIMARY KEY REFERENCES wallets(id),
     accrued_through TEXT NOT NULL,
     yield_outstanding_micros INTEGER NOT NULL DEFAULT 0
   )`,
  // The fraction of a micro-unit each position has earned but not yet been credited (a bigint as
  // text, in units of 1 / ACCRUAL_DENOMINATOR micro), so frequent settling loses nothing.
  `CREATE TABLE IF NOT EXISTS position_accrual_remainders (
     wallet_id TEXT NOT NULL REFERENCES wallets(id),
     position_key TEXT NOT NULL,
     remainder TEXT NOT NULL,
     PRIMARY KEY (wallet_id, position_key)
   )`,
  // Append-only record of every money movement; totals are auditable against balances.
  `CREATE TABLE IF NOT EXISTS ledger_entries (
     seq INTEGER PRIMARY KEY AUTOINCREMENT,
     organization_id TEXT NOT NULL,
     wallet_id TEXT NOT NULL REFERENCES wallets(id),
     kind TEXT NOT NULL,
     position_key TEXT,
     amount_micros INTEGER NOT NULL,
     yield_micros INTEGER NOT NULL DEFAULT 0,
     ref_id TEXT,
     detail TEXT,
     from_at TEXT,
     at TEXT NOT NULL
   )`,
  `CREATE INDEX IF NOT EXISTS ledger_by_wallet_kind ON ledger_entries (wallet_id, kind, at)`,
  // A position's latest accrual entry (accrual.ts extends it within an accrual period).
  `CREATE INDEX IF NOT EXISTS ledger_by_wallet_position ON ledger_entries (wallet_id, kind, position_key, at)`,
  // Every organization-wide read starts with the organization: no request reads another's rows.
  `CREATE INDEX IF NOT EXISTS ledger_by_org_kind ON ledger_entries (organization_id, kind, at)`,
  `CREATE INDEX IF NOT EXISTS ledger_by_org_seq ON ledger_entries (organization_id, seq)`,
  // A wallet's newest entries (the admin ledger listing of one wallet).
  `CREATE INDEX IF NOT EXISTS ledger_by_wallet_seq ON ledger_entries (wallet_id, seq)`,
  // One withdrawal's or deposit's entries (when each payout leg left, was paid, came back).
  `CREATE INDEX IF NOT EXISTS ledger_by_wallet_ref ON ledger_entries (wallet_id, ref_id, seq)`,
  // Running accrual sums per organization and yield source (sourceAccrualStore.ts), one row per
  // change: the organization's yield at any time without reading its wallets. Bigints as text.
  `CREATE TABLE IF NOT EXISTS organization_source_accruals (
     organization_id TEXT NOT NULL,
     position_key TEXT NOT NULL,
     as_of TEXT NOT NULL,
     rate_seq INTEGER NOT NULL,
     positions TEXT NOT NULL,
     held_micros TEXT NOT NULL,
     value_units TEXT NOT NULL,
     weighted_units TEXT NOT NULL,
     credited_micros TEXT NOT NULL,
     PRIMARY KEY (organization_id, position_key, as_of)
   )`,
  // Rows written after a rate's time, found when a rate is recorded late (sourceAccrualStore.ts).
  `CREATE INDEX IF NOT EXISTS organization_source_accruals_by_key
     ON organization_source_accruals (position_key, as_of)`,
  // The sources an organization's money has been in: which rows of the sums a global read visits.
  `CREATE TABLE IF NOT EXISTS organization_sources (
     organization_id TEXT NOT NULL,
     position_key TEXT NOT NULL,
     PRIMARY KEY (organization_id, position_key)
   )`,
  // The organization's yield withdrawn (completed payouts' yield shares) in all, through each
  // instant a payout completed: the withdrawn figure of any period from two rows (ledgerStore.ts).
  `CREATE TABLE IF NOT EXISTS organization_withdrawn_history (
     organization_id TEXT NOT NULL,
     at TEXT NOT NULL,
     withdrawn_micros TEXT NOT NULL,
     PRIMARY KEY (organization_id, at)
   )`,
  `CREATE TABLE IF NOT EXISTS deposits (
     id TEXT PRIMARY KEY,
     organization_id TEXT NOT NULL,
     wallet_id TEXT NOT NULL REFERENCES wallets(id),
     chain TEXT NOT NULL,
     address TEXT NOT NULL,
     tx_hash TEXT NOT NULL,
     amount_micros INTEGER NOT NULL,
     status TEXT NOT NULL,
     leg_statuses_json TEXT NOT NULL,
     next_step_at TEXT,
     failure_reason TEXT,
     created_at TEXT NOT NULL,
     updated_at TEXT NOT NULL,
     completed_at TEXT
   )`,
  `CREATE UNIQUE INDEX IF NOT EXISTS deposits_by_tx ON deposits (organization_id, chain, tx_hash)`,
  `CREATE INDEX IF NOT EXISTS deposits_by_wallet_created ON deposits (wallet_id, created_at DESC, id DESC)`,
  // Due deposit steps in the order they are taken (dueWorkScheduler), with no sort.
  `CREATE INDEX IF NOT EXISTS deposits_by_next_step_id ON deposits (next_step_at, id)`,
  // One organization's due deposit steps, when its clock runs ahead of the shared one.
  `CREATE INDEX IF NOT EXISTS deposits_by_org_next_step ON deposits (organization_id, next_step_at, id)`,
  `CREATE TABLE IF NOT EXISTS withdrawals (
     id TEXT PRIMARY KEY,
     organization_id TEXT NOT NULL,
     wallet_id TEXT NOT NULL REFERENCES wallets(id),
     request_id TEXT NOT NULL,
     status TEXT NOT NULL,
     amount_micros INTEGER NOT NULL,
     destination_token TEXT NOT NULL,
     destination_chain TEXT NOT NULL,
     destination_address TEXT NOT NULL,
     signing_activity_id TEXT,
     failure_reason TEXT,
     created_at TEXT NOT NULL,
     updated_at TEXT NOT NULL,
     completed_at TEXT
   )`,
  `CREATE INDEX IF NOT EXISTS withdrawals_by_wallet_created ON withdrawals (wallet_id, created_at DESC, id DESC)`,
  // A wallet's withdrawals awaiting approval (held from what it may withdraw), not all it ever made.
  `CREATE INDEX IF NOT EXISTS withdrawals_by_wallet_status ON withdrawals (wallet_id, status)`,
  // One organization's withdrawals still paying out, whose processing legs are its due payout work.
  `CREATE INDEX IF NOT EXISTS withdrawals_by_org_status ON withdrawals (organization_id, status)`,
  // One row per payout leg. sources_json: [{ positionKey, micros }] drawn from the positions.
  `CREATE TABLE IF NOT EXISTS withdrawal_legs (
     withdrawal_id TEXT NOT NULL REFERENCES withdrawals(id),
     leg_key TEXT NOT NULL,
     sort_order INTEGER NOT NULL,
     amount_micros INTEGER NOT NULL,
     yield_micros INTEGER NOT NULL DEFAULT 0,
     max_processing_time TEXT NOT NULL,
     sources_json TEXT NOT NULL,
     status TEXT NOT NULL,
     due_at TEXT,
     planned_failure_reason TEXT,
     updated_at TEXT NOT NULL,
     PRIMARY KEY (withdrawal_id, leg_key)
   )`,
  // Due legs in the order they are paid, and a withdrawal's legs in order, each with no sort.
  `CREATE INDEX IF NOT EXISTS withdrawal_legs_by_due_order
     ON withdrawal_legs (status, due_at, withdrawal_id, sort_order)`,
  `CREATE INDEX IF NOT EXISTS withdrawal_legs_by_withdrawal ON withdrawal_legs (withdrawal_id, sort_order)`,
  `CREATE TABLE IF NOT EXISTS webhook_events (
     id TEXT PRIMARY KEY,
     organization_id TEXT NOT NULL,
     type TEXT NOT NULL,
     payload TEXT NOT NULL,
     created_at TEXT NOT NULL
   )`,
  // Pruning finds old events by age, not by reading them all.
  `CREATE INDEX IF NOT EXISTS webhook_events_by_created ON webhook_events (created_at)`,
  // One row per (event, registration). next_attempt_at is real time in epoch ms: retries wait on
  // the wall clock, since the receiver's clock is what the signature timestamp is checked against.
  // wallet_id: the wallet its event is about (the event data's portfolioWalletId; null for a test
  // event), so one wallet's deliveries are listed from an index (migrations.ts version 6 added it).
  `CREATE TABLE IF NOT EXISTS webhook_deliveries (
     id TEXT PRIMARY KEY,
     seq INTEGER NOT NULL,
     organization_id TEXT NOT NULL,
     event_id TEXT NOT NULL REFERENCES webhook_events(id),
     event_type TEXT NOT NULL,
     registration_id TEXT NOT NULL,
     url TEXT NOT NULL,
     status TEXT NOT NULL,
     attempts INTEGER NOT NULL DEFAULT 0,
     next_attempt_at INTEGER,
     last_attempt_at TEXT,
     last_response_status INTEGER,
     last_error TEXT,
     delivered_at TEXT,
     created_at TEXT NOT NULL,
     updated_at TEXT NOT NULL,
     wallet_id TEXT
   )`,
  `CREATE INDEX IF NOT EXISTS webhook_deliveries_due ON webhook_deliveries (status, next_attempt_at)`,
  // The registrations that have deliveries due: what a dispatch pass visits.
  `CREATE INDEX IF NOT EXISTS webhook_deliveries_due_by_registration
     ON webhook_deliveries (status, next_attempt_at, organization_id, registration_id)`,
  // The outbox stays fast at any size: the next seq is read from an index (O(log n), not a scan),
  // each registration's due deliveries are found by one (fair, per-registration dispatch), and
  // finished history is pruned by time and per organization (webhookDeliveryStore.ts).
  `CREATE INDEX IF NOT EXISTS webhook_deliveries_by_seq ON webhook_deliveries (seq)`,
  `CREATE INDEX IF NOT EXISTS webhook_deliveries_by_org_seq ON webhook_deliveries (organization_id, seq)`,
  `CREATE INDEX IF NOT EXISTS webhook_deliveries_by_registration_due
     ON webhook_deliveries (registration_id, status, next_attempt_at, seq)`,
  `CREATE INDEX IF NOT EXISTS webhook_deliveries_by_event ON webhook_deliveries (event_id)`,
  `CREATE INDEX IF NOT EXISTS webhook_deliveries_finished ON webhook_deliveries (status, updated_at)`,
];
