import { randomUUID } from "node:crypto";
import {
  closeSync,
  copyFileSync,
  existsSync,
  openSync,
  readdirSync,
  readFileSync,
  readSync,
  renameSync,
  rmSync,
  statSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { basename, dirname, join } from "node:path";
import { backup, DatabaseSync } from "node:sqlite";
import { inTransaction } from "./connection.ts";
import { migrate, SCHEMA_VERSION } from "./migrations.ts";

/**
 * The sandbox's snapshot files (docs/sandbox.md "Snapshots"): a SQLite database file holding the
 * sandbox's tables as they were at one instant, plus a marker table naming what the file is. Two
 * kinds share the container: a whole-sandbox snapshot (restored in place of everything), and one
 * organization's export (imported into an organization of another sandbox). The marker and
 * SQLite's `application_id` are what tell a snapshot from any other SQLite file; the format
 * version and the store's schema version are checked before anything is read from it.
 */

/** SQLite's `application_id` of every snapshot and export file ("PWSB"). */
export const SNAPSHOT_APPLICATION_ID = 0x50575342;
/** The container's own version: bumped when the marker table or the way tables are copied changes. */
export const SNAPSHOT_FORMAT_VERSION = 1;
/** The marker table, in the file only (never in a sandbox's own database). */
const MARKER_TABLE = "portfolio_wallet_snapshot";

export type SnapshotKind = "sandbox" | "organization";

export interface SnapshotMarker {
  kind: SnapshotKind;
  formatVersion: number;
  schemaVersion: number;
  savedAt: string;
  /** The organization exported (organization exports only). */
  organizationId?: string;
  /** The organization's time when it was exported (organization exports only). */
  organizationNow?: string;
}

/**
 * A snapshot or export file that cannot be used. The message names the file, says what is wrong
 * with it and what to do; nothing was changed when it is thrown.
 */
export class SnapshotFileError extends Error {
  readonly file: string;
  constructor(file: string, problem: string) {
    super(`${file} ${problem}`);
    this.name = "SnapshotFileError";
    this.file = file;
  }
}

const KIND_TEXT: Record<SnapshotKind, string> = {
  sandbox: "a whole-sandbox snapshot",
  organization: "an organization export",
};
const KIND_HOW: Record<SnapshotKind, string> = {
  sandbox:
    "restore it with POST /_sandbox/snapshot/restore or start a sandbox from it (portfolio-wallet sandbox --from-snapshot)",
  organization:
    "import it with POST /_sandbox/organization/import (portfolio-wallet sandbox import-organization)",
};

/** SQLite's 16-byte header string, which every database file starts with. */
const SQLITE_HEADER = "SQLite format 3\0";

/** The file's first 100 bytes (SQLite's database header), or fewer when the file is shorter. */
function readHeader(file: string): Buffer {
  const fd = openSync(file, "r");
  try {
    const header = Buffer.alloc(100);
    const read = readSync(fd, header, 0, 100, 0);
    return header.subarray(0, read);
  } finally {
    closeSync(fd);
  }
}

/**
 * Writes `file` next to where it will land, under a temporary name, then renames it into place:
 * a save that fails leaves no half-written file under the name asked for.
 */
export async function writeAtomically(
  file: string,
  write: (partial: string) => Promise<void>,
): Promise<void> {
  if (existsSync(file))
    throw new SnapshotFileError(file, "a file is already there; choose a new name or delete that file first");
  if (!existsSync(dirname(file)))
    throw new SnapshotFileError(file, `the directory ${dirname(file)} does not exist; create it first`);
  const partial = join(dirname(file), `.${basename(file)}.${randomUUID()}.partial`);
  try {
    await write(partial);
    renameSync(partial, file);
  } catch (error) {
    if (error instanceof SnapshotFileError) throw error;
    // The host refused the write (permissions, a full disk): nothing is left under either name.
    throw new SnapshotFileError(
      file,
      `cannot be written (${error instanceof Error ? error.message : String(error)}); choose a directory the sandbox's process can write`,
    );
  } finally {
    removeIfThere(partial);
    removeIfThere(`${partial}-journal`);
  }
}

/** Deletes a leftover file; one that cannot be there (its directory is a file) is no leftover. */
function removeIfThere(path: string): void {
  try {
    rmSync(path, { force: true });
  } catch {
    // ENOTDIR and the like: nothing was written there.
  }
}

/** Marks a written file: its kind and versions, in the marker table and SQLite's application_id. */
export function markFile(file: string, marker: SnapshotMarker): void {
  const out = new DatabaseSync(file);
  try {
    // One self-contained file: no -wal beside it (a backup of a WAL database keeps its mode).
    out.exec("PRAGMA journal_mode = DELETE");
    out.exec(`PRAGMA application_id = ${SNAPSHOT_APPLICATION_ID}`);
    out.exec(`CREATE TABLE ${MARKER_TABLE} (key TEXT PRIMARY KEY, value TEXT NOT NULL)`);
    const insert = out.prepare(`INSERT INTO ${MARKER_TABLE} (key, value) VALUES (?, ?)`);
    for (const [key, value] of Object.entries(marker)) insert.run(key, String(value));
  } finally {
    out.close();
  }
}

/**
 * Saves the whole sandbox to `file` with SQLite's online backup: the copy is of one committed
 * state, and requests keep being served while it is made (the backup copies pages between them).
 */
export async function saveSnapshot(db: DatabaseSync, file: string, savedAt: string): Promise<void> {
  await writeAtomically(file, async (partial) => {
    await backup(db, partial);
    markFile(partial, {
      kind: "sandbox",
      formatVersion: SNAPSHOT_FORMAT_VERSION,
      schemaVersion: SCHEMA_VERSION,
      savedAt,
    });
  });
}

/** The user tables of a database (`main` or an attached one), without SQLite's own and the marker. */
export function tablesOf(db: DatabaseSync, schema: string): Map<string, string[]> {
  const names = db
    .prepare(
      `SELECT name FROM ${schema}.sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' AND name <> ? ORDER BY name`,
    )
    .all(MARKER_TABLE) as { name: string }[];
  return new Map(
    names.map(({ name }) => [
      name,
      (db.prepare(`SELECT name FROM pragma_table_info(?, ?)`).all(name, schema) as { name: string }[]).map(
        (column) => column.name,
      ),
    ]),
  );
}

/**
 * Checks that `file` is a readable snapshot file of `expected` kind, at a format and schema version
 * this sandbox reads, and answers a path to read it from: the file itself, or a migrated copy
 * (caller deletes it with `cleanUp`) when it was written at an older schema version. Reads the
 * file only; throws a SnapshotFileError otherwise.
 */
export function openSnapshotFile(
  file: string,
  expected: SnapshotKind,
): { path: string; marker: SnapshotMarker; cleanUp(): void } {
  let size: number;
  try {
    const stat = statSync(file);
    if (!stat.isFile()) throw new SnapshotFileError(file, "is not a file; give the path of a snapshot file");
    size = stat.size;
  } catch (error) {
    if (error instanceof SnapshotFileError) throw error;
    throw new SnapshotFileError(file, "no such file; give the path of a file saved by a sandbox");
  }
  const notOurs = `is not ${KIND_TEXT[expected]} of this sandbox (nor any snapshot file); give a file saved by a sandbox`;
  const header = readHeader(file);
  if (header.subarray(0, 16).toString("latin1") !== SQLITE_HEADER) throw new SnapshotFileError(file, notOurs);
  if (header.length < 100)
    throw new SnapshotFileError(file, "is truncated (shorter than its header); save the snapshot again");
  // The header's page size (1 means 65536) and page count: a shorter file lost its end.
  const pageSize = header.readUInt16BE(16) === 1 ? 65536 : header.readUInt16BE(16);
  const pageCount = header.readUInt32BE(28);
  if (size < pageSize * pageCount)
    throw new SnapshotFileError(
      file,
      `is truncated (${size} bytes of the ${pageSize * pageCount} it was written with); save the snapshot again or use an intact copy`,
    );

  let marker: SnapshotMarker;
  const source = openReadOnly(file);
  try {
    const applicationId = (source.prepare("PRAGMA application_id").get() as { application_id: number })
      .application_id;
    if (applicationId !== SNAPSHOT_APPLICATION_ID) throw new SnapshotFileError(file, notOurs);
    const check = source.prepare("PRAGMA quick_check").all() as { quick_check: string }[];
    if (check.length !== 1 || check[0]?.quick_check !== "ok")
      throw new SnapshotFileError(
        file,
        "is corrupted (SQLite's integrity check fails); save the snapshot again or use an intact copy",
      );
    marker = readMarker(source, file);
  } catch (error) {
    if (error instanceof SnapshotFileError) throw error;
    throw new SnapshotFileError(
      file,
      `is corrupted (${error instanceof Error ? error.message : String(error)}); save the snapshot again or use an intact copy`,
    );
  } finally {
    source.close();
  }

  if (marker.kind !== expected)
    throw new SnapshotFileError(
      file,
      `is ${KIND_TEXT[marker.kind]}, not ${KIND_TEXT[expected]}: ${KIND_HOW[marker.kind]}`,
    );
  if (marker.formatVersion > SNAPSHOT_FORMAT_VERSION || marker.schemaVersion > SCHEMA_VERSION)
    throw new SnapshotFileError(
      file,
      `was written by a newer sandbox (snapshot format ${marker.formatVersion}, schema version ${marker.schemaVersion}; this sandbox reads format ${SNAPSHOT_FORMAT_VERSION} and schema versions up to ${SCHEMA_VERSION}): use that newer sandbox, or upgrade this one`,
    );
  if (marker.schemaVersion === SCHEMA_VERSION) return { path: file, marker, cleanUp: () => undefined };
  // An older file: its copy is brought to the current schema by the data file's own migrations.
  const copy = join(tmpdir(), `portfolio-wallet-snapshot-${randomUUID()}.sqlite`);
  copyFileSync(file, copy);
  const migrated = new DatabaseSync(copy);
  try {
    migrate(migrated);
  } finally {
    migrated.close();
  }
  return { path: copy, marker, cleanUp: () => rmSync(copy, { force: true }) };
}

function openReadOnly(file: string): DatabaseSync {
  try {
    return new DatabaseSync(file, { readOnly: true });
  } catch (error) {
    throw new SnapshotFileError(
      file,
      `cannot be opened (${error instanceof Error ? error.message : String(error)}); give a file saved by a sandbox`,
    );
  }
}

function readMarker(source: DatabaseSync, file: string): SnapshotMarker {
  let rows: { key: string; value: string }[];
  try {
    rows = source.prepare(`SELECT key, value FROM ${MARKER_TABLE}`).all() as { key: string; value: string }[];
  } catch {
    throw new SnapshotFileError(file, "has no snapshot marker; give a file saved by a sandbox");
  }
  const values = new Map(rows.map((row) => [row.key, row.value]));
  const kind = values.get("kind");
  const formatVersion = Number(values.get("formatVersion"));
  const schemaVersion = Number(values.get("schemaVersion"));
  if (
    (kind !== "sandbox" && kind !== "organization") ||
    !Number.isInteger(formatVersion) ||
    !Number.isInteger(schemaVersion)
  )
    throw new SnapshotFileError(file, "has an unreadable snapshot marker; save the snapshot again");
  const organizationId = values.get("organizationId");
  const organizationNow = values.get("organizationNow");
  return {
    kind,
    formatVersion,
    schemaVersion,
    savedAt: values.get("savedAt") ?? "",
    ...(organizationId === undefined ? {} : { organizationId }),
    ...(organizationNow === undefined ? {} : { organizationNow }),
  };
}

/** The name a snapshot is attached under while it is read. */
export const ATTACHED = "snapshot_source";

/** Runs `work` with `path` attached to `db` as ATTACHED, detaching it afterwards whatever happens. */
export function withAttached<T>(db: DatabaseSync, path: string, work: () => T): T {
  db.prepare(`ATTACH DATABASE ? AS ${ATTACHED}`).run(path);
  try {
    return work();
  } finally {
    db.exec(`DETACH DATABASE ${ATTACHED}`);
  }
}

/**
 * Replaces every row of every table of `db` by the snapshot's, in one transaction: either the
 * whole snapshot is in place or, on any failure, nothing changed. The triggers that record rate
 * history as catalog rows are written are dropped for the copy (the snapshot holds that history
 * already) and created again inside the same transaction.
 */
export function replaceAllRows(db: DatabaseSync, file: string, path: string): void {
  withAttached(db, path, () => {
    const live = tablesOf(db, "main");
    const saved = tablesOf(db, ATTACHED);
    for (const [table, columns] of live) {
      const savedColumns = saved.get(table);
      if (savedColumns === undefined || columns.some((column) => !savedColumns.includes(column)))
        throw new SnapshotFileError(
          file,
          `lacks the table ${table} (or some of its columns) of schema version ${SCHEMA_VERSION}; save the snapshot again`,
        );
    }
    inTransaction(db, () => {
      db.exec("PRAGMA defer_foreign_keys = ON");
      const triggers = db
        .prepare("SELECT name, sql FROM main.sqlite_master WHERE type = 'trigger'")
        .all() as {
        name: string;
        sql: string;
      }[];
      for (const trigger of triggers) db.exec(`DROP TRIGGER main."${trigger.name}"`);
      for (const [table, columns] of live) {
        const list = columns.map((column) => `"${column}"`).join(", ");
        db.exec(`DELETE FROM main."${table}"`);
        db.exec(`INSERT INTO main."${table}" (${list}) SELECT ${list} FROM ${ATTACHED}."${table}"`);
      }
      // AUTOINCREMENT counters, so new ledger and rate rows follow the snapshot's.
      db.exec("DELETE FROM main.sqlite_sequence");
      const hasSequence = db
        .prepare(`SELECT 1 FROM ${ATTACHED}.sqlite_master WHERE name = 'sqlite_sequence'`)
        .get();
      if (hasSequence !== undefined)
        db.exec(
          `INSERT INTO main.sqlite_sequence (name, seq) SELECT name, seq FROM ${ATTACHED}.sqlite_sequence`,
        );
      for (const trigger of triggers) db.exec(trigger.sql);
    });
  });
}

/** What a sandbox holds, in the figures a restore says it replaced and put in place. */
export interface SandboxStateCounts {
  organizations: number;
  wallets: number;
}

/** The wallets of `db` and the organizations they belong to. */
export function countSandboxState(db: DatabaseSync): SandboxStateCounts {
  const row = db
    .prepare("SELECT COUNT(*) AS wallets, COUNT(DISTINCT organization_id) AS organizations FROM wallets")
    .get() as { wallets: number; organizations: number };
  return { organizations: Number(row.organizations), wallets: Number(row.wallets) };
}

/** A snapshot file of a directory, as a list of them shows it: its name only, never its path. */
export interface SnapshotFileEntry {
  file: string;
  /** When it was saved or exported: the shared clock's time, from its marker. */
  savedAt: string;
  bytes: number;
}

/**
 * The files of `dir` that are snapshot files of `kind`, newest first, read from their markers only
 * (a list must not cost a full check of every file; a restore, an import or a download checks the
 * one file it uses). Names `isFileName` refuses (a save's temporary files) and other files are left
 * out; a directory not made yet holds none.
 */
export function listSnapshotFiles(
  dir: string,
  kind: SnapshotKind,
  isFileName: (name: string) => boolean,
): SnapshotFileEntry[] {
  if (!existsSync(dir)) return [];
  const entries: SnapshotFileEntry[] = [];
  for (const name of readdirSync(dir)) {
    if (!isFileName(name)) continue;
    const path = join(dir, name);
    const marker = peekMarker(path);
    if (marker?.kind !== kind) continue;
    entries.push({ file: name, savedAt: marker.savedAt, bytes: statSync(path).size });
  }
  return entries.sort((a, b) => b.savedAt.localeCompare(a.savedAt) || a.file.localeCompare(b.file));
}

/** A file's marker when it is a snapshot file at all, else null; nothing else of it is checked. */
function peekMarker(path: string): SnapshotMarker | null {
  try {
    if (!statSync(path).isFile()) return null;
    if (readHeader(path).subarray(0, 16).toString("latin1") !== SQLITE_HEADER) return null;
    const source = new DatabaseSync(path, { readOnly: true });
    try {
      const { application_id: applicationId } = source.prepare("PRAGMA application_id").get() as {
        application_id: number;
      };
      return applicationId === SNAPSHOT_APPLICATION_ID ? readMarker(source, path) : null;
    } finally {
      source.close();
    }
  } catch {
    return null;
  }
}

/**
 * The bytes of a snapshot file of `kind`, once the whole file is checked as a restore or an import
 * would check it (a download must not hand out a file the sandbox would refuse). Throws a
 * SnapshotFileError saying what is wrong.
 */
export function readSnapshotFile(
  file: string,
  kind: SnapshotKind,
): { bytes: Buffer; marker: SnapshotMarker } {
  const opened = openSnapshotFile(file, kind);
  try {
    return { bytes: readFileSync(file), marker: opened.marker };
  } finally {
    opened.cleanUp();
  }
}
