import { randomBytes } from "node:crypto";
import type { DatabaseSync } from "node:sqlite";
import { rebuildYieldAggregates } from "../../sandbox/store/sourceAccrualStore.ts";

/**
 * Fills a sandbox data file quickly, for tests and benchmarks of how the sandbox behaves with many
 * wallets stored: copies of one wallet made through the API (its rows in every wallet table, its
 * deposit and its ledger entries), written by SQLite itself with INSERT … SELECT over a counter,
 * so a million wallets take a minute, not the hours a million API calls would. Each copy gets its
 * own ids, deposit addresses and transaction hashes; its figures are the template's, so every
 * copy balances against its own ledger as the template does. The organization's yield sums per
 * source and withdrawn history are built again over all its wallets.
 *
 * Run it on a data file no sandbox has open (between a sandbox's close and the next start).
 */

/** Per table: the columns a copy changes, as SQL over the template row and the counter `n.i`. */
const COPIED_TABLES: readonly { table: string; key: string; set: Record<string, string> }[] = [
  {
    table: "wallets",
    key: "id",
    set: { id: "$wallet", organization_id: "$org", request_id: "$request" },
  },
  { table: "wallet_targets", key: "wallet_id", set: { wallet_id: "$wallet" } },
  { table: "wallet_balances", key: "wallet_id", set: { wallet_id: "$wallet" } },
  {
    table: "deposit_addresses",
    key: "wallet_id",
    set: { wallet_id: "$wallet", address: "t.address || '-' || $tag || '-' || n.i" },
  },
  { table: "wallet_accruals", key: "wallet_id", set: { wallet_id: "$wallet" } },
  { table: "position_accrual_remainders", key: "wallet_id", set: { wallet_id: "$wallet" } },
  {
    table: "deposits",
    key: "wallet_id",
    set: {
      id: "$deposit",
      wallet_id: "$wallet",
      organization_id: "$org",
      address: "t.address || '-' || $tag || '-' || n.i",
      tx_hash: "t.tx_hash || '-' || $tag || '-' || n.i",
    },
  },
  {
    table: "ledger_entries",
    key: "wallet_id",
    set: {
      seq: "NULL",
      wallet_id: "$wallet",
      organization_id: "$org",
      ref_id: "CASE WHEN t.ref_id IS NULL THEN NULL ELSE t.ref_id || '-' || $tag || '-' || n.i END",
    },
  },
];

/** A UUID-shaped id per copy: a random prefix per call, the counter in the last group. */
const uuidOf = (prefix: string) => `printf('${prefix}-%012x', n.i)`;

export interface CloneOptions {
  /** The organization the copies belong to (default: the template's). */
  organizationId?: string;
  /** Copies per transaction (default 50,000): bounds the WAL and the memory a batch holds. */
  batch?: number;
}

/**
 * Writes `count` copies of wallet `templateId` into `db`; returns the copies' ids as the SQL
 * pattern they follow (the first and last, for tests that read one).
 */
export function cloneWallet(
  db: DatabaseSync,
  templateId: string,
  count: number,
  options: CloneOptions = {},
): { first: string; last: string; idOf: (index: number) => string } {
  const template = db.prepare("SELECT organization_id FROM wallets WHERE id = ?").get(templateId) as
    { organization_id: string } | undefined;
  if (template === undefined) throw new Error(`no wallet ${templateId} to copy`);
  const organizationId = options.organizationId ?? template.organization_id;
  const tag = randomBytes(4).toString("hex");
  const walletPrefix = `${tag}-c0de-4000-8000`;
  const substitutions: Record<string, string> = {
    $wallet: uuidOf(walletPrefix),
    $request: uuidOf(`${tag}-c0de-4000-9000`),
    // A wallet may have several deposits: the template row's rowid tells each copy's apart.
    $deposit: `printf('${tag}-c0de-4000-a000-%06x%06x', n.i, t.rowid)`,
    $org: "$organization",
    $tag: `'${tag}'`,
  };
  const statements = COPIED_TABLES.map(({ table, key, set }) => {
    const columns = (
      db.prepare("SELECT name FROM pragma_table_info(?)").all(table) as { name: string }[]
    ).map((c) => c.name);
    const values = columns.map((column) => {
      const expression = set[column] ?? `t.${column}`;
      return expression.replace(/\$\w+/g, (name) => substitutions[name] ?? name);
    });
    const statement = db.prepare(
      `WITH RECURSIVE n(i) AS (SELECT $from UNION ALL SELECT i + 1 FROM n WHERE i + 1 < $to)
       INSERT INTO ${table} (${columns.join(", ")})
       SELECT ${values.join(", ")} FROM n CROSS JOIN ${table} t WHERE t.${key} = $template`,
    );
    // One set of parameters for every table's statement; each uses what it needs.
    statement.setAllowUnknownNamedParameters(true);
    return statement;
  });
  const batch = options.batch ?? 50_000;
  for (let from = 0; from < count; from += batch) {
    const to = Math.min(count, from + batch);
    db.exec("BEGIN IMMEDIATE");
    try {
      for (const statement of statements) {
        statement.run({ from, to, template: templateId, organization: organizationId });
      }
      db.exec("COMMIT");
    } catch (error) {
      db.exec("ROLLBACK");
      throw error;
    }
  }
  // The organization's yield sums per source and withdrawn history, built again over every
  // wallet it now holds (one pass, as a migration would).
  db.exec("BEGIN IMMEDIATE");
  try {
    rebuildYieldAggregates(db, organizationId);
    db.exec("COMMIT");
  } catch (error) {
    db.exec("ROLLBACK");
    throw error;
  }
  const idOf = (index: number) => `${walletPrefix}-${index.toString(16).padStart(12, "0")}`;
  return { first: idOf(0), last: idOf(count - 1), idOf };
}

/**
 * Appends `count` ledger rows to one wallet, as a long history would, for tests of whether another
 * organization's requests read them: rebalance entries of +1 and −1 micro, and accrual and payout
 * entries of 0, in turn, so the wallet's audit and its organization's totals are unchanged.
 */
export function growLedger(db: DatabaseSync, walletId: string, count: number): void {
  const wallet = db.prepare("SELECT organization_id, created_at FROM wallets WHERE id = ?").get(walletId) as
    { organization_id: string; created_at: string } | undefined;
  if (wallet === undefined) throw new Error(`no wallet ${walletId}`);
  db.exec("BEGIN IMMEDIATE");
  try {
    db.prepare(
      `WITH RECURSIVE n(i) AS (SELECT 0 UNION ALL SELECT i + 1 FROM n WHERE i + 1 < ?)
       INSERT INTO ledger_entries (organization_id, wallet_id, kind, position_key, amount_micros, yield_micros, from_at, at)
       SELECT ?, ?,
         CASE n.i % 4 WHEN 2 THEN 'accrual' WHEN 3 THEN 'payout_completed' ELSE 'rebalance' END,
         'tbills', CASE n.i % 4 WHEN 0 THEN 1 WHEN 1 THEN -1 ELSE 0 END, 0, ?, ? FROM n`,
    ).run(count, wallet.organization_id, walletId, wallet.created_at, wallet.created_at);
    db.exec("COMMIT");
  } catch (error) {
    db.exec("ROLLBACK");
    throw error;
  }
}
