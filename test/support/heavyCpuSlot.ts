import path from "node:path";
import { afterAll, beforeAll } from "vitest";
import { acquireSlot } from "./cpuSlots.ts";
import { CPU_SLOTS, CPU_SLOTS_DIR_ENV, isWaitingTest } from "./heavyLanes.ts";

/**
 * A setup file of the heavy tier (vitest.config.ts): a CPU-bound heavy file holds one of the run's
 * CPU slots from before its first hook to after its last, so that of the tier's three files at a
 * time at most two keep a core busy (test/support/heavyLanes.ts says why). A file that mostly waits
 * takes none. The time spent waiting for a slot is recorded in the file's task meta, which the
 * duration report (test/reporters/fileDurations.ts) takes off the file's seconds.
 */

declare module "vitest" {
  interface TaskMeta {
    /** Seconds the file waited for a CPU slot before its first hook. */
    cpuSlotWaitSeconds?: number;
  }
}

const repositoryRoot = path.resolve(import.meta.dirname, "..", "..");

/** Longer than any file waits for a slot: every other CPU-bound file of the tier, one after another. */
const SLOT_WAIT_LIMIT_MS = 60 * 60_000;

let release: (() => void) | undefined;

// Vitest reads the first parameter's destructuring for the fixtures a hook uses: none here.
beforeAll(async ({}, suite) => {
  const file = suite.file;
  if (isWaitingTest(path.relative(repositoryRoot, file.filepath))) return;
  const slotsDir = process.env[CPU_SLOTS_DIR_ENV];
  if (slotsDir === undefined) throw new Error(`${CPU_SLOTS_DIR_ENV} is not set: test/globalSetup.ts sets it`);
  const startedWaiting = performance.now();
  ({ release } = await acquireSlot(slotsDir, CPU_SLOTS));
  file.meta.cpuSlotWaitSeconds = (performance.now() - startedWaiting) / 1000;
}, SLOT_WAIT_LIMIT_MS);

afterAll(() => {
  release?.();
  release = undefined;
});
