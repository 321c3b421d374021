// The one place that says how this project runs Pulumi offline: which engine binaries, which state
// backend, which passphrase, and what must never be fetched. Used by the Automation API (tests, examples)
// through `pulumiEnv()` / `pulumiCommand()`, and by shells through scripts/pulumi-env.sh, which evaluates
// `node scripts/pulumiEnv.ts --shell`.
//
// The engine itself (the pulumi CLI, the Node.js, Python and YAML language hosts, the dynamic-provider
// plugin) is provided by scripts/ensure-pulumi-engine.sh (`npm run engine`); see docs/offline-pulumi-engine.md.
import { spawnSync } from "node:child_process";
import { accessSync, constants, mkdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import type { PulumiCommand } from "@pulumi/pulumi/automation/index.js";

export const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");

/** Passphrase of the secrets provider of every local (file-backend) stack. Not a secret: local state only. */
export const LOCAL_STACK_PASSPHRASE = "portfolio-wallet-local-stacks-only";

/** Default state directory: the project's gitignored `.pulumi-state/`. */
export const defaultStateDir = path.join(repoRoot, ".pulumi-state");

const ensureScript = path.join(repoRoot, "scripts", "ensure-pulumi-engine.sh");
const binDirPointer = path.join(repoRoot, "node_modules", ".cache", "pulumi-engine", "bin-dir");

/**
 * Every executable of a complete engine, from scripts/engine-executables.txt: the one list, which
 * scripts/ensure-pulumi-engine.sh reads too (a shell script cannot import this module).
 */
export const ENGINE_EXECUTABLES: readonly string[] = readFileSync(
  path.join(repoRoot, "scripts", "engine-executables.txt"),
  "utf8",
)
  .split("\n")
  .map((line) => line.trim())
  .filter((line) => line !== "" && !line.startsWith("#"));

/**
 * What a Node.js program needs of the engine and nothing more: the CLI, the Node.js host and the
 * dynamic-provider plugin. The quickstart asks for just these, so that a fresh machine does not
 * build the Python, YAML, Go and Java hosts (minutes on two cores) before its first `pulumi up`.
 */
export const NODEJS_ENGINE_EXECUTABLES = [
  "pulumi",
  "pulumi-language-nodejs",
  "pulumi-resource-pulumi-nodejs",
] as const;

function hasPieces(dir: string, pieces: readonly string[]): boolean {
  try {
    for (const exe of pieces) accessSync(path.join(dir, exe), constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

/**
 * The unit tests (`npm run test:unit`, vitest.config.ts's project "unit") run with
 * PORTFOLIO_WALLET_TEST_TIER=unit: there, reaching for the engine, the Python SDK's environment or
 * a browser is a test file in the wrong tier, and this says so instead of making the quick loop slow.
 */
export function refuseInUnitTests(what: string): void {
  if (process.env["PORTFOLIO_WALLET_TEST_TIER"] === "unit") {
    throw new Error(
      `${what} is not available to the unit tests (npm run test:unit): a test file that needs it belongs in the heavy tier: name it <name>.engine.test.ts (see docs/testing.md)`,
    );
  }
}

let cachedBinDir: string | undefined;
/** The pieces known to be in cachedBinDir. */
const cachedPieces = new Set<string>();

/**
 * Absolute path of the directory holding `pulumi`, its language hosts and the plugin launchers:
 * every piece of ENGINE_EXECUTABLES, or only `pieces` (NODEJS_ENGINE_EXECUTABLES, say), which is all
 * a missing engine then gets built with. Order: $PULUMI_ENGINE_BIN_DIR, the path recorded by the last
 * `npm run engine`, else runs scripts/ensure-pulumi-engine.sh (instant when the engine is cached; a cold
 * build takes minutes, so CI and developers run `npm run engine` first).
 */
export function engineBinDir(pieces: readonly string[] = ENGINE_EXECUTABLES): string {
  refuseInUnitTests("The Pulumi engine");
  if (cachedBinDir && pieces.every((piece) => cachedPieces.has(piece))) return cachedBinDir;
  const found = (dir: string): string => {
    for (const piece of pieces) cachedPieces.add(piece);
    return (cachedBinDir = dir);
  };
  const candidates = [process.env.PULUMI_ENGINE_BIN_DIR];
  try {
    candidates.push(readFileSync(binDirPointer, "utf8").trim());
  } catch {
    // not recorded yet
  }
  for (const dir of candidates) {
    if (dir && hasPieces(dir, pieces)) return found(dir);
  }
  const everything = ENGINE_EXECUTABLES.every((piece) => pieces.includes(piece));
  const result = spawnSync("bash", [ensureScript, ...(everything ? [] : ["--only", pieces.join(",")])], {
    encoding: "utf8",
    stdio: ["ignore", "pipe", "inherit"],
  });
  const dir = result.stdout?.trim().split("\n").pop() ?? "";
  if (result.status !== 0 || !hasPieces(dir, pieces)) {
    throw new Error(`No Pulumi engine: scripts/ensure-pulumi-engine.sh exited with ${result.status}`);
  }
  cachedPieces.clear();
  return found(dir);
}

/**
 * The settings every Pulumi command run here takes, whoever builds the rest of its environment
 * (pulumiEnv below, a consumer or language project of the tests): a file backend in `stateDir`,
 * PULUMI_HOME in `stateDir/home`, the fixed local passphrase, no update checks, no plugin
 * downloads.
 *
 * PULUMI_HOME is always set: without it the CLI keeps its login (credentials.json, the current
 * backend), its workspaces, plugins and logs in `~/.pulumi` of the account, which it finds from the
 * account database, not from $HOME, so a command run with another HOME still changes the
 * account's own login. The plugins installed in a home stay in that home: each project installs the
 * plugin it serves from its release archive (the engine's own plugins are on PATH, not in a home),
 * so nothing is shared between homes by accident.
 */
export function offlinePulumiSettings(stateDir: string): Record<string, string> {
  const resolved = path.resolve(stateDir);
  const home = path.join(resolved, "home");
  mkdirSync(home, { recursive: true });
  return {
    PULUMI_HOME: home,
    PULUMI_BACKEND_URL: pathToFileURL(resolved).href,
    PULUMI_CONFIG_PASSPHRASE: LOCAL_STACK_PASSPHRASE,
    PULUMI_SKIP_UPDATE_CHECK: "true",
    PULUMI_AUTOMATION_API_SKIP_VERSION_CHECK: "true",
    PULUMI_DISABLE_AUTOMATIC_PLUGIN_ACQUISITION: "true",
    PULUMI_DIY_BACKEND_NO_LEGACY_WARNING: "true",
  };
}

export interface PulumiEnvOptions {
  /** Directory of the file backend; default `<repo>/.pulumi-state`. Tests may pass a temp dir. */
  stateDir?: string;
  /** The pieces of the engine the command needs (engineBinDir); default all of them. */
  enginePieces?: readonly string[];
}

/**
 * Environment for running the Pulumi CLI offline: offlinePulumiSettings (local file backend,
 * PULUMI_HOME inside the state dir, ...), the engine's bin dir first on PATH and then
 * node_modules/.bin (so the language host and the dynamic provider find Node 24, not the machine's).
 */
export function pulumiEnv(options: PulumiEnvOptions = {}): Record<string, string> {
  const settings = offlinePulumiSettings(options.stateDir ?? defaultStateDir);
  const pathParts = [engineBinDir(options.enginePieces), path.join(repoRoot, "node_modules", ".bin")];
  if (process.env.PATH) pathParts.push(process.env.PATH);
  return { PATH: pathParts.join(path.delimiter), ...settings };
}

/** The Automation API's handle on the offline engine: `LocalWorkspace.create({ pulumiCommand, envVars })`. */
export async function pulumiCommand(
  enginePieces: readonly string[] = ENGINE_EXECUTABLES,
): Promise<PulumiCommand> {
  const { PulumiCommand } = await import("@pulumi/pulumi/automation/index.js");
  return PulumiCommand.get({ root: path.dirname(engineBinDir(enginePieces)), skipVersionCheck: true });
}

function shellQuote(value: string): string {
  return `'${value.replaceAll("'", `'\\''`)}'`;
}

// `node scripts/pulumiEnv.ts --shell` prints `export NAME='value'` lines for scripts/pulumi-env.sh.
if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  if (process.argv[2] !== "--shell") {
    console.error("usage: node scripts/pulumiEnv.ts --shell");
    process.exit(2);
  }
  for (const [name, value] of Object.entries(pulumiEnv())) console.log(`export ${name}=${shellQuote(value)}`);
}
