import { isAbsolute } from "node:path";
import { Hono } from "hono";
import { z } from "zod";
import { ValidationError } from "../domain/errors.ts";
import type { SandboxContext } from "../http/context.ts";
import type { SandboxEnv } from "../http/env.ts";
import { requireSandboxWideAdmin } from "../http/middleware.ts";
import { readBody } from "../http/validation.ts";
import { SnapshotFileError } from "../store/snapshotFiles.ts";

/** A file on the sandbox's host: absolute, since the sandbox's working directory is not the caller's. */
export const SnapshotFileSchema = z.object({
  file: z
    .string()
    .min(1)
    .max(4096)
    .refine((file) => isAbsolute(file), "must be an absolute path on the sandbox's host"),
});

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
 * organization's state) and one organization's export and import (its admin token may too):
 * docs/sandbox.md "Snapshots".
 */
export function snapshotAdminRoutes(ctx: SandboxContext): Hono<SandboxEnv> {
  const routes = new Hono<SandboxEnv>();
  routes.post("/snapshot/save", async (c) => {
    requireSandboxWideAdmin(c, "a snapshot of the whole sandbox");
    const { file } = await readBody(c, SnapshotFileSchema);
    return c.json(await refusingBadFiles(() => ctx.snapshots.save(file)), 201);
  });
  routes.post("/snapshot/restore", async (c) => {
    requireSandboxWideAdmin(c, "restoring a snapshot of the whole sandbox");
    const { file } = await readBody(c, SnapshotFileSchema);
    return c.json(await refusingBadFiles(() => ctx.snapshots.restore(file)));
  });
  routes.post("/organization/export", async (c) => {
    const { file } = await readBody(c, SnapshotFileSchema);
    return c.json(
      await refusingBadFiles(() => ctx.snapshots.exportOrganization(c.get("organizationId"), file)),
      201,
    );
  });
  routes.post("/organization/import", async (c) => {
    const { file } = await readBody(c, SnapshotFileSchema);
    return c.json(
      await refusingBadFiles(() => ctx.snapshots.importOrganization(c.get("organizationId"), file)),
    );
  });
  return routes;
}
