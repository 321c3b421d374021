import { existsSync, mkdirSync } from "node:fs";
import { join } from "node:path";
import { NotFoundError, ValidationError } from "../domain/errors.ts";
import type { SandboxContext } from "../http/context.ts";
import { requireSandboxWideAdmin } from "../http/identityMiddleware.ts";
import { ok } from "../http/operationRoutes.ts";
import {
  listSnapshotFiles,
  readSnapshotFile,
  SnapshotFileError,
  type SnapshotKind,
} from "../store/snapshotFiles.ts";
import type { AdminRoutes } from "./adminHandlers.ts";
import { SnapshotFileSchema } from "./adminRequestSchemas.ts";

const NO_SNAPSHOT_DIRECTORY =
  "this sandbox keeps its data in memory and has no snapshot directory: start it with --snapshot-dir <dir> (env SANDBOX_SNAPSHOT_DIR)";

/**
 * Where a file name lies: whole-sandbox snapshots in the snapshot directory, an organization's
 * exports and imports in its own folder below it, so one organization's admin never reads
 * another's export. Created on first use.
 */
function snapshotPath(ctx: SandboxContext, file: string, organizationId?: string): string {
  const dir = folderOf(ctx.snapshotDir, organizationId);
  if (dir === null) throw new ValidationError([{ field: "file", reason: NO_SNAPSHOT_DIRECTORY }]);
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  return join(dir, file);
}

/** The folder of whole-sandbox snapshots, or of an organization's exports; null without a snapshot directory. */
function folderOf(snapshotDir: string | null, organizationId?: string): string | null {
  if (snapshotDir === null) return null;
  return organizationId === undefined
    ? snapshotDir
    : join(snapshotDir, "organizations", encodeURIComponent(organizationId));
}

const isFileName = (name: string) => SnapshotFileSchema.shape.file.safeParse(name).success;

/** A folder's files of one kind, by name; a sandbox without a snapshot directory says it has none. */
function listFolder(ctx: SandboxContext, kind: SnapshotKind, organizationId?: string) {
  const dir = folderOf(ctx.snapshotDir, organizationId);
  return ok({
    hasSnapshotDirectory: dir !== null,
    files: dir === null ? [] : listSnapshotFiles(dir, kind, isFileName),
  });
}

/**
 * One file of a folder as base64 in JSON (the admin API answers JSON only; a file is at most the
 * sandbox's size, as a save is): 404 when it is not there, 400 naming `file` when it is not a
 * snapshot file of `kind`. Its name, never its path, is in the answer.
 */
function readFolderFile(ctx: SandboxContext, file: string, kind: SnapshotKind, organizationId?: string) {
  const dir = folderOf(ctx.snapshotDir, organizationId);
  if (dir === null) throw new ValidationError([{ field: "file", reason: NO_SNAPSHOT_DIRECTORY }]);
  const path = join(dir, file);
  if (!existsSync(path))
    throw new NotFoundError(
      `snapshot file ${JSON.stringify(file)} (${kind === "sandbox" ? "the snapshot directory" : "the organization's folder of the snapshot directory"})`,
    );
  try {
    const { bytes, marker } = readSnapshotFile(path, kind);
    return ok({
      file,
      savedAt: marker.savedAt,
      bytes: bytes.length,
      contentBase64: bytes.toString("base64"),
    });
  } catch (error) {
    if (error instanceof SnapshotFileError)
      // The file's own message starts with its path: the answer names the file only.
      throw new ValidationError([{ field: "file", reason: `${file}${error.message.slice(path.length)}` }]);
    throw error;
  }
}

/** A refused file is a bad `file` field: 400 naming it, with the file's own message. */
async function refusingBadFiles<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    if (error instanceof SnapshotFileError)
      throw new ValidationError([{ field: "file", reason: error.message }]);
    throw error;
  }
}

/**
 * Snapshots of the whole sandbox (the sandbox's admin token only: they read or replace every
 * organization's state, so an organization's token is refused before the body is read) and one
 * organization's export and import (its admin token may too): docs/sandbox.md "Snapshots".
 */
export function snapshotAdminRoutes(ctx: SandboxContext) {
  return {
    sandboxSaveSnapshot: {
      authorize: (c) => requireSandboxWideAdmin(c, "a snapshot of the whole sandbox"),
      handle: async ({ body: { file } }) => ({
        status: 201,
        body: await refusingBadFiles(() => ctx.snapshots.save(snapshotPath(ctx, file))),
      }),
    },
    sandboxRestoreSnapshot: {
      authorize: (c) => requireSandboxWideAdmin(c, "restoring a snapshot of the whole sandbox"),
      handle: async ({ body: { file } }) =>
        ok(await refusingBadFiles(() => ctx.snapshots.restore(snapshotPath(ctx, file)))),
    },
    sandboxListSnapshots: {
      authorize: (c) => requireSandboxWideAdmin(c, "listing the whole sandbox's snapshots"),
      handle: () => listFolder(ctx, "sandbox"),
    },
    sandboxReadSnapshot: {
      authorize: (c) => requireSandboxWideAdmin(c, "reading a snapshot of the whole sandbox"),
      handle: ({ path: { file } }) => readFolderFile(ctx, file, "sandbox"),
    },
    sandboxListOrganizationExports: (_input, org) => listFolder(ctx, "organization", org),
    sandboxReadOrganizationExport: ({ path: { file } }, org) =>
      readFolderFile(ctx, file, "organization", org),
    sandboxExportOrganization: async ({ body: { file } }, org) => ({
      status: 201,
      body: await refusingBadFiles(() => ctx.snapshots.exportOrganization(org, snapshotPath(ctx, file, org))),
    }),
    sandboxImportOrganization: async ({ body: { file } }, org) =>
      ok(await refusingBadFiles(() => ctx.snapshots.importOrganization(org, snapshotPath(ctx, file, org)))),
  } satisfies Partial<AdminRoutes>;
}
