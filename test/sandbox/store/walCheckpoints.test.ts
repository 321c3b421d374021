import { copyFileSync, existsSync, mkdtempSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { DatabaseSync, StatementSync } from "node:sqlite";
import { afterAll, describe, expect, test, vi } from "vitest";
import { databaseFileIn, openDatabase } from "../../../sandbox/store/db.ts";
import { RESTART_AT_FRAMES, startWalCheckpoints } from "../../../sandbox/store/walCheckpoints.ts";
import { startTestSandbox, walletBody } from "../helpers.ts";

// The sandbox's log is checkpointed by a worker thread, not inside the commits of the one thread
// that serves requests (sandbox/store/walCheckpoints.ts). What must hold: commits never checkpoint,
// the worker's checkpoints copy what was committed, a log under steady writes still starts again,
// and a worker that cannot run gives SQLite its own checkpoints back.

const dirs: string[] = [];
const freshDir = () => {
  const dir = mkdtempSync(join(tmpdir(), "sandbox-wal-"));
  dirs.push(dir);
  return dir;
};
afterAll(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

const PAGE = 4096;
const walBytes = (dir: string) => statSync(`${databaseFileIn(dir)}-wal`).size;

/** A table whose rows fill about a page each, so that frames are counted in rows. */
function pageRows(db: DatabaseSync) {
  db.exec("CREATE TABLE IF NOT EXISTS filler (id INTEGER PRIMARY KEY, body TEXT NOT NULL)");
  const insert = db.prepare("INSERT INTO filler (body) VALUES (?)");
  return (rows: number) => {
    db.exec("BEGIN IMMEDIATE");
    for (let i = 0; i < rows; i++) insert.run("x".repeat(3500));
    db.exec("COMMIT");
  };
}

/**
 * Rows of `table` in the database file alone, without its log: what checkpoints have copied there
 * (-1 while a copy is caught mid-write).
 */
function rowsInFileAlone(dir: string, table: string): number {
  const copy = join(freshDir(), "alone.sqlite");
  copyFileSync(databaseFileIn(dir), copy);
  try {
    const db = new DatabaseSync(copy);
    try {
      return (db.prepare(`SELECT COUNT(*) AS n FROM ${table}`).get() as { n: number }).n;
    } finally {
      db.close();
    }
  } catch {
    return -1;
  }
}

const autocheckpointOf = (db: DatabaseSync) =>
  (db.prepare("PRAGMA wal_autocheckpoint").get() as { wal_autocheckpoint: number }).wal_autocheckpoint;

describe("checkpoints off the event loop", () => {
  test("commits leave the log to the worker, whose checkpoint copies every committed frame", async () => {
    const dir = freshDir();
    const db = openDatabase(dir);
    const checkpoints = startWalCheckpoints(db, databaseFileIn(dir));
    try {
      const write = pageRows(db);
      // Past SQLite's own threshold of 1,000 pages, which would have checkpointed inside a COMMIT.
      for (let i = 0; i < 12; i++) write(100);
      expect(autocheckpointOf(db)).toBe(0);
      const result = await checkpoints.checkpointNow();
      expect(result.log).toBeGreaterThan(1000);
      expect(result.checkpointed).toBe(result.log);
      expect(rowsInFileAlone(dir, "filler")).toBe(1200);
    } finally {
      await checkpoints.close();
      db.close();
    }
    // The database's own close checkpoints the rest and removes the log.
    expect(existsSync(`${databaseFileIn(dir)}-wal`)).toBe(false);
  });

  test("past the restart size the main connection completes the worker's checkpoint, and the log starts again", async () => {
    const dir = freshDir();
    const db = openDatabase(dir);
    const checkpoints = startWalCheckpoints(db, databaseFileIn(dir));
    // The main connection's own checkpoints (the worker's connection is in another thread).
    const mainCheckpoints = () =>
      get.mock.contexts.filter((statement) => /wal_checkpoint/.test((statement as StatementSync).sourceSQL))
        .length;
    const get = vi.spyOn(StatementSync.prototype, "get");
    try {
      const write = pageRows(db);
      write(500);
      await checkpoints.checkpointNow();
      expect(mainCheckpoints()).toBe(0);
      write(RESTART_AT_FRAMES);
      const result = await checkpoints.checkpointNow();
      // Once, or twice when the worker's own tick also came after the write.
      expect(mainCheckpoints()).toBeGreaterThanOrEqual(1);
      expect(result.log).toBeGreaterThanOrEqual(RESTART_AT_FRAMES);
      expect(result.checkpointed).toBe(result.log);
      // Every frame copied: the next write starts the log from its beginning, the file cut back.
      write(10);
      const next = await checkpoints.checkpointNow();
      expect(next.log).toBeLessThan(100);
      expect(walBytes(dir)).toBeLessThanOrEqual(RESTART_AT_FRAMES * PAGE);
    } finally {
      get.mockRestore();
      await checkpoints.close();
      db.close();
    }
  });

  test("a worker that cannot open the database gives SQLite its own checkpoints back", async () => {
    const dir = freshDir();
    const db = openDatabase(dir);
    const checkpoints = startWalCheckpoints(db, join(dir, "no-such-dir", "sandbox.sqlite"));
    try {
      await expect.poll(() => autocheckpointOf(db), { timeout: 5000 }).toBe(1000);
      expect(await checkpoints.checkpointNow()).toEqual({ log: 0, checkpointed: 0 });
    } finally {
      await checkpoints.close();
      db.close();
    }
  });

  test("a sandbox on disk checkpoints by itself while it is written to, and keeps what it wrote", async () => {
    const dir = freshDir();
    const first = await startTestSandbox({ dataDir: dir });
    const ids: string[] = [];
    try {
      for (let i = 0; i < 30; i++)
        ids.push((await first.api("POST", "/v2/portfolio-wallets", { body: walletBody() })).body.id);
      // The worker's tick copies the log into the database file without any request asking.
      await expect.poll(() => rowsInFileAlone(dir, "wallets"), { timeout: 5000 }).toBe(30);
    } finally {
      await first.close();
    }
    const second = await startTestSandbox({ dataDir: dir });
    try {
      for (const id of ids) expect((await second.api("GET", `/v2/portfolio-wallets/${id}`)).status).toBe(200);
    } finally {
      await second.close();
    }
  });
});
