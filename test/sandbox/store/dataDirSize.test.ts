import { existsSync, mkdtempSync, readdirSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { DatabaseSync } from "node:sqlite";
import { afterAll, describe, expect, test } from "vitest";
import { createManualClock } from "../../../sandbox/index.ts";
import { DATABASE_FILE } from "../../../sandbox/store/db.ts";
import { RESTART_AT_FRAMES } from "../../../sandbox/store/walCheckpoints.ts";
import { startTestSandbox, uuid } from "../helpers.ts";

// The data directory grows with what happens, not with requests × wallets: creating and funding
// 1,000 wallets of three positions with $1,000,000 each, the clock an hour further after each,
// and reading them as a pipeline would, leaves it under 25 MB, with a write-ahead log of bounded
// size beside it while the sandbox runs (it once held 660 MB: every request wrote an accrual entry
// per position of every funded wallet).

const WALLETS = 1000;
const HOUR_MS = 60 * 60 * 1000;
const THREE_SOURCES = [
  { positionKey: "tbills", targetWeightBps: 3000 },
  { positionKey: "resolvRlp", targetWeightBps: 3000 },
  { positionKey: "syrupUsdc", targetWeightBps: 4000 },
];

const dataDir = mkdtempSync(join(tmpdir(), "sandbox-size-"));
afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

const directoryBytes = (dir: string) =>
  readdirSync(dir).reduce((sum, name) => sum + statSync(join(dir, name)).size, 0);

describe("the data directory after creating and funding 1,000 wallets", () => {
  test("stays under 25 MB, with ledger rows for the money moved and none for the reads", async () => {
    const clock = createManualClock(new Date("2026-03-01T00:00:00.000Z"));
    const sandbox = await startTestSandbox({ dataDir, clock, depositProcessingDelayMs: 1000 });
    try {
      for (let index = 0; index < WALLETS; index++) {
        const created = await sandbox.api("POST", "/v2/portfolio-wallets", {
          body: { requestId: uuid(), positions: THREE_SOURCES },
        });
        expect(created.status).toBe(201);
        const deposit = await sandbox.api("POST", "/_sandbox/deposits", {
          body: {
            chain: "ethereum",
            address: created.body.depositAddresses.ethereum.address,
            amount: 1_000_000,
            txHash: `0x${uuid().replaceAll("-", "")}`,
          },
        });
        expect(deposit.status).toBe(201);
        expect((await sandbox.api("POST", "/_sandbox/clock/advance", { body: { ms: HOUR_MS } })).status).toBe(
          200,
        );
        // What a pipeline reads meanwhile: the catalog, the wallet, a page.
        await sandbox.api("GET", "/v2/portfolio-wallets/strategies");
        await sandbox.api("GET", `/v2/portfolio-wallets/${created.body.id}`);
        await sandbox.api("GET", "/v2/portfolio-wallets?pageSize=20");
      }
      const metrics = await sandbox.api("POST", "/v2/portfolio-wallets/yield", {});
      expect(metrics.body.global.generated).toBeGreaterThan(0);
      // While the sandbox runs: the database file, and beside it a write-ahead log bounded by
      // design whatever the load (its restart size, and what one tick of the checkpoint worker
      // lets through: sandbox/store/walCheckpoints.ts).
      const wal = `${join(dataDir, DATABASE_FILE)}-wal`;
      const walBytes = existsSync(wal) ? statSync(wal).size : 0;
      expect(directoryBytes(dataDir) - walBytes).toBeLessThan(25 * 1024 * 1024);
      expect(walBytes).toBeLessThanOrEqual((RESTART_AT_FRAMES + 2048) * (4096 + 24) + 32);
    } finally {
      await sandbox.close();
    }
    // Closed, the log is folded into the file and removed: all of it, under 25 MB.
    expect(directoryBytes(dataDir)).toBeLessThan(25 * 1024 * 1024);

    const db = new DatabaseSync(join(dataDir, DATABASE_FILE));
    const count = (sql: string) => (db.prepare(sql).get() as { n: number }).n;
    try {
      // Each wallet: its deposit detected, then allocated to three positions. No money moved
      // after that, so no accrual was settled: the yield above was computed, not written.
      expect(count("SELECT COUNT(*) AS n FROM ledger_entries WHERE kind = 'deposit_detected'")).toBe(WALLETS);
      expect(count("SELECT COUNT(*) AS n FROM ledger_entries WHERE kind = 'deposit_allocated'")).toBe(
        3 * WALLETS,
      );
      expect(count("SELECT COUNT(*) AS n FROM ledger_entries WHERE kind = 'accrual'")).toBe(0);
    } finally {
      db.close();
    }
    const bytes = directoryBytes(dataDir);
    expect(bytes).toBeLessThan(25 * 1024 * 1024);
  }, 120_000);
});
