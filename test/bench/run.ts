// `npm run bench`: what the provider costs on top of the Pulumi engine, measured the way users
// run it (the packed package installed in a project outside the repo, the real engine, the CLI).
// Reports, never asserts. See docs/performance.md for how to read it.
//
// For each size n (BENCH_SIZES, default 1,10,50,200) and each of BENCH_RUNS runs (default 3), it
// measures n PortfolioWallets and n no-op dynamic resources (the engine's floor) alternately:
// preview, up and a no-change preview (wall time of the CLI), the service requests of each, the
// provider's phase timings (time until its implementation is loaded; per-call check, diff, create,
// read), and state bytes per resource and of `__provider`. Medians, ratios to the floor, and the
// fixed cost and per-resource slope of each are written to bench-results/ as markdown and JSON.
// BENCH_CPU_PROFILE=1 also records a CPU profile of the dynamic-provider process (largest n, up).
// BENCH_KINDS picks kinds (default the five TypeScript ones; `python`, `java` and `java-jar` run the
// native plugin's wallets from a program in that language, test/bench/programs/fleet-*, when
// named); BENCH_CHECKPOINTS=per-step,skipped measures each cell
// both with the engine's checkpoint after every step and with PULUMI_SKIP_CHECKPOINTS=true. The
// 1-minute load average is recorded before each measurement (the machine is shared).
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { randomUUID } from "node:crypto";
import { startSandbox } from "../../sandbox/index.ts";
import { PortfolioWalletClient } from "../../sdk/nodejs/client/index.ts";
import { ensureBuilt } from "../../scripts/build.ts";
import { repoRoot } from "../../scripts/pulumiEnv.ts";
import { ConsumerProject } from "../consumer/harness/consumerProject.ts";
import { packedPackage } from "../consumer/harness/packedPackage.ts";
import { LanguageProject } from "../native/harness/languageProject.ts";
import { runFromPrebuiltJar } from "../native/harness/javaJar.ts";
import { installJavaSdk, installPythonSdk } from "../native/harness/sdks.ts";
import { requestCounts, resetRequestCounts } from "../support/sandboxAccess.ts";
import type { CallTiming } from "../../provider/callTimings.ts";
import { summarizeCpuProfile, type CpuProfileSummary } from "./cpuProfile.ts";
import { fitLine, median } from "./statistics.ts";

const SIZES = (process.env["BENCH_SIZES"] ?? "1,10,50,200").split(",").map(Number);
const RUNS = Number(process.env["BENCH_RUNS"] ?? "3");
const CPU_PROFILE = process.env["BENCH_CPU_PROFILE"] === "1";
const OUT_DIR = process.env["BENCH_OUT"] ?? path.join(repoRoot, "bench-results");
const TOKEN = "bench-token";
/**
 * The floor (no-op dynamic resources), the floor carrying a wallet's state size (`padded`: the
 * engine's own cost of those bytes), that and the one service request a wallet's create cannot
 * avoid (`serviced`), PortfolioWallets (the dynamic resources), and the same wallets through the
 * native plugin (`native`, registered by type token, the plugin found on PATH in the project's
 * node_modules/.bin, as for a program in any language).
 */
const TYPESCRIPT_KINDS = ["noop", "padded", "serviced", "wallet", "native"] as const;
/**
 * The same wallets through the same native plugin from a Python program (`python`) and a Java one
 * run by Maven (`java`, what `runtime: java` does) or from a prebuilt jar (`java-jar`,
 * `runtime.options.binary`), each with its generated SDK and the plugin installed from its release
 * archive, as that language's user has them: against `native`, what each language host costs.
 * Only when named in BENCH_KINDS: setting them up takes minutes (a virtual environment, Maven).
 */
const LANGUAGE_KINDS = ["python", "java", "java-jar"] as const;
const ALL_KINDS = [...TYPESCRIPT_KINDS, ...LANGUAGE_KINDS] as const;
const KINDS = (process.env["BENCH_KINDS"] ?? TYPESCRIPT_KINDS.join(",")).split(",").map((kind) => {
  if (!(ALL_KINDS as readonly string[]).includes(kind))
    throw new Error(`BENCH_KINDS: unknown kind ${kind}; use some of ${ALL_KINDS.join(", ")}`);
  return kind as Kind;
});
/**
 * How the engine records progress: `per-step` (its default: the whole checkpoint written after
 * every step) and `skipped` (PULUMI_SKIP_CHECKPOINTS=true: written once, at the end).
 */
const CHECKPOINT_MODES = ["per-step", "skipped"] as const;
type CheckpointMode = (typeof CHECKPOINT_MODES)[number];
const MODES = (process.env["BENCH_CHECKPOINTS"] ?? "per-step").split(",").map((mode) => {
  if (!(CHECKPOINT_MODES as readonly string[]).includes(mode))
    throw new Error(`BENCH_CHECKPOINTS: unknown mode ${mode}; use per-step, skipped or both`);
  return mode as CheckpointMode;
});
/** Characters of padding that make a no-op resource's state as large as a wallet's (inputs and outputs). */
const PADDING = Number(process.env["BENCH_PADDING"] ?? "450");
const OPERATIONS = ["preview", "up", "no-change preview"] as const;
type Kind = (typeof ALL_KINDS)[number];
type Operation = (typeof OPERATIONS)[number];

interface Measurement {
  kind: Kind;
  n: number;
  run: number;
  checkpoints: CheckpointMode;
  /** The machine's 1-minute load average just before, and just after, the measurement. */
  loadBefore: number;
  loadAfter: number;
  seconds: Record<Operation, number>;
  /**
   * CPU seconds (user + system) of the command and every process it started: the engine, the
   * language host, the program, the plugins. Less moved by a busy machine than wall time, which
   * also counts waiting for a core.
   */
  cpuSeconds: Record<Operation, number>;
  requests: Record<Operation, Record<string, number>>;
  /** Per operation: the provider's calls (wallets only; the no-op provider is not instrumented). */
  providerCalls: Record<Operation, CallTiming[]>;
  stateBytesPerResource: number;
  providerBytes: number;
}

/** A project outside the repo the bench runs `pulumi` in, `env` added for one command. */
interface BenchProject {
  pulumi(args: string[], env?: Record<string, string>): Promise<{ stdout: string }>;
  cleanUp(): void;
}

const programs = path.join(repoRoot, "test", "bench", "programs");

/** The TypeScript fleet with the packed package installed (every kind but the other languages'). */
async function typescriptFleet(): Promise<BenchProject> {
  const tarball = await packedPackage();
  console.log(`bench: installing ${path.basename(tarball)} into a project outside the repo`);
  const project = await ConsumerProject.fromTemplate(path.join(programs, "fleet"), "bench-fleet", tarball);
  // The engine finds the native plugin on PATH: the package's bin, where `npm install` put it.
  const pathWithPlugin = {
    PATH: [path.join(project.dir, "node_modules", ".bin"), project.env()["PATH"] ?? ""].join(path.delimiter),
  };
  return {
    pulumi: (args, env = {}) => project.pulumi(args, { ...pathWithPlugin, ...env }),
    cleanUp: () => project.cleanUp(),
  };
}

/** The Python fleet in a virtual environment with the generated SDK, as test/native/python.engine.test.ts has it. */
async function pythonFleet(): Promise<BenchProject> {
  console.log("bench: a Python project with the generated SDK in a virtual environment");
  const project = await LanguageProject.create(path.join(programs, "fleet-python"), "bench-python");
  await installPythonSdk(project);
  return project;
}

/**
 * The Java fleet with the generated SDK installed into the local Maven repository, compiled once.
 * `jar`: also packaged into one jar with its dependencies, which Pulumi.yaml then names as the
 * program's binary, so the Java host runs `java -jar` instead of Maven.
 */
async function javaFleet(jar: boolean): Promise<BenchProject> {
  console.log(`bench: a Java project with the generated SDK${jar ? ", run from its jar" : ", run by Maven"}`);
  const project = await LanguageProject.create(
    path.join(programs, "fleet-java"),
    jar ? "bench-java-jar" : "bench-java",
  );
  await installJavaSdk(project);
  if (jar) await runFromPrebuiltJar(project, "fleet");
  return project;
}

const work = mkdtempSync(path.join(os.tmpdir(), "pw-bench-"));
await ensureBuilt();
const projects = new Map<Kind, BenchProject>();
const typescript = KINDS.some((kind) => (TYPESCRIPT_KINDS as readonly string[]).includes(kind))
  ? await typescriptFleet()
  : undefined;
for (const kind of TYPESCRIPT_KINDS) if (typescript) projects.set(kind, typescript);
if (KINDS.includes("python")) projects.set("python", await pythonFleet());
if (KINDS.includes("java")) projects.set("java", await javaFleet(false));
if (KINDS.includes("java-jar")) projects.set("java-jar", await javaFleet(true));
const sandbox = await startSandbox({ port: 0, dataDir: ":memory:", tokens: { [TOKEN]: "bench-org" } });

const benchAccess = { url: sandbox.url, token: TOKEN };

function readTimings(file: string): CallTiming[] {
  try {
    return readFileSync(file, "utf8")
      .split("\n")
      .filter((line) => line !== "")
      .map((line) => JSON.parse(line) as CallTiming);
  } catch {
    return [];
  }
}

/**
 * CPU seconds (user + system) of this process's children that have ended, and of theirs that they
 * waited for: read before and after a `pulumi` command, the command's whole process tree (the bench
 * runs one command at a time; the sandbox runs in this process, not a child). Linux's /proc, in
 * its fixed 100 ticks per second; NaN elsewhere.
 */
function childrenCpuSeconds(): number {
  try {
    const stat = readFileSync("/proc/self/stat", "utf8");
    // Fields after the command name, which ends at the last ")": state (3rd) first, so cutime
    // (16th) and cstime (17th) are at 13 and 14.
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    return (Number(fields[13]) + Number(fields[14])) / 100;
  } catch {
    return Number.NaN;
  }
}

/** CPU profiles of the profiled `up`: the dynamic-provider process and the program's process. */
let cpuProfiles: Record<string, CpuProfileSummary & { file: string }> = {};

async function measure(
  kind: Kind,
  n: number,
  run: number,
  checkpoints: CheckpointMode,
  profile: boolean,
): Promise<Measurement> {
  const project = projects.get(kind)!;
  const loadBefore = os.loadavg()[0] ?? 0;
  const stack = `${kind}-${n}-${run}-${checkpoints}`;
  await project.pulumi(["stack", "init", stack]);
  await project.pulumi(["config", "set", "bench:count", String(n)]);
  await project.pulumi(["config", "set", "bench:kind", kind]);
  await project.pulumi(["config", "set", "bench:padding", String(PADDING)]);
  await project.pulumi(["config", "set", "portfolio-wallet:baseUrl", sandbox.url]);
  await project.pulumi(["config", "set", "--secret", "portfolio-wallet:apiToken", TOKEN]);
  const seconds = {} as Measurement["seconds"];
  const cpuSeconds = {} as Measurement["cpuSeconds"];
  const requests = {} as Measurement["requests"];
  const providerCalls = {} as Measurement["providerCalls"];
  const commands: Record<Operation, string[]> = {
    preview: ["preview"],
    up: ["up", "--yes", "--skip-preview"],
    "no-change preview": ["preview", "--expect-no-changes"],
  };
  for (const operation of OPERATIONS) {
    const timingsFile = path.join(work, `${stack}-${operation.replaceAll(" ", "-")}.jsonl`);
    const profileDir = path.join(work, `${stack}-cpu-profile`);
    const env: Record<string, string> = {
      PORTFOLIO_WALLET_PROVIDER_TIMINGS: timingsFile,
      BENCH_SERVICE_URL: sandbox.url,
      BENCH_SERVICE_TOKEN: TOKEN,
      ...(checkpoints === "skipped" ? { PULUMI_SKIP_CHECKPOINTS: "true" } : {}),
    };
    if (profile && operation === "up") env["NODE_OPTIONS"] = `--cpu-prof --cpu-prof-dir=${profileDir}`;
    await resetRequestCounts(benchAccess);
    const cpuBefore = childrenCpuSeconds();
    const started = performance.now();
    await project.pulumi(commands[operation], env);
    seconds[operation] = (performance.now() - started) / 1000;
    cpuSeconds[operation] = childrenCpuSeconds() - cpuBefore;
    requests[operation] = await requestCounts(benchAccess);
    providerCalls[operation] = readTimings(timingsFile);
    if (profile && operation === "up") cpuProfiles = profilesOf(profileDir);
  }
  const exported = JSON.parse((await project.pulumi(["stack", "export"])).stdout) as {
    deployment: { resources?: { type: string; inputs?: { __provider?: string } }[] };
  };
  const resources = (exported.deployment.resources ?? []).filter(
    (resource) =>
      resource.type.startsWith("pulumi-nodejs:dynamic/") ||
      resource.type.startsWith("portfolio-wallet:index:"),
  );
  const stateBytesPerResource = Math.round(
    resources.reduce((sum, resource) => sum + JSON.stringify(resource).length, 0) /
      Math.max(1, resources.length),
  );
  const providerBytes = Buffer.byteLength(resources[0]?.inputs?.__provider ?? "", "utf8");
  // Not measured: destroyed without per-step checkpoints, which at 1,000 saves minutes per cell.
  await project.pulumi(["destroy", "--yes", "--skip-preview"], { PULUMI_SKIP_CHECKPOINTS: "true" });
  await project.pulumi(["stack", "rm", "--yes", stack]);
  return {
    kind,
    n,
    run,
    checkpoints,
    loadBefore,
    loadAfter: os.loadavg()[0] ?? 0,
    seconds,
    cpuSeconds,
    requests,
    providerCalls,
    stateBytesPerResource,
    providerBytes,
  };
}

/**
 * The CPU profiles a profiled `up` wrote, by process: the dynamic provider (it runs
 * @pulumi/pulumi's cmd/dynamic-provider) and the program (cmd/run). Kept in bench-results/.
 */
function profilesOf(dir: string): Record<string, CpuProfileSummary & { file: string }> {
  const found: Record<string, CpuProfileSummary & { file: string }> = {};
  let files: string[] = [];
  try {
    files = readdirSync(dir).filter((file) => file.endsWith(".cpuprofile"));
  } catch {
    return found;
  }
  mkdirSync(OUT_DIR, { recursive: true });
  for (const file of files) {
    const text = readFileSync(path.join(dir, file), "utf8");
    const summary = summarizeCpuProfile(text);
    const process = summary.scripts.some((script) => script.includes("cmd/dynamic-provider"))
      ? "dynamic-provider"
      : summary.scripts.some((script) => script.includes("cmd/run"))
        ? "program"
        : undefined;
    if (process === undefined) continue;
    const kept = path.join(OUT_DIR, `${process}.cpuprofile`);
    writeFileSync(kept, text);
    found[process] = { ...summary, file: kept };
  }
  return found;
}

/**
 * The service's own time for what `up` asks of it: n wallet creations sent one after another
 * through the client, the same request the provider's create sends (one POST each). What a
 * provider cannot avoid, whatever the engine.
 */
async function measureServiceCreates(n: number): Promise<{ n: number; medianMs: number; totalMs: number }> {
  const client = new PortfolioWalletClient({ baseUrl: sandbox.url, apiToken: TOKEN });
  const durations: number[] = [];
  try {
    for (let index = 0; index < n; index++) {
      const started = performance.now();
      await client.wallets.create({
        requestId: randomUUID(),
        label: `service floor ${index}`,
        positions: [
          { positionKey: "tbills", targetWeightBps: 6000 },
          { positionKey: "syrupUsdc", targetWeightBps: 4000 },
        ],
      });
      durations.push(performance.now() - started);
    }
  } finally {
    await client.close();
  }
  return {
    n,
    medianMs: Math.round(median(durations) * 10) / 10,
    totalMs: Math.round(durations.reduce((sum, d) => sum + d, 0)),
  };
}

let serviceCreates: { n: number; medianMs: number; totalMs: number } | undefined;
const measurements: Measurement[] = [];
try {
  for (const n of SIZES) {
    for (let run = 1; run <= RUNS; run++) {
      // Alternate the order of the kinds, so none always runs on a warmer machine.
      const order = run % 2 === 1 ? [...KINDS] : [...KINDS].reverse();
      for (const checkpoints of run % 2 === 1 ? MODES : [...MODES].reverse()) {
        for (const kind of order) {
          const profile =
            CPU_PROFILE &&
            kind === "wallet" &&
            n === Math.max(...SIZES) &&
            run === RUNS &&
            checkpoints === MODES[0];
          const measurement = await measure(kind, n, run, checkpoints, profile);
          measurements.push(measurement);
          console.log(
            `bench: ${kind} x ${n}, checkpoints ${checkpoints} (run ${run}/${RUNS}, load ${measurement.loadBefore.toFixed(1)}): ` +
              OPERATIONS.map(
                (operation) =>
                  `${operation} ${measurement.seconds[operation].toFixed(1)} s (CPU ${measurement.cpuSeconds[operation].toFixed(1)} s)`,
              ).join(", "),
          );
        }
      }
    }
  }
  serviceCreates = await measureServiceCreates(Math.max(...SIZES));
} finally {
  await sandbox.close();
  for (const project of new Set(projects.values())) project.cleanUp();
  rmSync(work, { recursive: true, force: true });
}

// ---- Summary -------------------------------------------------------------------------------

/** The first mode asked for is the one the main tables show; the others are compared to it. */
const PRIMARY = MODES[0] ?? "per-step";
const of = (kind: Kind, n: number, mode: CheckpointMode = PRIMARY) =>
  measurements.filter((m) => m.kind === kind && m.n === n && m.checkpoints === mode);
const medianSeconds = (kind: Kind, n: number, operation: Operation, mode: CheckpointMode = PRIMARY) =>
  median(of(kind, n, mode).map((m) => m.seconds[operation]));
const medianCpuSeconds = (kind: Kind, n: number, operation: Operation, mode: CheckpointMode) =>
  median(of(kind, n, mode).map((m) => m.cpuSeconds[operation]));

function requestSummary(counts: Record<string, number>): string {
  const reads = Object.entries(counts).filter(([route]) => route.startsWith("GET "));
  const writes = Object.entries(counts).filter(([route]) => !route.startsWith("GET "));
  const total = (entries: [string, number][]) => entries.reduce((sum, [, count]) => sum + count, 0);
  const detail = Object.entries(counts)
    .map(([route, count]) => `${route} ×${count}`)
    .join(", ");
  return `${total(reads)} reads, ${total(writes)} writes${detail ? ` (${detail})` : ""}`;
}

/**
 * The most calls in flight at one moment: 1 means the engine sent them one after another (it does
 * for check and diff, pulumi/pulumi#3302), whatever the provider could have done in parallel.
 */
function mostAtOnce(calls: CallTiming[]): number {
  const edges = calls.flatMap((call) => [
    { at: call.startedAtMs, change: 1 },
    { at: call.startedAtMs + call.durationMs, change: -1 },
  ]);
  // Ends before starts at the same instant: touching calls do not overlap.
  edges.sort((a, b) => a.at - b.at || a.change - b.change);
  let inFlight = 0;
  let most = 0;
  for (const edge of edges) {
    inFlight += edge.change;
    most = Math.max(most, inFlight);
  }
  return most;
}

function phaseSummary(calls: CallTiming[]) {
  const ready = calls.filter((call) => call.method === "loaded").map((call) => call.startedAtMs);
  const byMethod: Record<
    string,
    { calls: number; medianMs: number; totalMs: number; spanMs: number; mostAtOnce: number }
  > = {};
  for (const method of ["check", "diff", "create", "read", "update", "delete"]) {
    const ofMethod = calls.filter((call) => call.method === method);
    if (ofMethod.length === 0) continue;
    const durations = ofMethod.map((call) => call.durationMs);
    const first = Math.min(...ofMethod.map((call) => call.startedAtMs));
    const last = Math.max(...ofMethod.map((call) => call.startedAtMs + call.durationMs));
    byMethod[method] = {
      calls: durations.length,
      medianMs: Math.round(median(durations) * 10) / 10,
      totalMs: Math.round(durations.reduce((sum, d) => sum + d, 0)),
      spanMs: Math.round(last - first),
      mostAtOnce: mostAtOnce(ofMethod),
    };
  }
  return { implementationReadyMs: ready.length > 0 ? Math.round(Math.min(...ready)) : null, byMethod };
}

const timeRows = SIZES.flatMap((n) =>
  OPERATIONS.map((operation) => {
    const floor = medianSeconds("noop", n, operation);
    const floorWithState = medianSeconds("padded", n, operation);
    const floorWithStateAndService = medianSeconds("serviced", n, operation);
    const wallets = medianSeconds("wallet", n, operation);
    const native = medianSeconds("native", n, operation);
    return {
      n,
      operation,
      floorSeconds: floor,
      floorWithWalletStateSeconds: floorWithState,
      floorWithStateAndServiceSeconds: floorWithStateAndService,
      walletSeconds: wallets,
      ratio: wallets / floor,
      ratioToFloorWithState: wallets / floorWithState,
      ratioToFloorWithStateAndService: wallets / floorWithStateAndService,
      nativeSeconds: native,
      nativeRatio: native / floor,
      nativeRatioToFloorWithStateAndService: native / floorWithStateAndService,
    };
  }),
);
const checkpointRows =
  MODES.length < 2
    ? []
    : SIZES.flatMap((n) =>
        KINDS.flatMap((kind) =>
          OPERATIONS.map((operation) => {
            const perStep = medianSeconds(kind, n, operation, "per-step");
            const skipped = medianSeconds(kind, n, operation, "skipped");
            return {
              n,
              kind,
              operation,
              perStepSeconds: perStep,
              skippedSeconds: skipped,
              ratio: skipped / perStep,
            };
          }),
        ),
      );
/**
 * The native plugin's wallets from each language, per checkpoint mode: the plugin is the same
 * process doing the same work, so a difference from TypeScript's `native` is that language host's.
 */
const LANGUAGES = [
  ["native", "TypeScript"],
  ["python", "Python"],
  ["java", "Java (Maven)"],
  ["java-jar", "Java (jar)"],
] as const satisfies readonly (readonly [Kind, string])[];
const languageRows = !KINDS.some((kind) => (LANGUAGE_KINDS as readonly string[]).includes(kind))
  ? []
  : MODES.flatMap((checkpoints) =>
      SIZES.flatMap((n) =>
        OPERATIONS.map((operation) => ({
          n,
          checkpoints,
          operation,
          seconds: Object.fromEntries(
            LANGUAGES.map(([kind]) => [kind, medianSeconds(kind, n, operation, checkpoints)]),
          ) as Record<(typeof LANGUAGES)[number][0], number>,
          cpuSeconds: Object.fromEntries(
            LANGUAGES.map(([kind]) => [kind, medianCpuSeconds(kind, n, operation, checkpoints)]),
          ) as Record<(typeof LANGUAGES)[number][0], number>,
        })),
      ),
    );
const loads = measurements.map((m) => m.loadBefore);
const growth = (SIZES.length < 2 ? [] : KINDS).flatMap((kind) =>
  OPERATIONS.map((operation) => {
    const { intercept, slope } = fitLine(SIZES.map((n) => [n, medianSeconds(kind, n, operation)]));
    return {
      kind,
      operation,
      fixedSeconds: intercept,
      perResourceSeconds: slope,
      at1000: intercept + slope * 1000,
    };
  }),
);
const largest = Math.max(...SIZES);
const lastWallets = of("wallet", largest).at(-1);
const summary = {
  meta: {
    date: new Date().toISOString(),
    node: process.versions.node,
    cpus: os.cpus().length,
    loadAverage: os.loadavg(),
    sizes: SIZES,
    runs: RUNS,
    kinds: KINDS,
    checkpoints: MODES,
    loadAverageBeforeMeasurements: {
      min: Math.min(...loads),
      median: median(loads),
      max: Math.max(...loads),
    },
    parallelDiff: process.env["PULUMI_PARALLEL_DIFF"] ?? "unset",
  },
  times: timeRows,
  checkpoints: checkpointRows,
  languages: languageRows,
  growth,
  requests: SIZES.map((n) => ({
    n,
    byOperation: Object.fromEntries(
      OPERATIONS.map((operation) => [
        operation,
        requestSummary(of("wallet", n).at(-1)?.requests[operation] ?? {}),
      ]),
    ) as Record<Operation, string>,
  })),
  providerPhases: lastWallets
    ? Object.fromEntries(
        OPERATIONS.map((operation) => [operation, phaseSummary(lastWallets.providerCalls[operation])]),
      )
    : {},
  state: SIZES.map((n) => ({
    n,
    walletBytesPerResource: of("wallet", n).at(-1)?.stateBytesPerResource,
    nativeBytesPerResource: of("native", n).at(-1)?.stateBytesPerResource,
    noopBytesPerResource: of("noop", n).at(-1)?.stateBytesPerResource,
    paddedBytesPerResource: of("padded", n).at(-1)?.stateBytesPerResource,
    providerBytes: of("wallet", n).at(-1)?.providerBytes,
  })),
  serviceCreates,
  cpuProfiles,
  measurements,
};

const s = (seconds: number) => (Number.isNaN(seconds) ? "-" : seconds.toFixed(2));
/** A ratio, or "-" where a kind was not measured. */
const x = (ratio: number) => (Number.isNaN(ratio) ? "-" : `${ratio.toFixed(2)}×`);
const bytes = (value: number | undefined) => (value === undefined ? "-" : String(value));
const load = summary.meta.loadAverageBeforeMeasurements;
/** One table of `languageRows`: each language's figure and its difference from TypeScript's. */
function languageTable(figure: "seconds" | "cpuSeconds"): string[] {
  const others = LANGUAGES.slice(1);
  return [
    `| n | checkpoints | operation | ${LANGUAGES.map(([, name]) => name).join(" | ")} | ` +
      `${others.map(([, name]) => `${name} − TypeScript`).join(" | ")} |`,
    `|---|---|---|${"---|".repeat(LANGUAGES.length + others.length)}`,
    ...languageRows.map(
      (r) =>
        `| ${r.n} | ${r.checkpoints} | ${r.operation} | ${LANGUAGES.map(([kind]) => s(r[figure][kind])).join(" | ")} | ` +
        `${others.map(([kind]) => s(r[figure][kind] - r[figure].native)).join(" | ")} |`,
    ),
  ];
}
const lines = [
  `# Benchmark results (${summary.meta.date})`,
  "",
  `Node ${summary.meta.node}, ${summary.meta.cpus} CPUs, load average ${summary.meta.loadAverage.map((l) => l.toFixed(2)).join(" ")}; ` +
    `median of ${RUNS} runs per cell, wallets and no-op resources alternated; PULUMI_PARALLEL_DIFF=${summary.meta.parallelDiff}. ` +
    `1-minute load average before each measurement: min ${load.min.toFixed(1)}, median ${load.median.toFixed(1)}, max ${load.max.toFixed(1)}. ` +
    `Checkpoints: ${PRIMARY} in the main tables${MODES.length > 1 ? ", both ways below" : ""}.`,
  "",
  "## Wall time (s): PortfolioWallets against the engine's floor",
  "",
  "Floor: no-op dynamic resources. + state: the same no-op resources carrying as many bytes of",
  "state as a wallet (what the engine itself spends on those bytes). + service: that, and a create",
  "that sends the service the same wallet creation a PortfolioWallet sends (what any provider of",
  "this service must spend). The last ratio is the provider's own cost.",
  "",
  "| n | operation | floor | + state | + service | wallets | wallets / floor | wallets / + state | wallets / + service | native plugin | native / floor | native / + service |",
  "|---|---|---|---|---|---|---|---|---|---|---|---|",
  ...timeRows.map(
    (r) =>
      `| ${r.n} | ${r.operation} | ${s(r.floorSeconds)} | ${s(r.floorWithWalletStateSeconds)} | ` +
      `${s(r.floorWithStateAndServiceSeconds)} | ${s(r.walletSeconds)} | ${x(r.ratio)} | ` +
      `${x(r.ratioToFloorWithState)} | ${x(r.ratioToFloorWithStateAndService)} | ` +
      `${s(r.nativeSeconds)} | ${x(r.nativeRatio)} | ${x(r.nativeRatioToFloorWithStateAndService)} |`,
  ),
  ...(checkpointRows.length === 0
    ? []
    : [
        "",
        "## Checkpoints: after every step, or skipped (PULUMI_SKIP_CHECKPOINTS=true)",
        "",
        "| n | kind | operation | per step s | skipped s | skipped / per step |",
        "|---|---|---|---|---|---|",
        ...checkpointRows.map(
          (r) =>
            `| ${r.n} | ${r.kind} | ${r.operation} | ${s(r.perStepSeconds)} | ${s(r.skippedSeconds)} | ${x(r.ratio)} |`,
        ),
      ]),
  ...(languageRows.length === 0
    ? []
    : [
        "",
        "## Languages: the same wallets through the native plugin from each language's program",
        "",
        "Each language's figure, and its difference from TypeScript's: that language host's own cost.",
        "",
        "Wall time, seconds:",
        "",
        ...languageTable("seconds"),
        "",
        "CPU, seconds (user + system, of the command and every process it started; less moved by a busy machine):",
        "",
        ...languageTable("cpuSeconds"),
      ]),
  "",
  "## How cost grows (least squares over the medians)",
  "",
  "| kind | operation | fixed s | s per resource | 1,000 resources, extrapolated s |",
  "|---|---|---|---|---|",
  ...growth.map(
    (g) =>
      `| ${g.kind} | ${g.operation} | ${s(g.fixedSeconds)} | ${g.perResourceSeconds.toFixed(4)} | ${s(g.at1000)} |`,
  ),
  "",
  "## Service requests per operation (wallets)",
  "",
  "| n | preview | up | no-change preview |",
  "|---|---|---|---|",
  ...summary.requests.map(
    (r) =>
      `| ${r.n} | ${r.byOperation["preview"]} | ${r.byOperation["up"]} | ${r.byOperation["no-change preview"]} |`,
  ),
  "",
  `## Provider phases (wallets, n = ${largest}, last run)`,
  "",
  "Per method: calls, median ms, total ms, ms from the first call's start to the last one's end,",
  "and the most calls in flight at once (1: the engine sent them one at a time).",
  "",
  "| operation | implementation ready after (ms from process start) | calls: count, median ms, total ms, span ms, most at once |",
  "|---|---|---|",
  ...Object.entries(summary.providerPhases).map(
    ([operation, phases]) =>
      `| ${operation} | ${phases.implementationReadyMs ?? "-"} | ${
        Object.entries(phases.byMethod)
          .map(
            ([method, t]) =>
              `${method}: ${t.calls}, ${t.medianMs}, ${t.totalMs}, ${t.spanMs}, ${t.mostAtOnce}`,
          )
          .join("; ") || "-"
      } |`,
  ),
  ...(serviceCreates
    ? [
        "",
        `## The service's own time (n = ${serviceCreates.n})`,
        "",
        `${serviceCreates.n} wallet creations sent one after another through the client, the request the provider's create sends: ` +
          `median ${serviceCreates.medianMs} ms, total ${serviceCreates.totalMs} ms.`,
      ]
    : []),
  "",
  "## State",
  "",
  "| n | bytes per wallet | bytes per native wallet | bytes per no-op resource | bytes per padded no-op | wallet `__provider` bytes (in inputs and outputs) |",
  "|---|---|---|---|---|---|",
  ...summary.state.map(
    (r) =>
      `| ${r.n} | ${bytes(r.walletBytesPerResource)} | ${bytes(r.nativeBytesPerResource)} | ${bytes(r.noopBytesPerResource)} | ` +
      `${bytes(r.paddedBytesPerResource)} | ${bytes(r.providerBytes)} |`,
  ),
  ...Object.entries(cpuProfiles).flatMap(([process, profile]) => [
    "",
    `## CPU profile of the ${process} process (up, n = ${largest})`,
    "",
    `${profile.file}: ${Math.round(profile.totalMs)} ms sampled. Self time by script:`,
    "",
    "| script | self ms |",
    "|---|---|",
    ...profile.byScript.slice(0, 15).map((entry) => `| ${entry.script} | ${Math.round(entry.selfMs)} |`),
  ]),
];
mkdirSync(OUT_DIR, { recursive: true });
const stamp = summary.meta.date.replaceAll(":", "-");
writeFileSync(path.join(OUT_DIR, `bench-${stamp}.json`), `${JSON.stringify(summary, null, 2)}\n`);
writeFileSync(path.join(OUT_DIR, `bench-${stamp}.md`), `${lines.join("\n")}\n`);
writeFileSync(path.join(OUT_DIR, "latest.md"), `${lines.join("\n")}\n`);
console.log(`\n${lines.join("\n")}\n\nbench: results in ${OUT_DIR}`);
