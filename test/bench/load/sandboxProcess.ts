// The sandbox of the load bench, in a process of its own (forked by load.ts, spoken to over IPC),
// instrumented to say what it spends its time on: CPU, event-loop utilization and delay, and the
// time its one thread spends inside SQLite (statements, and commits apart). It reports these for
// the interval since the last reset; the bench resets before each load and asks after.
import { mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import { monitorEventLoopDelay, performance, type EventLoopUtilization } from "node:perf_hooks";
import { DatabaseSync, StatementSync } from "node:sqlite";
import { startSandbox } from "../../../sandbox/index.ts";

export interface SandboxProcessOptions {
  dataDir: string;
  tokens: Record<string, string>;
}

/** What the sandbox process did over an interval. */
export interface SandboxProcessStats {
  wallMs: number;
  /** CPU time of the process (all its threads), user and system. */
  cpuMs: number;
  /** Share of the interval the event loop was busy (0..1): 1 means the one thread never waited. */
  eventLoopUtilization: number;
  /** How late timers ran (ms): a busy loop delays everything queued behind the running request. */
  loopDelayP50Ms: number;
  loopDelayP99Ms: number;
  loopDelayMaxMs: number;
  /** Time inside SQLite calls on the event loop: statements (and their preparing), then commits. */
  sqliteMs: number;
  commitMs: number;
  statements: number;
  commits: number;
}

const options = JSON.parse(process.env["LOAD_SANDBOX_OPTIONS"] ?? "{}") as SandboxProcessOptions;

let sqliteMs = 0;
let commitMs = 0;
let statements = 0;
let commits = 0;

/** Wraps a method so that the time spent in it counts as SQLite time. */
function timed<T extends object>(
  prototype: T,
  method: string,
  onCall: (this: T, ms: number, args: unknown[]) => void,
) {
  const original = (prototype as Record<string, (...args: unknown[]) => unknown>)[method];
  if (original === undefined) throw new Error(`no method ${method} to time`);
  (prototype as Record<string, unknown>)[method] = function (this: unknown, ...args: unknown[]) {
    const started = performance.now();
    try {
      return original.apply(this, args);
    } finally {
      onCall.call(this as T, performance.now() - started, args);
    }
  };
}
/**
 * LOAD_SANDBOX_SQL_PROFILE_DIR=<dir>: the time of each SQL text since the last reset, written to
 * <dir>/sql-<pid>.json when the process closes, most time first: which statements a request
 * spends its SQLite time in.
 */
const SQL_PROFILE_DIR = process.env["LOAD_SANDBOX_SQL_PROFILE_DIR"];
const bySql = new Map<string, { calls: number; ms: number }>();
function countSql(sql: string, ms: number): void {
  if (SQL_PROFILE_DIR === undefined) return;
  const entry = bySql.get(sql) ?? { calls: 0, ms: 0 };
  entry.calls += 1;
  entry.ms += ms;
  bySql.set(sql, entry);
}
for (const method of ["run", "get", "all"]) {
  timed(StatementSync.prototype, method, function (this: StatementSync, ms) {
    sqliteMs += ms;
    statements += 1;
    countSql(this.sourceSQL, ms);
  });
}
const connections: DatabaseSync[] = [];
timed(DatabaseSync.prototype, "prepare", (ms) => (sqliteMs += ms));
// The sandbox's connection, for the bench's own settings (below).
const prepare = DatabaseSync.prototype.prepare;
DatabaseSync.prototype.prepare = function (this: DatabaseSync, sql: string) {
  if (connections.length === 0) connections.push(this);
  return prepare.call(this, sql);
};
timed(DatabaseSync.prototype, "exec", (ms, args) => {
  sqliteMs += ms;
  // COMMIT among them: its time is the transaction's pages written, and SQLite's checkpoints.
  if (typeof args[0] === "string") countSql(args[0], ms);
  if (typeof args[0] === "string" && /^\s*COMMIT/i.test(args[0])) {
    commitMs += ms;
    commits += 1;
  }
});
// iterate() hands rows back lazily: each step of the iterator is SQLite time.
const iterate = StatementSync.prototype.iterate;
StatementSync.prototype.iterate = function (this: StatementSync, ...args: unknown[]) {
  statements += 1;
  const iterator = iterate.apply(this, args as Parameters<typeof iterate>);
  const next = iterator.next.bind(iterator);
  iterator.next = (...nextArgs: []) => {
    const started = performance.now();
    try {
      return next(...nextArgs);
    } finally {
      sqliteMs += performance.now() - started;
    }
  };
  return iterator;
};

const sandbox = await startSandbox({
  port: 0,
  dataDir: options.dataDir,
  tokens: options.tokens,
  allowPrivateWebhookUrls: true,
});

const database = connections[0];
// Remedies to compare: LOAD_SANDBOX_SYNCHRONOUS=NORMAL|FULL (how often SQLite syncs to disk) and
// LOAD_SANDBOX_PRAGMAS, further `name=value` settings separated by `;` (wal_autocheckpoint=10000).
if (process.env["LOAD_SANDBOX_SYNCHRONOUS"] !== undefined) {
  database?.exec(
    `PRAGMA synchronous = ${process.env["LOAD_SANDBOX_SYNCHRONOUS"] === "NORMAL" ? "NORMAL" : "FULL"}`,
  );
}
for (const pragma of (process.env["LOAD_SANDBOX_PRAGMAS"] ?? "")
  .split(";")
  .filter((p) => /^\w+=\w+$/.test(p))) {
  database?.exec(`PRAGMA ${pragma}`);
}
const synchronous = (database?.prepare("PRAGMA synchronous").get() as { synchronous: number } | undefined)
  ?.synchronous;

const delay = monitorEventLoopDelay({ resolution: 5 });
delay.enable();
let since = {
  at: performance.now(),
  cpu: process.cpuUsage(),
  elu: performance.eventLoopUtilization(),
};

function reset(): void {
  delay.reset();
  sqliteMs = 0;
  commitMs = 0;
  statements = 0;
  commits = 0;
  bySql.clear();
  since = { at: performance.now(), cpu: process.cpuUsage(), elu: performance.eventLoopUtilization() };
}

function stats(): SandboxProcessStats {
  const cpu = process.cpuUsage(since.cpu);
  const elu: EventLoopUtilization = performance.eventLoopUtilization(since.elu);
  return {
    wallMs: performance.now() - since.at,
    cpuMs: (cpu.user + cpu.system) / 1000,
    eventLoopUtilization: elu.utilization,
    loopDelayP50Ms: delay.percentile(50) / 1e6,
    loopDelayP99Ms: delay.percentile(99) / 1e6,
    loopDelayMaxMs: delay.max / 1e6,
    sqliteMs,
    commitMs,
    statements,
    commits,
  };
}

process.on("message", (message: { type: string }) => {
  if (message.type === "reset") {
    reset();
    process.send?.({ type: "reset" });
  } else if (message.type === "stats") {
    process.send?.({ type: "stats", stats: stats() });
  } else if (message.type === "close") {
    if (SQL_PROFILE_DIR !== undefined) writeSqlProfile(SQL_PROFILE_DIR);
    void sandbox.close().then(() => process.exit(0));
  }
});
function writeSqlProfile(dir: string): void {
  mkdirSync(dir, { recursive: true });
  const rows = [...bySql].map(([sql, { calls, ms }]) => ({ ms: Math.round(ms * 10) / 10, calls, sql }));
  rows.sort((a, b) => b.ms - a.ms);
  writeFileSync(path.join(dir, `sql-${process.pid}.json`), `${JSON.stringify(rows, null, 1)}\n`);
}

process.send?.({ type: "ready", url: sandbox.url, pid: process.pid, synchronous });
