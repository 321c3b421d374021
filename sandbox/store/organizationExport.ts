import type { DatabaseSync } from "node:sqlite";
import { DatabaseSync as Database } from "node:sqlite";
import { inTransaction } from "./connection.ts";
import { migrate, SCHEMA_VERSION } from "./migrations.ts";
import {
  ATTACHED,
  markFile,
  SNAPSHOT_FORMAT_VERSION,
  tablesOf,
  withAttached,
  writeAtomically,
} from "./snapshotFiles.ts";
import { rebuildYieldAggregates } from "./sourceAccrualStore.ts";

/**
 * One organization's wallets, balances and history, exported to a file and imported into an
 * organization of another sandbox (docs/sandbox.md "Organization export and import"). The file is
 * the snapshot container (snapshotFiles.ts) of kind `organization`, holding the rows below only.
 * Ids are kept, not remapped: pipelines' state and fixtures name wallets by id, so an imported
 * wallet must answer to the id it had; an import whose ids already exist is refused instead.
 */

/** Rows of the organization's wallets: selected by wallet, written with no organization column. */
const BY_WALLET = (schema: string) =>
  `wallet_id IN (SELECT id FROM ${schema}.wallets WHERE organization_id = ?)`;
const BY_ORGANIZATION = "organization_id = ?";

/**
 * The tables exported, in the order they are written (parents first), with how the organization's
 * rows are found. Not exported: the organization's yield aggregates (rebuilt from its ledger on
 * import, since they point into the exporting sandbox's rate history), its webhooks and their
 * deliveries (receivers of the other sandbox), its approver keys, policy, rates and clock.
 */
const EXPORTED: readonly { table: string; where: (schema: string) => string; orderBy?: string }[] = [
  { table: "wallets", where: () => BY_ORGANIZATION },
  { table: "wallet_targets", where: BY_WALLET },
  { table: "wallet_balances", where: BY_WALLET },
  { table: "deposit_addresses", where: BY_WALLET },
  { table: "wallet_accruals", where: BY_WALLET },
  { table: "position_accrual_remainders", where: BY_WALLET },
  { table: "signing_activities", where: () => BY_ORGANIZATION },
  {
    table: "signing_votes",
    where: (schema) =>
      `activity_id IN (SELECT id FROM ${schema}.signing_activities WHERE organization_id = ?)`,
  },
  { table: "strategy_updates", where: () => BY_ORGANIZATION },
  { table: "deposits", where: () => BY_ORGANIZATION },
  { table: "withdrawals", where: () => BY_ORGANIZATION },
  {
    table: "withdrawal_legs",
    where: (schema) => `withdrawal_id IN (SELECT id FROM ${schema}.withdrawals WHERE organization_id = ?)`,
  },
  // Ledger rows get new sequence numbers in the importing sandbox, in their exported order.
  { table: "ledger_entries", where: () => BY_ORGANIZATION, orderBy: "seq" },
  { table: "idempotency_keys", where: () => BY_ORGANIZATION },
];

/** Tables whose rows are named by an `id` unique in the whole sandbox, and what an id names. */
const IDENTIFIED: readonly { table: string; what: string }[] = [
  { table: "wallets", what: "portfolio wallet" },
  { table: "strategy_updates", what: "strategy update" },
  { table: "deposits", what: "deposit" },
  { table: "withdrawals", what: "withdrawal" },
  { table: "signing_activities", what: "signing activity" },
  { table: "signing_votes", what: "signing vote" },
];

/** Writes the organization's rows to `file` (which must not exist), marked with its time. */
export async function exportOrganization(
  db: DatabaseSync,
  organizationId: string,
  file: string,
  times: { savedAt: string; organizationNow: string },
): Promise<{ wallets: number; ledgerEntries: number }> {
  let counts = { wallets: 0, ledgerEntries: 0 };
  await writeAtomically(file, async (partial) => {
    // An empty database at the current schema: the sandbox's own tables, none of its rows.
    const out = new Database(partial);
    try {
      migrate(out);
    } finally {
      out.close();
    }
    withAttached(db, partial, () =>
      inTransaction(db, () => {
        const columns = tablesOf(db, "main");
        for (const { table, where, orderBy } of EXPORTED) {
          const list = (columns.get(table) ?? []).map((column) => `"${column}"`).join(", ");
          db.prepare(
            `INSERT INTO ${ATTACHED}."${table}" (${list}) SELECT ${list} FROM main."${table}" WHERE ${where("main")}${orderBy === undefined ? "" : ` ORDER BY ${orderBy}`}`,
          ).run(organizationId);
        }
        counts = {
          wallets: countRows(db, ATTACHED, "wallets"),
          ledgerEntries: countRows(db, ATTACHED, "ledger_entries"),
        };
      }),
    );
    markFile(partial, {
      kind: "organization",
      formatVersion: SNAPSHOT_FORMAT_VERSION,
      schemaVersion: SCHEMA_VERSION,
      savedAt: times.savedAt,
      organizationId,
      organizationNow: times.organizationNow,
    });
  });
  return counts;
}

const countRows = (db: DatabaseSync, schema: string, table: string) =>
  (db.prepare(`SELECT COUNT(*) AS n FROM ${schema}."${table}"`).get() as { n: number }).n;

/** Why an export cannot be imported into `organizationId` of `db`; null when it can. */
function importConflict(db: DatabaseSync, organizationId: string): string | null {
  if (
    db.prepare("SELECT 1 FROM main.wallets WHERE organization_id = ? LIMIT 1").get(organizationId) !==
    undefined
  )
    return `organization "${organizationId}" already has wallets; import into an organization with none (another API token), or into a new sandbox`;
  for (const { table, what } of IDENTIFIED) {
    const clash = db
      .prepare(`SELECT id FROM ${ATTACHED}."${table}" WHERE id IN (SELECT id FROM main."${table}") LIMIT 1`)
      .get() as { id: string } | undefined;
    if (clash !== undefined)
      return `${what} ${clash.id} of the export already exists in this sandbox (ids are kept on import, not remapped); import into a sandbox that does not hold it`;
  }
  const address = db
    .prepare(
      `SELECT chain, address FROM ${ATTACHED}.deposit_addresses
       WHERE (chain, address) IN (SELECT chain, address FROM main.deposit_addresses) LIMIT 1`,
    )
    .get() as { chain: string; address: string } | undefined;
  if (address !== undefined)
    return `deposit address ${address.address} on ${address.chain} of the export is already a wallet's in this sandbox`;
  const key = db
    .prepare(
      `SELECT endpoint, request_id FROM ${ATTACHED}.idempotency_keys
       WHERE (endpoint, request_id) IN (SELECT endpoint, request_id FROM main.idempotency_keys WHERE organization_id = ?) LIMIT 1`,
    )
    .get(organizationId) as { endpoint: string; request_id: string } | undefined;
  if (key !== undefined)
    return `organization "${organizationId}" already used requestId ${key.request_id} (${key.endpoint}), which the export holds too; import into an organization that has not`;
  const missingSource = db
    .prepare(
      `SELECT position_key FROM (SELECT position_key FROM ${ATTACHED}.wallet_balances UNION SELECT position_key FROM ${ATTACHED}.wallet_targets)
       WHERE position_key NOT IN (SELECT position_key FROM main.catalog_entries) LIMIT 1`,
    )
    .get() as { position_key: string } | undefined;
  if (missingSource !== undefined)
    return `the export holds money in yield source ${missingSource.position_key}, which this sandbox's catalog lacks; start the sandbox with a catalog that has it (--catalog)`;
  return null;
}

/** Copies every exported row into `organizationId`, ledger entries with new sequence numbers. */
function copyExportedRows(db: DatabaseSync, organizationId: string): void {
  const columns = tablesOf(db, "main");
  for (const { table, orderBy } of EXPORTED) {
    const names = (columns.get(table) ?? []).filter(
      (column) => !(table === "ledger_entries" && column === "seq"),
    );
    const list = names.map((column) => `"${column}"`).join(", ");
    // The organization's own column takes the importing organization's id.
    const values = names.map((column) => (column === "organization_id" ? "?1" : `"${column}"`)).join(", ");
    const statement = db.prepare(
      `INSERT INTO main."${table}" (${list}) SELECT ${values} FROM ${ATTACHED}."${table}"${orderBy === undefined ? "" : ` ORDER BY ${orderBy}`}`,
    );
    if (names.includes("organization_id")) statement.run(organizationId);
    else statement.run();
  }
}

/**
 * Imports an export read from `path` into `organizationId`, in one transaction: every row, or on a
 * refusal or failure none. `beforeCommit` runs last inside it (the caller moves the organization's
 * clock there). Throws an ImportConflict when the organization or the ids are taken.
 */
export function importOrganization(
  db: DatabaseSync,
  organizationId: string,
  path: string,
  beforeCommit: () => void,
): { wallets: number; ledgerEntries: number } {
  return withAttached(db, path, () =>
    inTransaction(db, () => {
      const conflict = importConflict(db, organizationId);
      if (conflict !== null) throw new ImportConflict(conflict);
      try {
        copyExportedRows(db, organizationId);
      } catch (error) {
        // A uniqueness the checks above do not name (the transaction rolls back all of it).
        if (error instanceof Error && /constraint failed/i.test(error.message))
          throw new ImportConflict(
            `the export's rows clash with this sandbox's (${error.message}); import into a sandbox that does not hold them`,
          );
        throw error;
      }
      // The aggregates the yield metrics read, built from the imported ledger and wallets.
      rebuildYieldAggregates(db, organizationId);
      const counts = {
        wallets: countRows(db, ATTACHED, "wallets"),
        ledgerEntries: countRows(db, ATTACHED, "ledger_entries"),
      };
      beforeCommit();
      return counts;
    }),
  );
}

/** The importing organization or sandbox already holds what the export would bring. */
export class ImportConflict extends Error {
  override name = "ImportConflict";
}
