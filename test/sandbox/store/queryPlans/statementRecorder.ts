import { DatabaseSync, StatementSync } from "node:sqlite";

/**
 * Records what the sandbox asks SQLite, from inside the test process: every statement prepared
 * (the sandbox prepares each statement where it runs it) and every execution with the rows it
 * handed back. Works by wrapping DatabaseSync.prototype.prepare and StatementSync's run, get, all
 * and iterate for as long as the recorder is on, so the sandbox needs no hook of its own.
 */

/** One execution of a prepared statement. */
export interface Execution {
  sql: string;
  /** Rows handed back (get: 0 or 1; run: 0). */
  rows: number;
  /** Rows the statement changed (run only). */
  changes: number;
}

export interface StatementRecorder {
  /** Each distinct SQL text prepared while recording, with the database it was prepared on. */
  readonly prepared: Map<string, DatabaseSync>;
  /** Every execution, in order; clear it to look at one request. */
  readonly executions: Execution[];
  /** The connection that prepared the latest statement (the running sandbox's). */
  readonly latestDatabase: DatabaseSync | null;
  stop(): void;
}

type Method = "run" | "get" | "all" | "iterate";

let active: StatementRecorder | null = null;
// The unwrapped methods, taken when this module loads (before any recorder wraps them).
const ORIGINAL_PREPARE = DatabaseSync.prototype.prepare;
const ORIGINAL_ALL = StatementSync.prototype.all;

/** Starts recording (one recorder at a time). */
export function recordStatements(): StatementRecorder {
  if (active !== null) throw new Error("a statement recorder is already on");
  const prepare = ORIGINAL_PREPARE;
  const originals = new Map<Method, (this: StatementSync, ...args: unknown[]) => unknown>();
  for (const method of ["run", "get", "all", "iterate"] as const) {
    originals.set(method, Object.getOwnPropertyDescriptor(StatementSync.prototype, method)?.value);
  }
  let latestDatabase: DatabaseSync | null = null;
  const recorder: StatementRecorder = {
    prepared: new Map(),
    executions: [],
    get latestDatabase() {
      return latestDatabase;
    },
    stop() {
      DatabaseSync.prototype.prepare = prepare;
      for (const [method, original] of originals) {
        (StatementSync.prototype as unknown as Record<Method, unknown>)[method] = original;
      }
      active = null;
    },
  };
  const remember = (db: DatabaseSync, sql: string) => {
    if (!recorder.prepared.has(sql)) recorder.prepared.set(sql, db);
    latestDatabase = db;
  };
  DatabaseSync.prototype.prepare = function recordedPrepare(this: DatabaseSync, sql: string) {
    remember(this, sql);
    return prepare.call(this, sql);
  };
  const record = (statement: StatementSync, rows: number, changes = 0) =>
    recorder.executions.push({ sql: statement.sourceSQL, rows, changes });
  const call = (method: Method, statement: StatementSync, args: unknown[]) =>
    originals.get(method)?.apply(statement, args);
  const prototype = StatementSync.prototype as unknown as Record<Method, unknown>;
  prototype.run = function (this: StatementSync, ...args: unknown[]) {
    const result = call("run", this, args) as { changes: number | bigint };
    record(this, 0, Number(result.changes));
    return result;
  };
  prototype.get = function (this: StatementSync, ...args: unknown[]) {
    const row = call("get", this, args);
    record(this, row === undefined ? 0 : 1);
    return row;
  };
  prototype.all = function (this: StatementSync, ...args: unknown[]) {
    const rows = call("all", this, args) as unknown[];
    record(this, rows.length);
    return rows;
  };
  prototype.iterate = function (this: StatementSync, ...args: unknown[]) {
    const iterator = call("iterate", this, args) as Iterator<unknown>;
    const execution: Execution = { sql: this.sourceSQL, rows: 0, changes: 0 };
    recorder.executions.push(execution);
    return (function* counted() {
      for (let next = iterator.next(); next.done !== true; next = iterator.next()) {
        execution.rows += 1;
        yield next.value;
      }
    })();
  };
  active = recorder;
  return recorder;
}

/** Rows changed on the connection so far (SQLite's total_changes()), read without being recorded. */
export function totalChanges(db: DatabaseSync): number {
  return (unrecorded(db, "SELECT total_changes() AS n") as { n: number }[])[0]?.n ?? 0;
}

/** Runs a statement past the recorder (for the test's own questions). */
export function unrecorded(db: DatabaseSync, sql: string): unknown[] {
  return ORIGINAL_ALL.call(ORIGINAL_PREPARE.call(db, sql), {});
}

/** The steps of SQLite's plan for `sql` (EXPLAIN QUERY PLAN's detail column), parameters unbound. */
export function queryPlan(db: DatabaseSync, sql: string): string[] {
  return (unrecorded(db, `EXPLAIN QUERY PLAN ${sql}`) as { detail: string }[]).map((row) => row.detail);
}
