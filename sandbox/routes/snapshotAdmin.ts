import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { ValidationError } from "../domain/errors.ts";
import type { SandboxContext } from "../http/context.ts";
import { requireSandboxWideAdmin } from "../http/middleware.ts";
import { ok } from "../http/operationRoutes.ts";
import { SnapshotFileError } from "../store/snapshotFiles.ts";
import type { AdminRoutes } from "./adminHandlers.ts";

/**
 * Where a file name lies: whole-sandbox snapshots in the snapshot directory, an organization's
 * exports and imports in its own folder below it, so one organization's admin never reads
 * another's export. Created on first use.
 */
function snapshotPath(ctx: SandboxContext, file: string, organizationId?: string): string {
  if (ctx.snapshotDir === null) {
    throw new ValidationError([
      {
        field: "file",
        reason:
          "this sandbox keeps its data in memory and has no snapshot directory: start it with --snapshot-dir <dir> (env SANDBOX_SNAPSHOT_DIR)",
      },
    ]);
  }
  const dir =
    organizationId === undefined
      ? ctx.snapshotDir
      : join(ctx.snapshotDir, "organizations", encodeURIComponent(organizationId));
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  return join(dir, file);
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
    sandboxExportOrganization: async ({ body: { file } }, org) => ({
      status: 201,
      body: await refusingBadFiles(() => ctx.snapshots.exportOrganization(org, snapshotPath(ctx, file, org))),
    }),
    sandboxImportOrganization: async ({ body: { file } }, org) =>
      ok(await refusingBadFiles(() => ctx.snapshots.importOrganization(org, snapshotPath(ctx, file, org)))),
  } satisfies Partial<AdminRoutes>;
}
