import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { ensureBuilt } from "../scripts/build.ts";
import { SHARED_INSTALLS_DIR_ENV } from "./consumer/harness/sharedInstall.ts";

/**
 * Before any test: dist/ must match the sources. The repo's own Pulumi programs (examples, e2e
 * fixtures) and the serialized provider resolve `@portfolio-wallet/pulumi` to the build, as an
 * installed copy does; a stale build would test old code.
 *
 * The run's shared installs (test/consumer/harness/sharedInstall.ts) live in a directory of the run:
 * a quarter of a gigabyte each, removed when the run ends rather than piling up in the temp dir.
 */
export default async function setup(): Promise<() => void> {
  await ensureBuilt();
  const installs = mkdtempSync(path.join(os.tmpdir(), "pw-test-installs-"));
  // Set before any worker starts: each worker process inherits it.
  process.env[SHARED_INSTALLS_DIR_ENV] = installs;
  return () => rmSync(installs, { recursive: true, force: true });
}
