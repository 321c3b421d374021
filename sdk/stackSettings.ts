import { HttpUrlSchema } from "./contract/common.ts";
import { quoteValue } from "./contract/errors.ts";
import { API_TOKEN_ENV, BASE_URL_ENV } from "./client/core/environment.ts";
import { ApiConnectionError, AuthenticationError, PortfolioWalletError } from "./client/core/errors.ts";

/**
 * Settings shared by the dynamic provider, the read-only functions and the approver: one table of
 * names, one resolution order (stack config, then environment), read at call time.
 */

/** The stack-config namespace of every provider setting: `pulumi config set portfolio-wallet:baseUrl ...`. */
export const CONFIG_NAMESPACE = "portfolio-wallet";

/**
 * Every provider setting: its stack-config key (under `portfolio-wallet:`), its environment
 * fallback, whether it is a secret, and what it is (the native provider's schema describes its
 * configuration with these). This table is the one place the names are defined; docs/provider.md
 * lists the same names.
 */
export const SETTINGS = {
  baseUrl: {
    env: BASE_URL_ENV,
    secret: false,
    description: "The service's base URL, for example the local sandbox's http://127.0.0.1:8787.",
  },
  apiToken: {
    env: API_TOKEN_ENV,
    secret: true,
    description: "The API token (bearer) of your organization at the service. A secret.",
  },
  turnkeyApiBaseUrl: {
    env: "TURNKEY_API_BASE_URL",
    secret: false,
    description:
      "The signing provider's API (Turnkey). With the three other turnkey settings, `up` approves the strategy updates it requests.",
  },
  turnkeyOrganizationId: {
    env: "TURNKEY_ORGANIZATION_ID",
    secret: false,
    description: "Your organization id at the signing provider (Turnkey).",
  },
  turnkeyApiPublicKey: {
    env: "TURNKEY_API_PUBLIC_KEY",
    secret: false,
    description: "The approver's API public key at the signing provider: compressed P-256, hex.",
  },
  turnkeyApiPrivateKey: {
    env: "TURNKEY_API_PRIVATE_KEY",
    secret: true,
    description:
      "The approver's API private key (P-256, hex). A secret: it only signs requests locally and never leaves the provider.",
  },
  approvalTimeoutSeconds: {
    env: "PORTFOLIO_WALLET_APPROVAL_TIMEOUT_SECONDS",
    secret: false,
    description:
      "How long `up` waits for an approved strategy update to show on the wallet, in seconds. Default 300.",
  },
} as const;
export type SettingName = keyof typeof SETTINGS;

/** A setting's stack-config key: `portfolio-wallet:<name>`. */
export function configKeyOf(name: SettingName): string {
  return `${CONFIG_NAMESPACE}:${name}`;
}

/** One thing wrong with the settings: the setting it is about, and what to do. */
export interface SettingProblem {
  setting: SettingName;
  /** A sentence naming the setting (`portfolio-wallet:baseUrl is not set; set it with ...`). */
  message: string;
}

/**
 * The settings are unusable: every problem found, all at once, before any request is sent. The
 * message names them for a Pulumi user; callers with other sources of settings (the command-line
 * tool's flags) read `problems` and say it their way.
 */
export class SettingsError extends PortfolioWalletError {
  static override readonly brandName: string = "SettingsError";
  readonly problems: readonly SettingProblem[];

  constructor(problems: readonly SettingProblem[]) {
    super(`Portfolio wallet settings: ${problems.map((problem) => problem.message).join("; ")}`);
    this.problems = Object.freeze([...problems]);
  }
}

/** Where settings come from: the dynamic provider's `configure` hook hands over an object with `get`. */
export interface ConfigSource {
  get(key: string): string | undefined;
}

/** Credentials for approving signing activities at the signing provider (Turnkey). */
export interface ApproverSettings {
  apiBaseUrl: string;
  organizationId: string;
  apiPublicKey: string;
  apiPrivateKey: string;
}

export interface ProviderSettings {
  baseUrl: string;
  apiToken: string;
  /** Present only when all four Turnkey settings are set: then pending approvals are approved during `up`. */
  approver: ApproverSettings | undefined;
  /** How long `up` waits for an approved strategy change to show on the wallet. */
  approvalTimeoutMs: number;
}

const DEFAULT_APPROVAL_TIMEOUT_SECONDS = 300;

/** Where one setting comes from: its value, or undefined when the source does not set it. */
export type SettingLookup = (name: SettingName) => string | undefined;

/** A setting from stack config (`portfolio-wallet:<name>`). Empty strings count as unset. */
export function fromStackConfig(source: ConfigSource | undefined): SettingLookup {
  return (name) => nonEmpty(source?.get(configKeyOf(name)));
}

/** A setting from its environment variable (PORTFOLIO_WALLET_*, TURNKEY_*). Empty strings count as unset. */
export function fromEnvironment(env: NodeJS.ProcessEnv): SettingLookup {
  return (name) => nonEmpty(env[SETTINGS[name].env]);
}

/** The first source, in order, that sets a setting. */
export function firstOf(...lookups: SettingLookup[]): SettingLookup {
  return (name) => {
    for (const lookup of lookups) {
      const value = lookup(name);
      if (value !== undefined) return value;
    }
    return undefined;
  };
}

const nonEmpty = (value: string | undefined) => (value === undefined || value === "" ? undefined : value);

/** Where to set a missing setting, for error messages. */
export function howToSet(name: SettingName): string {
  const secretFlag = SETTINGS[name].secret ? " --secret" : "";
  return `set it with \`pulumi config set${secretFlag} ${configKeyOf(name)} <value>\` or the ${SETTINGS[name].env} environment variable`;
}

/**
 * Resolves the provider's settings at call time: stack config first, then the environment. Never
 * cached in a module global and never captured by the serialized provider, so no secret reaches
 * Pulumi state.
 */
export function resolveProviderSettings(
  source: ConfigSource | undefined,
  env: NodeJS.ProcessEnv = process.env,
): ProviderSettings {
  return resolveSettings(firstOf(fromStackConfig(source), fromEnvironment(env)));
}

/** The service's URL and the API token: what every request needs. */
function connectionFrom(
  readSetting: SettingLookup,
  problems: SettingProblem[],
): { baseUrl: string | undefined; apiToken: string | undefined } {
  const baseUrl = readSetting("baseUrl");
  const apiToken = readSetting("apiToken");
  if (baseUrl === undefined) problems.push(notSet("baseUrl"));
  else if (!HttpUrlSchema.safeParse(baseUrl).success) {
    problems.push({
      setting: "baseUrl",
      message: `${configKeyOf("baseUrl")} must be an absolute http(s) URL`,
    });
  }
  if (apiToken === undefined) problems.push(notSet("apiToken"));
  return { baseUrl, apiToken };
}

const notSet = (setting: SettingName): SettingProblem => ({
  setting,
  message: `${configKeyOf(setting)} is not set; ${howToSet(setting)}`,
});

/** Only what a request to the service needs (commands that never approve read nothing else). */
export function resolveConnectionSettings(readSetting: SettingLookup): { baseUrl: string; apiToken: string } {
  const problems: SettingProblem[] = [];
  const { baseUrl, apiToken } = connectionFrom(readSetting, problems);
  if (problems.length > 0) throw new SettingsError(problems);
  return { baseUrl: baseUrl!, apiToken: apiToken! };
}

const APPROVER_SETTING_NAMES = {
  apiBaseUrl: "turnkeyApiBaseUrl",
  organizationId: "turnkeyOrganizationId",
  apiPublicKey: "turnkeyApiPublicKey",
  apiPrivateKey: "turnkeyApiPrivateKey",
} as const satisfies Record<keyof ApproverSettings, SettingName>;

/** The approver's settings when all four are set; a problem when only some are. */
function approverFrom(readSetting: SettingLookup, problems: SettingProblem[]): ApproverSettings | undefined {
  const values = Object.entries(APPROVER_SETTING_NAMES).map(
    ([field, name]) => [field, name, readSetting(name)] as const,
  );
  const missing = values.filter(([, , value]) => value === undefined);
  if (missing.length === 0) {
    return Object.fromEntries(
      values.map(([field, , value]) => [field, value]),
    ) as unknown as ApproverSettings;
  }
  if (missing.length < values.length) {
    // A half-configured approver would silently leave changes pending: say which settings are missing.
    const names = missing.map(([, name]) => configKeyOf(name));
    problems.push({
      setting: missing[0]![1],
      message: `the Turnkey approver is partly configured; also set ${names.join(", ")} (or unset the others)`,
    });
  }
  return undefined;
}

/** The approver's settings alone (to approve or reject without talking to the service); all four are needed. */
export function resolveApproverSettings(readSetting: SettingLookup): ApproverSettings {
  const problems: SettingProblem[] = [];
  const approver = approverFrom(readSetting, problems);
  if (approver === undefined && problems.length === 0) {
    const all = Object.values(APPROVER_SETTING_NAMES).map(configKeyOf);
    problems.push({
      setting: APPROVER_SETTING_NAMES.apiPrivateKey,
      message: `no Turnkey approver is configured; set ${all.join(", ")} (see docs/approvals.md)`,
    });
  }
  if (approver === undefined) throw new SettingsError(problems);
  return approver;
}

/**
 * Resolves and checks every setting from a lookup, reporting every problem at once. The one
 * place the settings' rules live; the provider and the command-line tool differ only in the
 * order of their sources.
 */
export function resolveSettings(readSetting: SettingLookup): ProviderSettings {
  const problems: SettingProblem[] = [];
  const { baseUrl, apiToken } = connectionFrom(readSetting, problems);
  const approver = approverFrom(readSetting, problems);

  const timeoutText = readSetting("approvalTimeoutSeconds");
  let approvalTimeoutMs = DEFAULT_APPROVAL_TIMEOUT_SECONDS * 1000;
  if (timeoutText !== undefined) {
    const seconds = Number(timeoutText);
    if (!Number.isFinite(seconds) || seconds <= 0)
      problems.push({
        setting: "approvalTimeoutSeconds",
        message: `${configKeyOf("approvalTimeoutSeconds")} must be a positive number of seconds, got ${quoteValue(timeoutText)}`,
      });
    else approvalTimeoutMs = seconds * 1000;
  }

  if (problems.length > 0) throw new SettingsError(problems);
  return { baseUrl: baseUrl!, apiToken: apiToken!, approver, approvalTimeoutMs };
}

/**
 * A client error as a Pulumi user needs to read it: where the client says "the apiToken option or
 * PORTFOLIO_WALLET_API_TOKEN", a stack has `portfolio-wallet:apiToken`. The client is general
 * purpose and never names Pulumi settings; the provider and the functions pass their errors here.
 */
export function withSettingHint(error: unknown): unknown {
  const hint = AuthenticationError.isInstance(error)
    ? howToSet("apiToken")
    : ApiConnectionError.isInstance(error)
      ? howToSet("baseUrl")
      : undefined;
  if (hint === undefined) return error;
  return new Error(`${(error as Error).message} In a Pulumi stack, ${hint}.`, { cause: error });
}
