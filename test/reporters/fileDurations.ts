import { mkdirSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import type { Reporter, TestModule, Vitest } from "vitest/node";

/**
 * Writes where a run's time went, one entry per test file, slowest first, to
 * test-artifacts/file-durations.json (a path tools and docs/testing.md can name). Wall-clock time
 * on a shared machine says little without the load it ran under, so the 1-minute load average is
 * sampled through the run and recorded beside the durations.
 */
export const FILE_DURATIONS_PATH = path.join("test-artifacts", "file-durations.json");

/** How often the load average is sampled. */
const LOAD_SAMPLE_MS = 15_000;

export interface FileDuration {
  /** The file, relative to the repository root. */
  file: string;
  /** The vitest project that ran it (`unit` or `heavy`). */
  project: string;
  /**
   * Import of the file and its suites' callbacks plus every test and hook in it, in seconds, less
   * the time a heavy file waited for a CPU slot before its first hook (test/support/heavyCpuSlot.ts).
   */
  seconds: number;
  /** Seconds the file waited for a CPU slot, when it did. */
  cpuSlotWaitSeconds?: number;
  /**
   * CPU seconds the file's worker and the processes it waited for used (test/reporters/fileCpu.ts):
   * what the file costs, whatever else shared the machine. Absent without /proc.
   */
  cpuSeconds?: number;
  tests: number;
  state: string;
}

export default class FileDurationsReporter implements Reporter {
  #root = process.cwd();
  #startedAt = Date.now();
  #loadSamples: number[] = [];
  #sampler: NodeJS.Timeout | undefined;

  onInit(vitest: Vitest): void {
    this.#root = vitest.config.root;
  }

  onTestRunStart(): void {
    this.#startedAt = Date.now();
    this.#loadSamples = [os.loadavg()[0]!];
    this.#sampler = setInterval(() => this.#loadSamples.push(os.loadavg()[0]!), LOAD_SAMPLE_MS);
    this.#sampler.unref();
  }

  onTestRunEnd(testModules: ReadonlyArray<TestModule>): void {
    clearInterval(this.#sampler);
    this.#loadSamples.push(os.loadavg()[0]!);
    const files: FileDuration[] = testModules
      .map((testModule) => {
        const diagnostic = testModule.diagnostic();
        return {
          file: path.relative(this.#root, testModule.moduleId),
          project: testModule.project.name,
          seconds: round(
            (diagnostic.collectDuration + diagnostic.duration) / 1000 -
              (testModule.meta().cpuSlotWaitSeconds ?? 0),
          ),
          ...slotWaitOf(testModule),
          cpuSeconds: cpuSecondsOf(testModule),
          tests: [...testModule.children.allTests()].length,
          state: testModule.state(),
        };
      })
      .sort((a, b) => b.seconds - a.seconds);
    const samples = this.#loadSamples;
    const report = {
      startedAt: new Date(this.#startedAt).toISOString(),
      wallSeconds: round((Date.now() - this.#startedAt) / 1000),
      cpus: os.availableParallelism(),
      cpuSeconds: round(files.reduce((sum, file) => sum + (file.cpuSeconds ?? 0), 0)),
      // Above the number of CPUs, other work shared the machine and every duration is inflated.
      loadAverage1m: {
        min: round(Math.min(...samples)),
        mean: round(samples.reduce((sum, value) => sum + value, 0) / samples.length),
        max: round(Math.max(...samples)),
      },
      files,
    };
    const out = path.join(this.#root, FILE_DURATIONS_PATH);
    mkdirSync(path.dirname(out), { recursive: true });
    writeFileSync(out, `${JSON.stringify(report, null, 2)}\n`);
  }
}

function cpuSecondsOf(testModule: TestModule): number | undefined {
  const seconds = testModule.meta().cpuSeconds;
  return seconds === undefined ? undefined : round(seconds);
}

function slotWaitOf(testModule: TestModule): { cpuSlotWaitSeconds?: number } {
  const seconds = testModule.meta().cpuSlotWaitSeconds;
  return seconds === undefined || seconds < 0.1 ? {} : { cpuSlotWaitSeconds: round(seconds) };
}

function round(value: number): number {
  return Math.round(value * 10) / 10;
}
