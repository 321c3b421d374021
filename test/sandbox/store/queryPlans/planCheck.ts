import type { DatabaseSync } from "node:sqlite";
import { queryPlan } from "./statementRecorder.ts";

/**
 * Tables that do not grow with use: a full read of one costs the same on the first request and
 * the millionth, so a scan or a sort over it is no defect. Each says why.
 */
export const FIXED_TABLES: Readonly<Record<string, string>> = {
  catalog_entries: "the yield-source catalog: a handful of rows, replaced whole by the admin API",
  sandbox_settings:
    "a few key/value settings of the sandbox (the clock offset, older files' migration markers)",
  organization_clocks:
    "one row per organization whose clock moved on its own (its lead over the shared clock), read whole once at startup",
  sqlite_sequence: "SQLite's own AUTOINCREMENT counters: one row per table",
  pragma_table_info: "a table's columns, read by the migrations to tell a new file from an older one",
  json_each:
    "the ids bound as one JSON array (a page of the wallet list, at most its page size), each a probe of the wallets' index",
};

/**
 * Statements that may scan or sort a growing table, each with the reason it is not on the path of
 * a request. Keyed by a fragment of the SQL that names the statement.
 */
export const ALLOWED_STATEMENTS: Readonly<Record<string, string>> = {
  "SELECT DISTINCT organization_id AS id FROM webhook_registrations":
    "webhook history pruning (a timer, once a minute): visits each organization with a registration " +
    "to keep its newest deliveries; a few rows per organization, never on a request",
};

/** Table names by the alias a statement gives them (a plan names tables by alias). */
function aliases(sql: string): Map<string, string> {
  const map = new Map<string, string>();
  const keywords = new Set([
    "where",
    "on",
    "join",
    "left",
    "inner",
    "order",
    "group",
    "limit",
    "set",
    "using",
  ]);
  for (const match of sql.matchAll(/\b(?:FROM|JOIN|UPDATE|INTO)\s+(\w+)(?:\s+(?:AS\s+)?(\w+))?/gi)) {
    const table = match[1] as string;
    map.set(table, table);
    const alias = match[2];
    if (alias !== undefined && !keywords.has(alias.toLowerCase())) map.set(alias, table);
  }
  return map;
}

/**
 * What is wrong with a statement's plan: each step that reads a growing table whole (`SCAN t`,
 * with or without an index: an index scan is still every row), and a temporary B-tree (a sort or
 * a DISTINCT held in memory) in a statement that reads a growing table.
 */
export function planProblems(db: DatabaseSync, sql: string): string[] {
  if (!/^\s*(SELECT|INSERT|UPDATE|DELETE|WITH)\b/i.test(sql)) return [];
  const oneLine = sql.replace(/\s+/g, " ");
  if (Object.keys(ALLOWED_STATEMENTS).some((fragment) => oneLine.includes(fragment))) return [];
  const tables = aliases(sql);
  const growing = (name: string) => {
    const table = tables.get(name) ?? name;
    return FIXED_TABLES[table] === undefined ? table : null;
  };
  const plan = queryPlan(db, sql);
  const problems: string[] = [];
  for (const step of plan) {
    const scan = /^SCAN (\w+)/.exec(step);
    if (scan !== null && scan[1] !== "CONSTANT") {
      const table = growing(scan[1] as string);
      if (table !== null) problems.push(`${step} (reads every row of ${table})`);
    }
  }
  const readsGrowing = [...tables.values()].some((table) => growing(table) !== null);
  for (const step of plan) {
    if (/USE TEMP B-TREE/.test(step) && readsGrowing) problems.push(step);
  }
  return problems;
}
