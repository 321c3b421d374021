import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { DatabaseSync, type StatementSync } from "node:sqlite";
import { migrate } from "./migrations.ts";

/** File name of the sandbox database inside `--data <dir>`. */
export const DATABASE_FILE = "sandbox.sqlite";

/**
 * Opens (and creates if needed) the sandbox database. `:memory:` keeps everything in memory.
 * node:sqlite is synchronous: a handler's read-check-write runs without yielding to another
 * request, which is what makes idempotency and balance checks race-free without locks.
 */
export function openDatabase(dataDir: string): DatabaseSync {
  const location = dataDir === ":memory:" ? ":memory:" : prepareDirectory(dataDir);
  const db = new DatabaseSync(location);
  db.exec("PRAGMA foreign_keys = ON");
  if (location !== ":memory:") {
    db.exec("PRAGMA journal_mode = WAL");
    // The one writer's commits are what a busy shared sandbox waits on (docs/performance.md, "One
    // sandbox shared by many pipelines"). In WAL mode, NORMAL syncs at checkpoints rather than at
    // every commit: a crash of the sandbox loses nothing, a power loss or OS crash may lose the
    // last commits but never corrupts the file.
    db.exec("PRAGMA synchronous = NORMAL");
  }
  migrate(db);
  keepPreparedStatements(db);
  return db;
}

/** More distinct SQL texts than the sandbox has (about 130); past it, statements are not kept. */
const MAX_KEPT_STATEMENTS = 1000;

/**
 * The stores prepare each statement where they run it. Parsing and planning the SQL again on every
 * call was a quarter of the sandbox's CPU per request (docs/performance.md), so the connection
 * keeps each prepared statement by its SQL text and hands it back. A kept statement is reset by
 * every run, so the one caution is an `iterate()` left open while the same SQL runs again: no
 * store nests a statement inside its own iteration. Every statement starts reading integers as
 * numbers; prepareReadingBigInts asks for bigints.
 */
function keepPreparedStatements(db: DatabaseSync): void {
  const kept = new Map<string, StatementSync>();
  db.prepare = (sql: string): StatementSync => {
    let statement = kept.get(sql);
    if (statement === undefined) {
      statement = DatabaseSync.prototype.prepare.call(db, sql);
      if (kept.size < MAX_KEPT_STATEMENTS) kept.set(sql, statement);
    }
    statement.setReadBigInts(false);
    return statement;
  };
}

function prepareDirectory(dataDir: string): string {
  mkdirSync(dataDir, { recursive: true });
  return databaseFileIn(dataDir);
}

/** The database file of a data directory. */
export function databaseFileIn(dataDir: string): string {
  return join(dataDir, DATABASE_FILE);
}
