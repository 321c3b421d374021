import { spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import path from "node:path";
import type { Command } from "commander";
import type { PortfolioWalletClient } from "../sdk/nodejs/client/index.ts";
import { withClient } from "../sdk/nodejs/client/serviceClient.ts";
import type { SETTINGS } from "../sdk/nodejs/stackSettings.ts";
import {
  CONFIG_NAMESPACE,
  firstOf,
  fromEnvironment,
  fromStackConfig,
  resolveApproverSettings,
  resolveConnectionSettings,
  SettingsError,
  type ApproverSettings,
  type ConfigSource,
  type SettingLookup,
} from "../sdk/nodejs/stackSettings.ts";

/**
 * Where the command-line tool finds its settings, in order: flags, then the environment
 * (PORTFOLIO_WALLET_*, TURNKEY_*), then the stack config of the Pulumi project in the working
 * directory (`portfolio-wallet:*`, read with `pulumi config` only when something is still missing).
 * The rules of each setting are the provider's (sdk/nodejs/stackSettings.ts).
 */

/** The options every service command takes (declared once, on the root command). */
export interface GlobalOptions {
  baseUrl?: string;
  apiToken?: string;
  stack?: string;
  json?: boolean;
}

export function globalOptionsOf(command: Command): GlobalOptions {
  return command.optsWithGlobals<GlobalOptions>();
}

/**
 * The stack's config through the Pulumi CLI (`pulumi config --json --show-secrets`), or nothing
 * when there is no Pulumi project here or no CLI. Values stay in this process; none is printed.
 */
function stackConfig(stack: string | undefined, cwd = process.cwd()): ConfigSource | undefined {
  if (!existsSync(path.join(cwd, "Pulumi.yaml")) && !existsSync(path.join(cwd, "Pulumi.yml"))) {
    if (stack !== undefined) {
      throw new Error(
        `--stack ${stack}: there is no Pulumi project (Pulumi.yaml) in ${cwd}; run the command there`,
      );
    }
    return undefined;
  }
  const result = spawnSync(
    "pulumi",
    ["config", "--json", "--show-secrets", "--non-interactive", ...(stack ? ["--stack", stack] : [])],
    { cwd, encoding: "utf8", stdio: ["ignore", "pipe", "pipe"] },
  );
  if (result.error !== undefined || result.status !== 0) {
    if (stack !== undefined) {
      throw new Error(
        `could not read the config of stack ${stack} with the Pulumi CLI: ${(result.stderr || String(result.error)).trim()}`,
      );
    }
    return undefined;
  }
  const config = JSON.parse(result.stdout) as Record<string, { value?: unknown }>;
  return {
    get: (key) => {
      const value = config[key]?.value;
      return typeof value === "string" ? value : undefined;
    },
  };
}

function fromFlags(options: GlobalOptions): SettingLookup {
  const values: Partial<Record<keyof typeof SETTINGS, string | undefined>> = {
    baseUrl: options.baseUrl,
    apiToken: options.apiToken,
  };
  return (name) => values[name] || undefined;
}

/** The stack config, read at most once and only when flags and environment leave a setting unset. */
function lazily(stack: string | undefined, projectDir: string | undefined): SettingLookup {
  let source: ConfigSource | undefined | null = null;
  return (name) => {
    if (source === null) source = stackConfig(stack, projectDir);
    return fromStackConfig(source)(name);
  };
}

/**
 * The stack config of the project in `projectDir` (default: the working directory), read at most
 * once and only when asked: for the command-line tool's own settings (keys the provider never
 * reads), after its flags.
 */
export function cliStackConfig(
  options: GlobalOptions,
  projectDir?: string,
): (key: string) => string | undefined {
  let source: ConfigSource | undefined | null = null;
  return (key) => {
    if (source === null) source = stackConfig(options.stack, projectDir);
    return source?.get(key);
  };
}

/** A settings error as the command-line tool says it: its problems, then where the tool looks. */
function withCliSources(error: unknown, whereTheToolLooks: string): unknown {
  if (!SettingsError.isInstance(error)) return error;
  const problems = error.problems.map((problem) => problem.message).join("; ");
  return new Error(`${problems}. ${whereTheToolLooks}`, { cause: error });
}

/**
 * The service's URL and token (checked), from flags, environment and the stack config of the
 * project in `projectDir` (default: the working directory).
 */
export function resolveCliSettings(
  options: GlobalOptions,
  env: NodeJS.ProcessEnv = process.env,
  projectDir?: string,
): { baseUrl: string; apiToken: string } {
  try {
    return resolveConnectionSettings(
      firstOf(fromFlags(options), fromEnvironment(env), lazily(options.stack, projectDir)),
    );
  } catch (error) {
    throw withCliSources(
      error,
      `The command-line tool reads --base-url and --api-token, then the environment, then the stack config (${CONFIG_NAMESPACE}:*).`,
    );
  }
}

/** The Turnkey approver's settings, from the environment, then stack config (no service needed). */
export function resolveCliApprover(
  options: GlobalOptions,
  env: NodeJS.ProcessEnv = process.env,
): ApproverSettings {
  try {
    return resolveApproverSettings(firstOf(fromEnvironment(env), lazily(options.stack, undefined)));
  } catch (error) {
    throw withCliSources(
      error,
      `The command-line tool reads the TURNKEY_* environment variables, then the stack config (${CONFIG_NAMESPACE}:turnkey*).`,
    );
  }
}

/**
 * Runs `work` with a client of the service the flags, environment or stack config name, and closes
 * it after. A person runs the command and sees its error at once: the interactive retry policy.
 */
export async function withServiceClient<T>(
  options: GlobalOptions,
  work: (client: PortfolioWalletClient) => Promise<T>,
  projectDir?: string,
): Promise<T> {
  const settings = resolveCliSettings(options, process.env, projectDir);
  return withClient(settings, { kind: "interactive" }, work);
}
