/**
 * SQLite schema of the sandbox: the tables and indexes of the current schema version. Statements
 * are idempotent (`IF NOT EXISTS`) and run at every open, so a new table or index reaches existing
 * data files with no migration step; what changes data or drops an object is a numbered step in
 * migrations.ts. Money is stored as whole micro-units in INTEGER columns (`*_micros`), like every
 * money table (moneySchema.ts); the API's USD numbers are computed from them (sdk/nodejs/contract/money.ts).
 */
export const SCHEMA_STATEMENTS: readonly string[] = [
  `CREATE TABLE IF NOT EXISTS catalog_entries (
     position_key TEXT PRIMARY KEY,
     asset TEXT NOT NULL,
     strategy_type TEXT NOT NULL,
     max_processing_time TEXT NOT NULL,
     current_rate_bps REAL NOT NULL,
     rate_updated_at TEXT NOT NULL,
     display_name TEXT,
     sort_order INTEGER NOT NULL
   )`,
  `CREATE TABLE IF NOT EXISTS org_policies (
     organization_id TEXT PRIMARY KEY,
     strategy_update_approvals INTEGER NOT NULL DEFAULT 0,
     withdrawal_approvals INTEGER NOT NULL DEFAULT 0,
     updated_at TEXT NOT NULL
   )`,
  `CREATE TABLE IF NOT EXISTS wallets (
     id TEXT PRIMARY KEY,
     organization_id TEXT NOT NULL,
     request_id TEXT NOT NULL,
     label TEXT,
     status TEXT NOT NULL,
     pending_allocations_micros INTEGER NOT NULL DEFAULT 0,
     created_at TEXT NOT NULL,
     updated_at TEXT NOT NULL
   )`,
  `CREATE INDEX IF NOT EXISTS wallets_by_org_created ON wallets (organization_id, created_at DESC, id DESC)`,
  // Target allocation (strategyConfig). asset and maxProcessingTime are copied from the catalog at
  // the time the target was set, so a wallet stays readable if its source leaves the catalog.
  `CREATE TABLE IF NOT EXISTS wallet_targets (
     wallet_id TEXT NOT NULL REFERENCES wallets(id),
     position_key TEXT NOT NULL,
     target_weight_bps INTEGER NOT NULL,
     asset TEXT NOT NULL,
     max_processing_time TEXT NOT NULL,
     sort_order INTEGER NOT NULL,
     PRIMARY KEY (wallet_id, position_key)
   )`,
  // What the wallet holds, per position, in micros. Sandbox prices are 1 unit = 1 USD, so the
  // position's balanceUnits is its value.
  `CREATE TABLE IF NOT EXISTS wallet_balances (
     wallet_id TEXT NOT NULL REFERENCES wallets(id),
     position_key TEXT NOT NULL,
     value_micros INTEGER NOT NULL DEFAULT 0,
     updated_at TEXT NOT NULL,
     PRIMARY KEY (wallet_id, position_key)
   )`,
  // A wallet's targets in their order, with no sort.
  `CREATE INDEX IF NOT EXISTS wallet_targets_by_order ON wallet_targets (wallet_id, sort_order)`,
  `CREATE TABLE IF NOT EXISTS deposit_addresses (
     wallet_id TEXT NOT NULL REFERENCES wallets(id),
     chain TEXT NOT NULL,
     address TEXT NOT NULL,
     total_received_micros INTEGER NOT NULL DEFAULT 0,
     pending_allocations_micros INTEGER NOT NULL DEFAULT 0,
     PRIMARY KEY (wallet_id, chain),
     UNIQUE (chain, address)
   )`,
  // A wallet's addresses in the order they were made (rowid), with no sort.
  `CREATE INDEX IF NOT EXISTS deposit_addresses_by_wallet ON deposit_addresses (wallet_id)`,
  // The wallet an incoming transfer's address belongs to, on whichever chain.
  `CREATE INDEX IF NOT EXISTS deposit_addresses_by_address ON deposit_addresses (address)`,
  `CREATE TABLE IF NOT EXISTS strategy_updates (
     id TEXT PRIMARY KEY,
     organization_id TEXT NOT NULL,
     wallet_id TEXT NOT NULL REFERENCES wallets(id),
     request_id TEXT NOT NULL,
     status TEXT NOT NULL,
     positions_json TEXT NOT NULL,
     signing_activity_id TEXT,
     failure_reason TEXT,
     planned_failure_reason TEXT,
     due_at TEXT,
     created_at TEXT NOT NULL,
     updated_at TEXT NOT NULL
   )`,
  `CREATE INDEX IF NOT EXISTS strategy_updates_by_status ON strategy_updates (status, due_at)`,
  // A wallet's updates newest first (the console's list), with no sort.
  `CREATE INDEX IF NOT EXISTS strategy_updates_by_wallet_created
     ON strategy_updates (wallet_id, created_at DESC, id DESC)`,
  // A wallet's unfinished updates, not every organization's.
  `CREATE INDEX IF NOT EXISTS strategy_updates_by_wallet_status ON strategy_updates (wallet_id, status)`,
  `CREATE TABLE IF NOT EXISTS signing_activities (
     id TEXT PRIMARY KEY,
     organization_id TEXT NOT NULL,
     kind TEXT NOT NULL,
     subject_id TEXT NOT NULL,
     fingerprint TEXT NOT NULL UNIQUE,
     required_approvals INTEGER NOT NULL,
     status TEXT NOT NULL,
     failure_reason TEXT,
     created_at TEXT NOT NULL,
     updated_at TEXT NOT NULL
   )`,
  // The signing provider's API keys allowed to vote for an organization (signingProviderStore.ts).
  `CREATE TABLE IF NOT EXISTS signing_api_keys (
     organization_id TEXT NOT NULL,
     public_key TEXT NOT NULL,
     user_id TEXT NOT NULL,
     user_name TEXT NOT NULL,
     created_at TEXT NOT NULL,
     PRIMARY KEY (organization_id, public_key)
   )`,
  // One vote per key and activity: a key voting twice still counts once.
  `CREATE TABLE IF NOT EXISTS signing_votes (
     id TEXT PRIMARY KEY,
     activity_id TEXT NOT NULL REFERENCES signing_activities(id),
     public_key TEXT NOT NULL,
     user_id TEXT NOT NULL,
     selection TEXT NOT NULL,
     message TEXT NOT NULL,
     signature TEXT NOT NULL,
     created_at TEXT NOT NULL,
     UNIQUE (activity_id, public_key)
   )`,
  `CREATE INDEX IF NOT EXISTS signing_votes_by_activity ON signing_votes (activity_id, created_at)`,
  // An organization's activities in one status, newest first (the console's approvals), with no sort.
  `CREATE INDEX IF NOT EXISTS signing_activities_by_org_status_created
     ON signing_activities (organization_id, status, created_at DESC, id DESC)`,
  `CREATE INDEX IF NOT EXISTS signing_activities_by_org_created
     ON signing_activities (organization_id, created_at DESC, id DESC)`,
  `CREATE INDEX IF NOT EXISTS signing_api_keys_by_org_created
     ON signing_api_keys (organization_id, created_at, public_key)`,
  // The stamp check asks whether any organization registered a key before it reads the body.
  `CREATE INDEX IF NOT EXISTS signing_api_keys_by_public_key ON signing_api_keys (public_key)`,
  `CREATE TABLE IF NOT EXISTS idempotency_keys (
     organization_id TEXT NOT NULL,
     endpoint TEXT NOT NULL,
     request_id TEXT NOT NULL,
     body_fingerprint TEXT NOT NULL,
     resource_id TEXT NOT NULL,
     created_at TEXT NOT NULL,
     PRIMARY KEY (organization_id, endpoint, request_id)
   )`,
  `CREATE TABLE IF NOT EXISTS webhook_registrations (
     id TEXT PRIMARY KEY,
     organization_id TEXT NOT NULL,
     url TEXT NOT NULL,
     status TEXT NOT NULL,
     event_types_json TEXT NOT NULL,
     description TEXT,
     secret TEXT NOT NULL,
     created_at TEXT NOT NULL,
     updated_at TEXT NOT NULL,
     disabled_at TEXT,
     disabled_reason TEXT
   )`,
  `CREATE INDEX IF NOT EXISTS webhooks_by_org_created ON webhook_registrations (organization_id, created_at DESC, id DESC)`,
  // Webhook inboxes (domain/events/inboxes.ts): receivers the sandbox hosts, per organization, each
  // with the answer it gives and a ring of the deliveries it received (seq grows per inbox; the
  // oldest row beyond the ring's capacity is deleted as each new one is written).
  `CREATE TABLE IF NOT EXISTS webhook_inboxes (
     organization_id TEXT NOT NULL,
     name TEXT NOT NULL,
     answer_status INTEGER NOT NULL,
     answer_delay_ms INTEGER NOT NULL,
     created_at TEXT NOT NULL,
     updated_at TEXT NOT NULL,
     PRIMARY KEY (organization_id, name)
   )`,
  `CREATE TABLE IF NOT EXISTS webhook_inbox_deliveries (
     organization_id TEXT NOT NULL,
     inbox_name TEXT NOT NULL,
     seq INTEGER NOT NULL,
     id TEXT NOT NULL UNIQUE,
     received_at TEXT NOT NULL,
     event_id TEXT NOT NULL,
     event_type TEXT NOT NULL,
     registration_id TEXT NOT NULL,
     delivery_id TEXT NOT NULL,
     attempt INTEGER NOT NULL,
     headers_json TEXT NOT NULL,
     body TEXT NOT NULL,
     signature_valid INTEGER NOT NULL,
     signature_reason TEXT,
     answer_status INTEGER NOT NULL,
     answer_delay_ms INTEGER NOT NULL,
     PRIMARY KEY (organization_id, inbox_name, seq)
   )`,
  // Sandbox-wide settings that must survive a restart, such as the shared clock's offset.
  `CREATE TABLE IF NOT EXISTS sandbox_settings (
     key TEXT PRIMARY KEY,
     value TEXT NOT NULL
   )`,
  // Organizations with a clock or rates of their own (docs/sandbox.md "Time", "Rates per
  // organization"): how far the organization's clock is ahead of the shared one (sandbox/clock.ts
  // OrganizationClocks), and when, on its clock, it first had either (forked_at). Until then its
  // time and rates are the shared ones, and shared rates set after it apply to it as rows of its
  // own, on its clock (catalogStore.ts). An organization that never had either has no row.
  `CREATE TABLE IF NOT EXISTS organization_clocks (
     organization_id TEXT PRIMARY KEY,
     lead_ms INTEGER NOT NULL,
     forked_at TEXT NOT NULL
   )`,
  // An organization's due work, found without reading another's (dueWorkScheduler.ts).
  `CREATE INDEX IF NOT EXISTS strategy_updates_by_org_due ON strategy_updates (organization_id, status, due_at)`,
];
