import path from "node:path";
import { defineConfig } from "vitest/config";
import { HEAVY_WORKERS } from "./test/support/heavyLanes.ts";
import { HeavyLanesSequencer } from "./test/support/heavySequencer.ts";

/**
 * A test file's tier is in its name, so no list here names a file (docs/testing.md says where a new
 * test goes). `*.engine.test.ts`: a file that needs the Pulumi engine, a browser, Maven or Go (or a
 * tool built with Go on a cold cache), or that installs Python tools from PyPI and runs for minutes:
 * the `heavy` project. Every other `*.test.ts` is the `unit` project, which `npm run test:unit` runs
 * alone for the edit loop. The unit project puts stand-ins for `pulumi`, `go`, `mvn`, `java` and
 * `chromium` first on PATH and sets PORTFOLIO_WALLET_TEST_TIER=unit, which the engine's, Python
 * virtual environments' and browser's entry points refuse (scripts/pulumiEnv.ts,
 * test/native/harness/languageProject.ts, test/sandbox/console/harness.ts): a new file that needs any of
 * them fails in `npm run test:unit` with a message saying to name it `*.engine.test.ts`, instead of
 * silently making the quick loop slow. `*.waiting.engine.test.ts` is a heavy file that mostly waits
 * (its lane: WAITING_TESTS in test/support/heavyLanes.ts).
 */
export const ENGINE_TESTS = "test/**/*.engine.test.ts";

/** What the unit project finds first on PATH instead of the heavy tools (each says what to do). */
const UNIT_TIER_STAND_INS = path.join(import.meta.dirname, "test", "support", "unitTier");

/**
 * `*.checkout.engine.test.ts`: heavy files that build in the checkout itself, so that nothing else
 * may run meanwhile: the release (scripts/release.sh rebuilds dist/ and its plugin archive, which
 * the other heavy files' packed package is made from, and copies sdk/java and sdk/python, where the
 * doc walks build in place). Run alone, last. With two heavy files at a time, the release once
 * found the plugin archive half rewritten.
 */
const CHECKOUT_BUILDING_TESTS = "test/**/*.checkout.engine.test.ts";

/**
 * `*.last.test.ts`: the last file of a run, the account's own logins and settings (~/.pulumi,
 * ~/.npmrc, ...) compared with the digest test/globalSetup.ts took before the first test, after
 * every other file has run (test/support/accountSettings.ts).
 */
const ACCOUNT_CHECK_TESTS = "test/**/*.last.test.ts";

/** The unit tier's environment: the heavy tools replaced by stand-ins that say what to do. */
const UNIT_TIER_ENV = {
  PORTFOLIO_WALLET_TEST_TIER: "unit",
  PATH: [UNIT_TIER_STAND_INS, process.env["PATH"] ?? ""].join(path.delimiter),
};

export default defineConfig({
  test: {
    // Engine tests drive the real Pulumi CLI; they need minutes, not the default 5 s.
    testTimeout: 60_000,
    hookTimeout: 120_000,
    pool: "forks",
    globalSetup: ["./test/globalSetup.ts"],
    // The heavy tier's files in the order that keeps its three lanes busy (test/support/heavyLanes.ts).
    sequence: { sequencer: HeavyLanesSequencer },
    setupFiles: ["./test/reporters/fileCpu.ts"],
    // The serialized provider (sdk/nodejs/resources/resourceProvider.cts) is CommonJS: Node loads it as is,
    // rather than Vite's transform, which only speaks ES modules.
    server: { deps: { external: [/\.cts$/] } },
    // Durations first, so that the summary line stays the last line printed.
    reporters: ["default", "./test/reporters/fileDurations.ts", "./test/reporters/summaryLine.ts"],
    projects: [
      {
        extends: true,
        test: {
          name: "unit",
          // Two workers on two cores: a unit file is mostly one process's CPU, and two at a time take
          // about a quarter of one worker's time (docs/testing.md).
          // Each project names its own files: a project's arrays add to the root's, not replace them.
          include: ["test/**/*.test.ts"],
          exclude: ["**/node_modules/**", ENGINE_TESTS, ACCOUNT_CHECK_TESTS],
          maxWorkers: 2,
          // A worker keeps the modules it loaded from one file to the next (a fresh module registry
          // per file cost a quarter of the tier's CPU: 223 s against 158, measured). So a unit file
          // leaves nothing behind: no module mocks (pass a fake through a parameter instead), no
          // changed process.env, no timers or servers left running.
          isolate: false,
          env: UNIT_TIER_ENV,
        },
      },
      {
        extends: true,
        test: {
          name: "heavy",
          include: [ENGINE_TESTS],
          exclude: ["**/node_modules/**", CHECKOUT_BUILDING_TESTS],
          // Three heavy files at a time, after the unit files, of which at most two are CPU-bound
          // (each holds one of two CPU slots, test/support/heavyCpuSlot.ts) and the third is one that
          // mostly waits (`*.waiting.engine.test.ts`, test/support/heavyLanes.ts: a browser, the sandbox's
          // clock, a rate limit). Three CPU-bound files at once were measured and were slower than
          // two (1,253 s and 2,023 s of CPU against 1,165 s and 1,768 s: two processes at once
          // already cost each about a fifth more CPU here than one alone; docs/testing.md), but
          // with two lanes the waiting files' waits left a core idle. A step's time limit is about
          // what the step does, not what the other files do meanwhile: an engine test gets five
          // minutes and a set-up ten, where vitest's defaults suit a unit test.
          maxWorkers: HEAVY_WORKERS,
          setupFiles: ["./test/support/heavyCpuSlot.ts"],
          // The engine runs TypeScript programs without type-checking them each time (ts-node's
          // transpile-only, as a user with a separate `tsc` step sets it): what these files test is
          // the provider, and the check took seconds of CPU per run, a third or more of a TypeScript
          // program's step. The projects that stand for a user's own (test/consumer/layouts.engine.test.ts,
          // the doc walks of test/docs/newcomerPath.engine.test.ts) type-check, as a user's do by default.
          env: { PULUMI_NODEJS_TRANSPILE_ONLY: "true" },
          testTimeout: 300_000,
          hookTimeout: 600_000,
          sequence: { groupOrder: 1 },
        },
      },
      {
        extends: true,
        test: {
          name: "heavy-alone",
          include: [CHECKOUT_BUILDING_TESTS],
          maxWorkers: 1,
          testTimeout: 300_000,
          hookTimeout: 600_000,
          sequence: { groupOrder: 2 },
        },
      },
      {
        extends: true,
        test: {
          name: "account",
          include: [ACCOUNT_CHECK_TESTS],
          maxWorkers: 1,
          sequence: { groupOrder: 3 },
        },
      },
    ],
  },
});
