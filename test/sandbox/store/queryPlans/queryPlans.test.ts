import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import type { Sandbox } from "../../../../sandbox/index.ts";
import { openDatabase } from "../../../../sandbox/store/db.ts";
import { ALLOWED_STATEMENTS, planProblems } from "./planCheck.ts";
import { queryPlan, recordStatements, type StatementRecorder } from "./statementRecorder.ts";
import { runWorkload, startWorkloadSandbox, WORKLOAD_ORGANIZATIONS } from "./workload.ts";

/**
 * Every statement the sandbox prepares while a workload touches every route and every kind of due
 * work, for two organizations, is put to SQLite's planner: none may read a growing table whole or
 * sort one in a temporary B-tree. Small fixed tables are exceptions (planCheck.ts, each with why).
 */

const dataDir = mkdtempSync(join(tmpdir(), "sandbox-plans-"));
let sandbox: Sandbox;
let recorder: StatementRecorder;

beforeAll(async () => {
  // From before the start, so what opening a data file and starting the timers asks is included.
  recorder = recordStatements();
  try {
    sandbox = await startWorkloadSandbox(dataDir);
    for (const token of Object.keys(WORKLOAD_ORGANIZATIONS)) await runWorkload(sandbox, token);
    // A restart on the same data file: what a sandbox asks of a file that already holds data.
    await sandbox.close();
    sandbox = await startWorkloadSandbox(dataDir);
  } finally {
    recorder.stop();
  }
}, 120_000);

afterAll(async () => {
  await sandbox.close();
  rmSync(dataDir, { recursive: true, force: true });
});

describe("query plans (EXPLAIN QUERY PLAN of every statement a workload prepares)", () => {
  test("the workload asks SQLite enough to mean something: reads and writes of every money table", () => {
    const sql = [...recorder.prepared.keys()].join("\n");
    expect(recorder.prepared.size).toBeGreaterThan(90);
    for (const table of [
      "wallets",
      "wallet_balances",
      "ledger_entries",
      "deposits",
      "withdrawals",
      "withdrawal_legs",
      "webhook_deliveries",
      "strategy_updates",
      "signing_activities",
      "idempotency_keys",
      // The yield sums per organization and source, and the withdrawn history (global yield metrics).
      "organization_source_accruals",
      "organization_sources",
      "organization_withdrawn_history",
    ]) {
      expect(sql, table).toMatch(new RegExp(`\\b${table}\\b`));
    }
  });

  test("no statement scans a growing table or sorts one in a temporary B-tree", () => {
    // Planned on a connection of its own to the same file (the first sandbox's is closed).
    const db = openDatabase(dataDir);
    try {
      const problems = [...recorder.prepared.keys()].flatMap((sql) =>
        planProblems(db, sql).map((problem) => `${problem}\n    in: ${sql.replace(/\s+/g, " ")}`),
      );
      expect(problems).toEqual([]);
    } finally {
      db.close();
    }
  });

  test("a page after a cursor seeks the index to the cursor, so a deep page costs what the first does", () => {
    const db = openDatabase(dataDir);
    try {
      // The cursor condition of any list (pagination.ts), in whatever form it is written.
      const pagesAfterCursor = [...recorder.prepared.keys()].filter(
        (sql) =>
          /ORDER BY created_at DESC, id DESC/.test(sql) && /\(created_at, id\) <|created_at < \?/.test(sql),
      );
      // The workload pages wallets and withdrawals after a cursor.
      expect(pagesAfterCursor.length).toBeGreaterThanOrEqual(2);
      for (const sql of pagesAfterCursor) {
        expect(queryPlan(db, sql).join("; "), sql).toMatch(/\(created_at,id\)<\(\?,\?\)/);
      }
    } finally {
      db.close();
    }
  });

  test("each allowed exception is a statement the sandbox really prepares", () => {
    const prepared = [...recorder.prepared.keys()].map((sql) => sql.replace(/\s+/g, " "));
    for (const fragment of Object.keys(ALLOWED_STATEMENTS)) {
      expect(
        prepared.some((sql) => sql.includes(fragment)),
        fragment,
      ).toBe(true);
    }
  });

  test("the check fails on what it looks for", () => {
    const db = openDatabase(":memory:");
    try {
      expect(planProblems(db, "SELECT * FROM ledger_entries WHERE amount_micros = ?")).toEqual([
        "SCAN ledger_entries (reads every row of ledger_entries)",
      ]);
      expect(
        planProblems(db, "SELECT * FROM ledger_entries WHERE wallet_id = ? ORDER BY amount_micros"),
      ).toEqual(["USE TEMP B-TREE FOR ORDER BY"]);
      expect(planProblems(db, "SELECT * FROM wallets w WHERE w.label = ?")).toEqual([
        "SCAN w (reads every row of wallets)",
      ]);
      // A fixed table may be read whole.
      expect(planProblems(db, "SELECT * FROM catalog_entries ORDER BY current_rate_bps")).toEqual([]);
    } finally {
      db.close();
    }
  });
});
