import { appendFileSync, mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import {
  LocalWorkspace,
  type ConfigMap,
  type EngineEvent,
  type Stack,
} from "@pulumi/pulumi/automation/index.js";
import { pulumiCommand, pulumiEnv, repoRoot } from "../../../scripts/pulumiEnv.ts";

/** The fixture programs. They live inside the repo so that `@portfolio-wallet/pulumi` resolves to it. */
export const PROGRAMS = {
  wallet: { dir: path.join(repoRoot, "test/e2e/programs/wallet"), project: "portfolio-wallet-e2e-wallet" },
  strategy: {
    dir: path.join(repoRoot, "test/e2e/programs/strategy"),
    project: "portfolio-wallet-e2e-strategy",
  },
} as const;
export type ProgramName = keyof typeof PROGRAMS;

/**
 * Engine log verbosity of every operation (`-v`, with `--logflow --logtostderr`). 8 shows every
 * provider call. 9 is not used: at 9 this engine (v3.259.0) prints the decrypted value of every
 * secret config entry it marshals to a provider, which defeats the secrets check of the test.
 */
export const ENGINE_LOG_VERBOSITY = 8;

/** What every operation is given: output capture and engine logging. Spread it into the options. */
export interface OperationIo {
  onOutput: (text: string) => void;
  onError: (text: string) => void;
  onEvent: (event: EngineEvent) => void;
  logVerbosity: number;
  logFlow: boolean;
  logToStdErr: boolean;
}

export interface CapturedOperation<T> {
  result: T;
  stdout: string;
  /** The engine's stderr without its structured log lines: what a user reads. */
  stderr: string;
  events: EngineEvent[];
  seconds: number;
}

export interface FailedOperation {
  error: unknown;
  /** Everything the engine printed for a user (stdout, and stderr without the structured log lines). */
  text: string;
  stdout: string;
  events: EngineEvent[];
}

export interface Timing {
  step: string;
  operation: string;
  stack: string;
  seconds: number;
  ok: boolean;
}

/**
 * One end-to-end run: a temp dir holding the file backend (`state/`, also PULUMI_HOME), the engine
 * log (`engine.log`: stdout and stderr of every operation) and its engine events
 * (`engine-events.jsonl`), the offline engine environment, and the wall time of every operation.
 */
export class EngineRun {
  readonly timings: Timing[] = [];
  readonly stateDir: string;
  readonly logFile: string;
  readonly eventsFile: string;
  readonly envVars: Record<string, string>;
  /** Short random suffix for stack names, so that concurrent runs never share a stack config file. */
  readonly runId: string;
  private readonly stackConfigFiles = new Set<string>();

  readonly runDir: string;

  private constructor(runDir: string) {
    this.runDir = runDir;
    this.stateDir = path.join(runDir, "state");
    this.logFile = path.join(runDir, "engine.log");
    this.eventsFile = path.join(runDir, "engine-events.jsonl");
    this.envVars = pulumiEnv({ stateDir: this.stateDir });
    this.runId = path
      .basename(runDir)
      .slice(-6)
      .toLowerCase()
      .replace(/[^a-z0-9]/g, "x");
  }

  static start(): EngineRun {
    return new EngineRun(mkdtempSync(path.join(os.tmpdir(), "portfolio-wallet-e2e-")));
  }

  /** Creates (or selects) a stack of a fixture program in this run's backend and sets its config. */
  async stack(program: ProgramName, stackName: string, config: ConfigMap): Promise<Stack> {
    const { dir } = PROGRAMS[program];
    const stack = await LocalWorkspace.createOrSelectStack(
      { stackName, workDir: dir },
      { pulumiCommand: await pulumiCommand(), envVars: this.envVars },
    );
    this.stackConfigFiles.add(path.join(dir, `Pulumi.${stackName}.yaml`));
    await stack.setAllConfig(config);
    return stack;
  }

  /** `organization/<project>/<stack>`: how a StackReference names a stack of the file backend. */
  qualifiedStackName(program: ProgramName, stackName: string): string {
    return `organization/${PROGRAMS[program].project}/${stackName}`;
  }

  /** Stack config files this run wrote beside the fixture programs. */
  configFiles(): string[] {
    return [...this.stackConfigFiles];
  }

  /** Appends a titled section to the engine log and returns a writer for it. */
  logSection(title: string): (text: string) => void {
    appendFileSync(this.logFile, `\n===== ${new Date().toISOString()} ${title} =====\n`);
    return (text) => appendFileSync(this.logFile, text);
  }

  record(timing: Timing): void {
    this.timings.push(timing);
    console.log(
      `[e2e] ${timing.step} · ${timing.operation} (${timing.stack}): ${timing.seconds.toFixed(1)} s${timing.ok ? "" : " (failed)"}`,
    );
  }

  /**
   * Runs one engine operation with output captured into the engine log and timed. A failure is
   * never swallowed: the engine's output is printed, then the error is thrown on.
   */
  async run<T>(
    step: string,
    operation: string,
    stack: Stack,
    action: (io: OperationIo) => Promise<T>,
  ): Promise<CapturedOperation<T>> {
    const capture = this.capture(step, operation, stack);
    try {
      const result = await action(capture.io);
      return { result, ...capture.finish(true) };
    } catch (error) {
      const { stdout, stderr, engineLog } = capture.finish(false);
      console.error(
        `[e2e] ${step} · ${operation} (${stack.name}) failed: ${errorText(error).slice(0, 2_000)}\n` +
          `----- engine stdout -----\n${stdout}\n----- engine stderr -----\n${stderr}\n` +
          `----- engine log, last 20000 characters (all of it in ${this.logFile}) -----\n${engineLog.slice(-20_000)}`,
      );
      throw error;
    }
  }

  /** Runs an operation that must fail, and returns what the user would read. Throws if it succeeds. */
  async runExpectingFailure(
    step: string,
    operation: string,
    stack: Stack,
    action: (io: OperationIo) => Promise<unknown>,
  ): Promise<FailedOperation> {
    const capture = this.capture(step, operation, stack);
    try {
      await action(capture.io);
    } catch (error) {
      const { stdout, stderr, events } = capture.finish(true, "failed as expected");
      return { error, text: `${stdout}\n${stderr}`, stdout, events };
    }
    const { stdout } = capture.finish(false, "succeeded but was expected to fail");
    throw new Error(`${step} · ${operation} (${stack.name}) was expected to fail, but succeeded:\n${stdout}`);
  }

  /** Deletes the run dir and the stack config files beside the programs. */
  cleanUp({ keepRunDir }: { keepRunDir: boolean }): void {
    for (const file of this.stackConfigFiles) rmSync(file, { force: true });
    if (keepRunDir) console.log(`[e2e] kept the backend and engine log for inspection: ${this.runDir}`);
    else rmSync(this.runDir, { recursive: true, force: true });
  }

  private capture(step: string, operation: string, stack: Stack) {
    const write = this.logSection(`${step} · pulumi ${operation} --stack ${stack.name}`);
    let stdout = "";
    let stderr = "";
    let engineLog = "";
    let partialLine = "";
    const sortStderrLine = (line: string) => {
      if (line.startsWith(STRUCTURED_LOG_LINE)) engineLog += line;
      else stderr += line;
    };
    const events: EngineEvent[] = [];
    const started = performance.now();
    const io: OperationIo = {
      onOutput: (text) => {
        stdout += text;
        write(text);
      },
      onError: (text) => {
        // Chunks do not end at line ends: keep the unfinished line for the next one.
        const lines = (partialLine + text).split(/(?<=\n)/);
        partialLine = lines.at(-1)?.endsWith("\n") ? "" : (lines.pop() ?? "");
        for (const line of lines) sortStderrLine(line);
        write(text);
      },
      onEvent: (event) => {
        events.push(event);
        appendFileSync(this.eventsFile, `${JSON.stringify({ step, operation, stack: stack.name, event })}\n`);
      },
      logVerbosity: ENGINE_LOG_VERBOSITY,
      logFlow: true,
      logToStdErr: true,
    };
    const finish = (ok: boolean, note?: string) => {
      sortStderrLine(partialLine);
      partialLine = "";
      const seconds = (performance.now() - started) / 1000;
      this.record({
        step,
        operation: note ? `${operation}, ${note}` : operation,
        stack: stack.name,
        seconds,
        ok,
      });
      return { stdout, stderr, engineLog, events, seconds };
    };
    return { io, finish };
  }
}

/** The lines of engine output that report errors: what the tests print for the record. */
export function errorLines(text: string): string {
  return (
    text
      .split("\n")
      // Not the plugins' own info logs (glog "I1121 18:46:48.741402 ..."), which --logflow adds.
      .filter((line) => /error/i.test(line) && !/\bI\d{4} \d\d:\d\d:\d\d/.test(line))
      .join("\n")
  );
}

/** How the engine's structured log lines (`--logtostderr`) start; everything else on stderr is for the user. */
const STRUCTURED_LOG_LINE = '{"time":';

function errorText(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
