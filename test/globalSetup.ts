import { mkdirSync, mkdtempSync } from "node:fs";
import { rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { ensureBuilt } from "../scripts/build.ts";
import { SHARED_INSTALLS_DIR_ENV } from "./consumer/harness/sharedInstall.ts";
import { ACCOUNT_SETTINGS_BEFORE_ENV, recordAccountSettings } from "./support/accountSettings.ts";
import { CPU_SLOTS_DIR_ENV } from "./support/heavyLanes.ts";

/** For a JVM that lives seconds: the client compiler only, one garbage-collection thread. */
const SHORT_LIVED_JVM_OPTIONS = "-XX:TieredStopAtLevel=1 -XX:+UseSerialGC";

/**
 * Before any test: dist/ must match the sources. The repo's own Pulumi programs (examples, e2e
 * fixtures) and the serialized provider resolve `@portfolio-wallet/pulumi` to the build, as an
 * installed copy does; a stale build would test old code.
 *
 * What the run's processes share lives in a directory of the run, removed when it ends (set in the
 * environment before any worker starts, so every worker and every process they start inherit it):
 * - the shared installs (test/consumer/harness/sharedInstall.ts), a quarter of a gigabyte each;
 * - the heavy tier's CPU slots (test/support/heavyLanes.ts);
 * - Node.js's compile cache (NODE_COMPILE_CACHE): the suite starts about a thousand Node processes
 *   (Pulumi programs, the dynamic provider, the native plugin, the CLI, npm), most of them loading
 *   @pulumi/pulumi, whose compilation the cache cuts from about 0.9 to 0.5 s of CPU. Node checks
 *   each cached entry against the file's content, so a cached compile never changes what runs;
 * - the Java virtual machines' options (JAVA_TOOL_OPTIONS, unless set already; every JVM reads it
 *   and says so on stderr): every JVM the suite starts lives seconds (Maven, a Java program run by
 *   `pulumi`, javac), and for those the optimizing compiler and the parallel collector cost more CPU
 *   than they save. The client compiler alone and the serial collector: a Maven build of the Java
 *   example 6.5 → 3.2 s of CPU, `test/native/java.engine.test.ts` 66 → 48 s. They change how fast, not
 *   what runs;
 * - the Go garbage collector's target (GOGC=400, unless set already), read by the Go processes the
 *   tests start (the doc walks' terminals drop it with the machine's other GO* variables): the Pulumi CLI and its language hosts (several per `pulumi` command), the Go compiler
 *   and linker. Each lives seconds with a small heap, and collecting it less often costs memory
 *   this machine has (24 GiB) and saves CPU: a `pulumi preview` of a YAML program 0.66 → 0.53 s;
 * - a PULUMI_HOME of the run's (`pulumi-home`), for any Pulumi command whose environment is the
 *   test process's: without one the CLI uses the account's `~/.pulumi` (found from the account
 *   database, whatever HOME says), its login and its plugins. The projects' environments set a
 *   home of their own (offlinePulumiSettings in scripts/pulumiEnv.ts, the doc walks' `$HOME/.pulumi`);
 * - the digest of the account's own settings (test/support/accountSettings.ts: `~/.pulumi`, npm's,
 *   git's, Maven's, Go's and pip's), taken before any test, which test/accountSettings.last.test.ts
 *   compares with the settings after every other file has run.
 */
export default async function setup(): Promise<() => Promise<void>> {
  await ensureBuilt();
  const run = mkdtempSync(path.join(os.tmpdir(), "pw-test-run-"));
  const installs = path.join(run, "installs");
  const compileCache = path.join(run, "node-compile-cache");
  mkdirSync(installs);
  mkdirSync(compileCache);
  process.env[SHARED_INSTALLS_DIR_ENV] = installs;
  process.env[CPU_SLOTS_DIR_ENV] = path.join(run, "cpu-slots");
  process.env["NODE_COMPILE_CACHE"] = compileCache;
  process.env["JAVA_TOOL_OPTIONS"] ??= SHORT_LIVED_JVM_OPTIONS;
  process.env["GOGC"] ??= "400";
  process.env["PULUMI_HOME"] = path.join(run, "pulumi-home");
  // Once per run: vitest runs this set-up once per project, all of them before the first test.
  if (process.env[ACCOUNT_SETTINGS_BEFORE_ENV] === undefined)
    recordAccountSettings(path.join(run, "account-settings-before.json"));
  // Removed asynchronously: a synchronous removal of the installs' hundred thousand links blocked
  // the main process for over ten seconds, while vitest was still waiting for the last worker to
  // exit, and vitest then printed a worker-termination timeout after the run's summary line.
  // Retried: a process the run started and left running (a sandbox a test did not stop) can still
  // be writing into the compile cache, and a directory that gains an entry while it is removed
  // fails with ENOTEMPTY.
  return async () => {
    await rm(run, { recursive: true, force: true, maxRetries: 10, retryDelay: 200 }).catch((error: Error) => {
      console.warn(`could not remove the run's directory ${run}: ${error.message}`);
    });
  };
}
