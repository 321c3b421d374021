import { existsSync, mkdirSync, rmSync, statSync, writeFileSync } from "node:fs";
import path from "node:path";
import { setTimeout as sleep } from "node:timers/promises";

/** Longer than making any of these ever takes on a loaded two-core machine. */
const STALE_LOCK_MS = 15 * 60_000;

/**
 * Makes `dir` with `make` unless it was made already, by this or another worker process (the
 * test files run in several): made in place, under a lock, and marked complete last; a half-made
 * one left by a killed run or a failed `make` is made again. The packed tarball, the run's shared
 * installs and the Python SDK's virtual environments are made this way.
 */
export async function onceUnderLock(dir: string, make: () => Promise<void>): Promise<void> {
  const complete = path.join(dir, ".complete");
  const lock = `${dir}.lock`;
  mkdirSync(path.dirname(dir), { recursive: true });
  for (;;) {
    if (existsSync(complete)) return;
    try {
      mkdirSync(lock);
      break;
    } catch {
      // Another worker is making it: wait for it, unless its lock outlived any making (a killed run's).
      const lockedAt = statSync(lock, { throwIfNoEntry: false })?.mtimeMs;
      if (lockedAt !== undefined && Date.now() - lockedAt > STALE_LOCK_MS)
        rmSync(lock, { recursive: true, force: true });
      await sleep(500);
    }
  }
  try {
    if (existsSync(complete)) return;
    rmSync(dir, { recursive: true, force: true });
    mkdirSync(dir, { recursive: true });
    await make();
    writeFileSync(complete, "");
  } finally {
    rmSync(lock, { recursive: true, force: true });
  }
}
