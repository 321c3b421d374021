import {
  CONFIG_NAMESPACE,
  configKeyOf,
  firstOf,
  fromEnvironment,
  fromStackConfig,
  resolveSettings,
  SettingsError,
  SETTINGS,
  type ConfigSource,
  type SettingName,
} from "../../sdk/nodejs/stackSettings.ts";
import type { CheckFailure } from "../check.ts";
import { plainProperties } from "./propertyValues.ts";

/**
 * The provider configuration as the engine hands it to a native provider: the stack's
 * `portfolio-wallet:*` config (or an explicit provider's arguments) as properties named without the
 * namespace, secrets wrapped, and the same again as `variables` keyed `portfolio-wallet:<name>`.
 * Read through the settings' one table and rules (sdk/nodejs/stackSettings.ts), with the same
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
  const { plain } = plainProperties(args);
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

/**
 * Warnings for the secret settings (the API token, the Turnkey private key) that the stack holds in
 * plain text: set without `--secret`, they sit unencrypted in Pulumi.<stack>.yaml, where anyone who
 * can read the repository can read them. The engine hands a setting stored with `--secret` to the
 * plugin marked as a secret, so an unmarked one was stored in plain text. Not an error: the
 * deployment works, and refusing it would break stacks that work today.
 */
export function plaintextSecretWarnings(config: Record<string, unknown>): string[] {
  const { plain, secretNames } = plainProperties(config);
  return (Object.keys(SETTINGS) as SettingName[])
    .filter((name) => SETTINGS[name].secret && plain[name] !== undefined && !secretNames.has(name))
    .map(
      (name) =>
        `${configKeyOf(name)} is stored in plain text in the stack's configuration, where anyone who can read ` +
        `Pulumi.<stack>.yaml can read it. Store it encrypted: \`pulumi config set --secret ${configKeyOf(name)} <value>\` ` +
        `(or leave it out of the stack and set the ${SETTINGS[name].env} environment variable).`,
    );
}

/**
 * Whether two configurations are the same for the provider, secrets compared by value. Only the
 * provider's settings count: the stack's other `portfolio-wallet:*` keys are the command-line
 * tool's (the review tolerances of `report-check`), and changing one must not show the provider
 * as updated in a preview.
 */
export function sameConfig(olds: Record<string, unknown>, news: Record<string, unknown>): boolean {
  const canonical = (config: Record<string, unknown>) => {
    const { plain } = plainProperties(config);
    return JSON.stringify(
      Object.keys(plain)
        .filter((key): key is SettingName => Object.hasOwn(SETTINGS, key))
        .sort()
        .map((key) => [key, plain[key]]),
    );
  };
  return canonical(olds) === canonical(news);
}
