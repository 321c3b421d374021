import { mkdtempSync, rmSync } from "node:fs";
import type { DatabaseSync } from "node:sqlite";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { createManualClock } from "../../../sandbox/index.ts";
import { openDatabase } from "../../../sandbox/store/db.ts";
import { fundedWallet } from "../../support/sandboxAccess.ts";
import { cloneWallet } from "../../support/storeSeeding.ts";
import { startTestSandbox, TOKEN, type TestSandbox } from "../helpers.ts";
import { FIXED_TABLES } from "./queryPlans/planCheck.ts";
import {
  queryPlan,
  recordStatements,
  totalChanges,
  type StatementRecorder,
} from "./queryPlans/statementRecorder.ts";

// What a read costs must not grow with the organization: with 10, 1,000 and 10,000 funded wallets
// in one organization, a catalog read, a wallet read and a first page of wallets make the same
// statements, each handing back the same number of rows, every one found by a key of the wallet
// (or of the catalog), and they write nothing. Shown by what the sandbox asks SQLite, not by time.

const SIZES = [10, 1000, 10_000] as const;
const THREE_SOURCES = [
  { positionKey: "tbills", targetWeightBps: 3000 },
  { positionKey: "resolvRlp", targetWeightBps: 3000 },
  { positionKey: "syrupUsdc", targetWeightBps: 4000 },
];
const DAY_MS = 24 * 60 * 60 * 1000;

interface Organization {
  dataDir: string;
  sandbox: TestSandbox;
  /** The sandbox's connection (for its plans and its count of changed rows). */
  db: DatabaseSync;
  /** A wallet in the middle of the organization's. */
  walletId: string;
}

/** One statement as run: its SQL on one line and the rows it handed back or changed. */
type Run = string;

let recorder: StatementRecorder;

async function organizationOf(size: number): Promise<Organization> {
  const dataDir = mkdtempSync(join(tmpdir(), `sandbox-reads-${size}-`));
  const clock = createManualClock(new Date("2026-03-01T00:00:00.000Z"));
  const options = { dataDir, clock, depositProcessingDelayMs: 1000 };
  // One wallet funded through the API, with time passed and money moved again so it holds accrual
  // entries, remainders and a settlement; then copied, size − 1 times, in the same organization.
  let sandbox = await startTestSandbox(options);
  const access = { url: sandbox.url, token: TOKEN };
  const { wallet } = await fundedWallet(access, 1_000_000, { positions: THREE_SOURCES, settleMs: 1000 });
  await sandbox.api("POST", "/_sandbox/clock/advance", { body: { ms: DAY_MS } });
  await sandbox.api("POST", "/_sandbox/deposits", {
    body: { chain: "ethereum", address: wallet.depositAddresses.ethereum.address, amount: 1, txHash: "0x01" },
  });
  await sandbox.api("POST", "/_sandbox/clock/advance", { body: { ms: 1000 } });
  await sandbox.close();
  const db = openDatabase(dataDir);
  const copies = cloneWallet(db, wallet.id as string, size - 1);
  db.close();
  // Restarted an hour later: every wallet has earned since its last settlement.
  clock.advance(60 * 60 * 1000);
  sandbox = await startTestSandbox(options);
  const started = recorder.latestDatabase;
  if (started === null) throw new Error("the sandbox prepared nothing at its start");
  return { dataDir, sandbox, db: started, walletId: copies.idOf(Math.floor((size - 1) / 2)) };
}

/** Runs one request; the statements it ran and the rows each touched, and the rows it changed. */
async function measure(
  org: Organization,
  path: string,
): Promise<{ runs: Run[]; changed: number; body: unknown }> {
  const before = totalChanges(org.db);
  recorder.executions.length = 0;
  const res = await org.sandbox.api("GET", path);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  const runs = recorder.executions.map(
    (e) => `${e.sql.replace(/\s+/g, " ").trim()} → ${e.rows} rows, ${e.changes} changed`,
  );
  return { runs, changed: totalChanges(org.db) - before, body: res.body };
}

/** Plan steps that read more than the named wallet's (or the catalog's) rows. */
function unkeyedSteps(org: Organization, runs: Run[]): string[] {
  const problems: string[] = [];
  for (const sql of new Set(runs.map((run) => run.slice(0, run.lastIndexOf(" → "))))) {
    const plan = queryPlan(org.db, sql);
    // SQLite answers MIN of an indexed column from the first index entry; a LIMIT over an index
    // that is already in the order asked (no temporary sort) stops after that many rows, which
    // the comparison of rows between sizes holds equal.
    const oneEntry = /^SELECT MIN\(/.test(sql);
    const limitedInOrder = / LIMIT \?$/.test(sql) && !plan.some((step) => step.includes("TEMP B-TREE"));
    for (const step of plan) {
      const table = /^(?:SEARCH|SCAN) (\w+)/.exec(step)?.[1];
      if (table === undefined || FIXED_TABLES[table] !== undefined) continue;
      // Keyed by the wallet (its id, or a wallet_id prefix), a yield source's rate history, or the
      // due-work queues (a range that ends now: the work due, none here), every organization's or,
      // for an organization whose clock runs ahead, its own (with its withdrawals still paying out).
      const keyed =
        /\((?:id|wallet_id|position_key)=\?/.test(step) ||
        /\((?:organization_id=\? AND )?(?:status=\? AND (?:due_at|next_attempt_at)<\?|next_step_at>\? AND next_step_at<\?)\)/.test(
          step,
        ) ||
        /^SEARCH withdrawals USING INDEX withdrawals_by_org_status \(organization_id=\? AND status=\?\)$/.test(
          step,
        ) ||
        // A yield source's rates as the organization sees them: the shared ones, its own, and its
        // own current rates (rows of rate changes, never of wallets).
        /^SEARCH rate_history /.test(step) ||
        /\(status=\?\)$/.test(step.replace(/USING COVERING INDEX \w+ /, ""));
      if (!keyed && !oneEntry && !(limitedInOrder && /\(organization_id=\?\)/.test(step)))
        problems.push(`${step}  in: ${sql}`);
    }
  }
  return problems;
}

const organizations = new Map<number, Organization>();

beforeAll(async () => {
  recorder = recordStatements();
  for (const size of SIZES) organizations.set(size, await organizationOf(size));
}, 120_000);

afterAll(async () => {
  recorder.stop();
  for (const org of organizations.values()) {
    await org.sandbox.close();
    rmSync(org.dataDir, { recursive: true, force: true });
  }
});

describe("a read costs the same with 10, 1,000 or 10,000 funded wallets in the organization", () => {
  const reads = {
    "the catalog": () => "/v2/portfolio-wallets/strategies",
    "a wallet": (org: Organization) => `/v2/portfolio-wallets/${org.walletId}`,
    "a first page of wallets": () => "/v2/portfolio-wallets?pageSize=5",
  };

  for (const [name, path] of Object.entries(reads)) {
    test(`${name}: the same statements and rows at every size, each by a key of what it reads, and nothing written`, async () => {
      const measured = new Map<number, Awaited<ReturnType<typeof measure>>>();
      for (const [size, org] of organizations) {
        // Twice: the first read after a start may find due work; the second is the steady state.
        await measure(org, path(org));
        measured.set(size, await measure(org, path(org)));
      }
      const smallest = measured.get(SIZES[0]);
      expect(smallest?.runs.length).toBeGreaterThan(0);
      for (const [size, result] of measured) {
        expect(result.changed, `rows written at ${size}`).toBe(0);
        expect(result.runs, `statements at ${size} against ${SIZES[0]}`).toEqual(smallest?.runs);
        expect(unkeyedSteps(organizations.get(size) as Organization, result.runs)).toEqual([]);
      }
    });
  }

  test("the wallet read sees the yield earned since the last settlement, without settling it", async () => {
    for (const org of organizations.values()) {
      const first = (await measure(org, reads["a wallet"](org))).body as { totalBalanceUsd: number };
      // One micro of accrual is about 0.6 s of $1,000,000's yield: the figure moves with the clock…
      org.sandbox.sandbox.clock.advance(60 * 60 * 1000);
      const later = await measure(org, reads["a wallet"](org));
      expect((later.body as { totalBalanceUsd: number }).totalBalanceUsd).toBeGreaterThan(
        first.totalBalanceUsd,
      );
      // …and no row of the wallet, or of any other, was written to show it.
      expect(later.changed).toBe(0);
    }
  });

  test("each organization holds that many funded wallets, each balancing against its own ledger", async () => {
    for (const [size, org] of organizations) {
      const audit = await org.sandbox.api("GET", "/_sandbox/ledger");
      const wallets = Object.values(audit.body.wallets) as {
        balanceUsd: number;
        discrepancyMicros: number;
      }[];
      expect(wallets).toHaveLength(size);
      expect(wallets.every((w) => w.balanceUsd > 1_000_000 && w.discrepancyMicros === 0)).toBe(true);
      expect(audit.body.total.discrepancyMicros).toBe(0);
    }
  });

  test("the check sees a statement that reads the organization's wallets", () => {
    const org = organizations.get(SIZES[0]) as Organization;
    expect(
      unkeyedSteps(org, ["SELECT id FROM wallets WHERE organization_id = 'org-a' → 10 rows, 0 changed"]),
    ).toHaveLength(1);
  });
});
