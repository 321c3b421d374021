import {
  CONFIG_NAMESPACE,
  firstOf,
  fromEnvironment,
  fromStackConfig,
  resolveSettings,
  SettingsError,
  type ConfigSource,
} from "../../sdk/stackSettings.ts";
import type { CheckFailure } from "../check.ts";
import { unwrapSecrets } from "./propertyValues.ts";

/**
 * The provider configuration as the engine hands it to a native provider: the stack's
 * `portfolio-wallet:*` config (or an explicit provider's arguments) as properties named without the
 * namespace, secrets wrapped, and the same again as `variables` keyed `portfolio-wallet:<name>`.
 * Read through the settings' one table and rules (sdk/stackSettings.ts), with the same
 * environment fallbacks as the dynamic provider.
 */

const text = (value: unknown): string | undefined =>
  value === undefined || value === null
    ? undefined
    : typeof value === "string"
      ? value
      : JSON.stringify(value);

export function configFromEngine(
  args: Record<string, unknown>,
  variables: Record<string, string> = {},
): ConfigSource {
  const plain = unwrapSecrets(args).value as Record<string, unknown>;
  const prefix = `${CONFIG_NAMESPACE}:`;
  return {
    get: (key) => {
      const name = key.startsWith(prefix) ? key.slice(prefix.length) : key;
      return text(plain[name]) ?? variables[key];
    },
  };
}

/** Every problem of a configuration (with the environment's fallbacks), as check failures naming the setting. */
export function configProblems(
  config: Record<string, unknown>,
  env: NodeJS.ProcessEnv = process.env,
): CheckFailure[] {
  try {
    resolveSettings(firstOf(fromStackConfig(configFromEngine(config)), fromEnvironment(env)));
    return [];
  } catch (error) {
    if (!SettingsError.isInstance(error)) throw error;
    return error.problems.map((problem) => ({ property: problem.setting, reason: problem.message }));
  }
}

/** Whether two configurations are the same, secrets compared by value. */
export function sameConfig(olds: Record<string, unknown>, news: Record<string, unknown>): boolean {
  const canonical = (config: Record<string, unknown>) => {
    const plain = unwrapSecrets(config).value as Record<string, unknown>;
    return JSON.stringify(
      Object.keys(plain)
        .sort()
        .map((key) => [key, plain[key]]),
    );
  };
  return canonical(olds) === canonical(news);
}
