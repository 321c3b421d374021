import path from "node:path";

/**
 * How the heavy tier shares two cores: three files at a time, of which at most two are files that
 * keep a core busy, and the third is one that mostly waits (on the sandbox's clock, a rate limit,
 * the provider's backoff, a browser). docs/testing.md has the measurements.
 *
 * Two CPU-bound heavy files already fill two cores (two processes at once cost each about a fifth
 * more CPU here than one alone), and a third made the run slower. But the files below use 0.4 to
 * 0.65 of one core over their time, and with two lanes their waiting left a core idle: a
 * third lane for them, while the CPU-bound files hold one of two slots each
 * (test/support/heavyCpuSlot.ts), takes the waits off the two lanes' time.
 */

/**
 * `*.waiting.engine.test.ts`: heavy files that use well under one core over their time (CPU seconds
 * / seconds, measured with two files at a time: 0.4 to 0.65); MEASURED_SECONDS, not the name, gives
 * their start order. The lifecycle waits on its sandbox's rebalances and approvals; the browser
 * files on Chromium and the sandbox; faults and the rate limit on the provider's backoff.
 */
export const WAITING_TESTS = "test/**/*.waiting.engine.test.ts";

/** Heavy files at a time: two CPU-bound ones and one that waits. */
export const HEAVY_WORKERS = 3;

/** CPU-bound heavy files at a time. */
export const CPU_SLOTS = 2;

/** Where the run keeps its CPU slots (set by test/globalSetup.ts to a directory of the run). */
export const CPU_SLOTS_DIR_ENV = "PORTFOLIO_WALLET_TEST_CPU_SLOTS_DIR";

/**
 * Seconds each heavy file took in a fresh-clone run (`e2aca9e`, 2026-11-29), to start the longest
 * first: a long file started last keeps one lane busy after the others are done. Without a record
 * of its own (a fresh clone has none), vitest orders by file size, which put a 49-second file
 * (test/native/python.engine.test.ts, the smallest) last. A file not listed starts before the listed
 * ones: nothing says it is short.
 */
export const MEASURED_SECONDS: Record<string, number> = {
  "test/docs/newcomerPath.engine.test.ts": 376,
  "test/e2e/lifecycle.waiting.engine.test.ts": 170,
  "test/consumer/layouts.engine.test.ts": 160,
  // Not of that run: measured alone (2026-12-03, the machine shared, load 4.5), with its restore,
  // adopt and market watch steps.
  "test/cli/drift/driftEveryProgram.engine.test.ts": 270,
  // Not of that run: the fresh-clone run of 4b35f71 (2026-12-04), with issue 58's checks.
  "test/sandbox/console/console.waiting.engine.test.ts": 112,
  "test/e2e/faults.waiting.engine.test.ts": 106,
  // Not of that run: measured alone (2026-12-03, the machine shared), with drift.yml's ways back.
  "test/examples/upPlanSteps.engine.test.ts": 170,
  "test/consumer/savedPlans.engine.test.ts": 84,
  "test/e2e/killedUp.engine.test.ts": 83,
  "test/e2e/rateLimitedUp.waiting.engine.test.ts": 64,
  // 4b35f71 too, for the next three: the paused sandbox, object pages, inboxes.
  "test/sandbox/console/firstHour.waiting.engine.test.ts": 72,
  "test/sandbox/console/itemLinks.waiting.engine.test.ts": 59,
  "test/openapi/schemathesis.engine.test.ts": 52,
  "test/cli/report/moneyEveryAdapter.engine.test.ts": 47,
  "test/consumer/recreateAfterDestroy.engine.test.ts": 46,
  "test/native/go.engine.test.ts": 45,
  "test/native/java.engine.test.ts": 41,
  "test/native/python.engine.test.ts": 39,
  "test/consumer/policyPack.engine.test.ts": 38,
  // 4b35f71: with the inbox's deliveries read after its first up.
  "test/quickstart/quickstart.engine.test.ts": 48,
  "test/sandbox/console/webhooks.waiting.engine.test.ts": 35,
  "test/native/yaml.engine.test.ts": 23,
  "test/docs/codeBlocks.engine.test.ts": 23,
  "test/consumer/bothWays.engine.test.ts": 23,
  "test/sandbox/console/serving.waiting.engine.test.ts": 10,
  // Measured alone (2026-12-02): Chromium's start and eight pages.
  "test/cli/report/commentRendering.waiting.engine.test.ts": 6,
  "test/native/schema.engine.test.ts": 10,
  "test/consumer/nodeVersion.engine.test.ts": 5,
  "test/openapi/pythonClient.engine.test.ts": 4,
  "test/consumer/sharedInstall.engine.test.ts": 4,
  "test/native/javaSdkInstall.engine.test.ts": 3,
  "test/examples/githubActions.waiting.engine.test.ts": 0,
};

export function isWaitingTest(relativePath: string): boolean {
  return path.matchesGlob(relativePath, WAITING_TESTS);
}

/**
 * The order the heavy files start in (paths relative to the repository root): unmeasured files
 * first, then the longest first, the CPU-bound and the waiting ones alternating, so that when a
 * waiting file ends the next file in line is usually another waiting one, and the third lane does
 * not sit behind a CPU-bound file that has no slot yet.
 */
export function heavyStartOrder(files: string[]): string[] {
  const unmeasured = files.filter((file) => MEASURED_SECONDS[file] === undefined);
  const longestFirst = (list: string[]) =>
    list
      .filter((file) => MEASURED_SECONDS[file] !== undefined)
      .sort((a, b) => MEASURED_SECONDS[b]! - MEASURED_SECONDS[a]!);
  const cpuBound = longestFirst(files.filter((file) => !isWaitingTest(file)));
  const waiting = longestFirst(files.filter(isWaitingTest));
  const alternating: string[] = [];
  for (let index = 0; index < Math.max(cpuBound.length, waiting.length); index++) {
    if (index < cpuBound.length) alternating.push(cpuBound[index]!);
    if (index < waiting.length) alternating.push(waiting[index]!);
  }
  return [...unmeasured, ...alternating];
}
