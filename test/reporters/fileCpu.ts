import { readFileSync } from "node:fs";
import { afterAll } from "vitest";

/**
 * A setup file (vitest.config.ts) that measures the CPU each test file used: its worker process's
 * own, plus that of every process it started and waited for (the engine, npm, a language host, and
 * theirs in turn), read from /proc/self/stat. On a machine the suite keeps busy, CPU says what a
 * file costs where its wall time also says what ran beside it. Stored in the file's task meta,
 * which the duration report (fileDurations.ts) reads; absent where /proc is not (not Linux).
 */

declare module "vitest" {
  interface TaskMeta {
    /** CPU seconds the file's worker and its waited-for child processes used while it ran. */
    cpuSeconds?: number;
  }
}

/** Linux's clock ticks per second (getconf CLK_TCK), the unit of /proc/<pid>/stat's times. */
const CLOCK_TICKS_PER_SECOND = 100;

/** utime + stime + cutime + cstime of this process, in seconds; undefined without /proc. */
function processTreeCpuSeconds(): number | undefined {
  try {
    const stat = readFileSync("/proc/self/stat", "utf8");
    // Fields after the command name (which may contain spaces) in parentheses; utime is field 14.
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    const ticks = fields.slice(11, 15).reduce((sum, field) => sum + Number(field), 0);
    return ticks / CLOCK_TICKS_PER_SECOND;
  } catch {
    return undefined;
  }
}

/** Read when the setup file loads, before the test file is imported: its import counts too. */
const atStart = processTreeCpuSeconds();

// Vitest reads the first parameter's destructuring for the fixtures a hook uses: none here.
afterAll(({}, file) => {
  const atEnd = processTreeCpuSeconds();
  if (atStart !== undefined && atEnd !== undefined) file.meta.cpuSeconds = atEnd - atStart;
});
