import { Worker } from "node:worker_threads";
import type { DatabaseSync } from "node:sqlite";

/**
 * Checkpoints of the sandbox's write-ahead log, moved off the event loop.
 *
 * Left to itself, SQLite checkpoints inside the COMMIT that takes the log past 1,000 pages: it
 * copies those pages into the database file and syncs both files to disk, on the one thread that
 * serves every request. Under a shared sandbox's load that was about two thirds of the time of
 * every commit, and a quarter of the sandbox's CPU per request (docs/performance.md, "One sandbox
 * shared by many organizations"). Here the main connection never checkpoints; a worker thread with
 * a connection of its own does, every TICK_MS while anything was committed. Commits then only append
 * to the log, and what reaches the disk, and when, is what `synchronous = NORMAL` already promised:
 * a crash of the sandbox loses nothing; a power loss may lose the last commits, never the file.
 *
 * One case needs the main thread: a log that is never idle. SQLite starts the log again from its
 * beginning only when a write finds every frame copied, and under steady load a commit always
 * lands while the worker copies. So once the log has grown to RESTART_AT_FRAMES, the main
 * connection itself copies the few frames the worker has not (a short checkpoint, right after the
 * worker's), and the next write starts the log again: it never grows past about 32 MB.
 */

/** How often the worker checkpoints, while anything was written since the last time. */
const TICK_MS = 100;
/**
 * Log frames (pages of 4 KB) past which the main connection completes the worker's checkpoint: a
 * log of at most about 32 MB. Each completion stalls the event loop for a sync to disk (about
 * 14 ms here); at 2,048 frames a shared sandbox under load paid it three times a second.
 */
export const RESTART_AT_FRAMES = 8192;
/** What SQLite checkpoints at on its own (its default), restored should the worker fail. */
const SQLITE_DEFAULT_AUTOCHECKPOINT = 1000;

/**
 * The worker's code: plain CommonJS, so that it runs the same from the sources and the package. It
 * watches the file by itself (`data_version` moves when another connection commits), so the main
 * connection runs no statement for it, and answers a checkpoint asked for by message.
 */
const WORKER_SOURCE = `
const { parentPort, workerData } = require("node:worker_threads");
const { DatabaseSync } = require("node:sqlite");
const db = new DatabaseSync(workerData.file);
db.exec("PRAGMA synchronous = NORMAL");
const checkpoint = db.prepare("PRAGMA wal_checkpoint(PASSIVE)");
const dataVersion = db.prepare("PRAGMA data_version");
let checkedVersion = null;
function run(asked) {
  try {
    checkedVersion = dataVersion.get().data_version;
    const { log, checkpointed } = checkpoint.get();
    parentPort.postMessage({ log, checkpointed, asked });
  } catch (error) {
    parentPort.postMessage({ error: String((error && error.message) || error), asked });
  }
}
const timer = setInterval(() => {
  if (dataVersion.get().data_version !== checkedVersion) run(false);
}, workerData.tickMs);
parentPort.on("message", (message) => {
  if (message !== "close") return run(true);
  clearInterval(timer);
  db.close();
  parentPort.close();
});
`;

interface CheckpointResult {
  /** Frames in the log when the worker's checkpoint ran, and how many of them are copied. */
  log: number;
  checkpointed: number;
}

export interface WalCheckpoints {
  /** One checkpoint by the worker now (and the main connection's, past RESTART_AT_FRAMES). */
  checkpointNow(): Promise<CheckpointResult>;
  /** Stops the worker; the database's own close then checkpoints what is left. */
  close(): Promise<void>;
}

/**
 * Starts checkpointing `db`'s log (the database file `file`, in WAL mode) in a worker thread.
 * Should the worker fail to start or to checkpoint, SQLite's own checkpoints are switched back on:
 * the log never grows without bound.
 */
export function startWalCheckpoints(db: DatabaseSync, file: string): WalCheckpoints {
  db.exec("PRAGMA wal_autocheckpoint = 0");
  // After the log starts again, the file is cut back to this rather than kept at its largest.
  db.exec(`PRAGMA journal_size_limit = ${RESTART_AT_FRAMES * 4096}`);
  const completeCheckpoint = db.prepare("PRAGMA wal_checkpoint(PASSIVE)");
  const worker = new Worker(WORKER_SOURCE, { eval: true, workerData: { file, tickMs: TICK_MS } });
  worker.unref();

  const NOTHING: CheckpointResult = { log: 0, checkpointed: 0 };
  let failed = false;
  let closing = false;
  /** Callers of checkpointNow, answered in the order the worker runs their checkpoints. */
  const asked: ((result: CheckpointResult) => void)[] = [];
  const answerAll = () => {
    for (const resolve of asked.splice(0)) resolve(NOTHING);
  };

  const fallBack = () => {
    if (failed || closing) return;
    failed = true;
    db.exec(`PRAGMA wal_autocheckpoint = ${SQLITE_DEFAULT_AUTOCHECKPOINT}`);
    answerAll();
  };

  worker.on("message", (message: { error?: string; asked: boolean } & Partial<CheckpointResult>) => {
    if (message.error !== undefined) {
      fallBack();
      return;
    }
    let result: CheckpointResult = { log: message.log ?? 0, checkpointed: message.checkpointed ?? 0 };
    if (result.log >= RESTART_AT_FRAMES && !closing && !failed) {
      // Synchronous, so no commit comes between it and the next write, which starts the log again.
      const done = completeCheckpoint.get() as unknown as CheckpointResult;
      result = { log: done.log, checkpointed: done.checkpointed };
    }
    if (message.asked) asked.shift()?.(result);
  });
  worker.on("error", fallBack);
  worker.on("exit", () => {
    if (!closing) fallBack();
  });

  return {
    checkpointNow() {
      if (failed || closing) return Promise.resolve(NOTHING);
      // The worker runs it after any checkpoint of its own under way, so after the caller's writes.
      const result = new Promise<CheckpointResult>((resolve) => asked.push(resolve));
      worker.postMessage("checkpoint");
      return result;
    },
    async close() {
      if (closing) return;
      closing = true;
      answerAll();
      await worker.terminate();
    },
  };
}
