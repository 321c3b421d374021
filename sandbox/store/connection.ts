import type { DatabaseSync, StatementSync } from "node:sqlite";

/**
 * What the stores, the domain and the migrations use of a connection: one transaction helper and
 * bigint reads. A leaf: it imports no store, so db.ts may run the migrations, which use the stores,
 * without a circle back to the module that opens the connection.
 */

/** Runs `work` in one transaction: all of its writes land, or none do. */
export function inTransaction<T>(db: DatabaseSync, work: () => T): T {
  if (db.isTransaction) return work();
  db.exec("BEGIN IMMEDIATE");
  try {
    const result = work();
    db.exec("COMMIT");
    return result;
  } catch (error) {
    db.exec("ROLLBACK");
    throw error;
  }
}

/**
 * A statement whose INTEGER columns read as bigint. Money columns hold micros, which may pass
 * 2^53; read as numbers they would throw (node:sqlite refuses to lose precision). Row mappers turn
 * the other integer columns (counts, sort orders) back into numbers.
 */
export function prepareReadingBigInts(db: DatabaseSync, sql: string): StatementSync {
  const statement = db.prepare(sql);
  statement.setReadBigInts(true);
  return statement;
}
