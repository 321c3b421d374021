import { HttpUrlSchema } from "./contract/common.ts";
import { quoteValue } from "./contract/errors.ts";
import { API_TOKEN_ENV, BASE_URL_ENV } from "./client/core/environment.ts";
import { PortfolioWalletError } from "./client/core/errors.ts";

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
    type: "number",
    description:
      "How long `up` waits for an approved strategy update to show on the wallet, in seconds. Default 300.",
  },
  retryTimeoutSeconds: {
    env: "PORTFOLIO_WALLET_RETRY_TIMEOUT_SECONDS",
    secret: false,
    type: "number",
    description:
      "How long the provider keeps retrying one request through throttling (429), outages (5xx) and dropped connections, in seconds, honouring Retry-After. Default 300; 0 sends each request once.",
  },
  outsideChanges: {
    env: "PORTFOLIO_WALLET_OUTSIDE_CHANGES",
    secret: false,
    description:
      "What a strategy update does when the wallet's allocation at the service is not the one the stack's state recorded (changed in a console, by another tool or stack): `refuse` (the default) sends nothing and fails the resource, naming both allocations; `overwrite` applies the code's allocation anyway and says in the log what it overwrote.",
  },
} as const satisfies Record<string, SettingDefinition>;

/** What the table says of one setting. */
interface SettingDefinition {
  env: string;
  secret: boolean;
  /** The value's type in the package schema; `string` when not given. */
  type?: "number";
  description: string;
}
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
  /** How long one request is retried through transient failures (docs/provider.md "Retries"). */
  retryTimeoutMs: number;
  /** Whether a strategy update may overwrite an allocation changed outside the stack (docs/provider.md "What a merge applies"). */
  outsideChanges: OutsideChanges;
}

/** The values of `portfolio-wallet:outsideChanges`; the first is the default. */
export const OUTSIDE_CHANGES = ["refuse", "overwrite"] as const;
export type OutsideChanges = (typeof OUTSIDE_CHANGES)[number];

const DEFAULT_APPROVAL_TIMEOUT_SECONDS = 300;
/**
 * Five minutes: long enough to ride out a rate-limit window (services count per minute), a
 * rolling deploy or a failover of the service, short enough that a real outage fails the pipeline
 * while someone still watches it. Every request the provider sends is a read or carries its
 * requestId, so waiting longer never risks acting twice.
 */
export const DEFAULT_RETRY_TIMEOUT_SECONDS = 300;
/** One hour: past it, a pipeline had better fail and say so. */
const MAX_RETRY_TIMEOUT_SECONDS = 3600;

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
      message:
        `${configKeyOf("baseUrl")} must be an absolute http(s) URL such as https://api.example.com, ` +
        `got ${quoteValue(baseUrl)}; ${howToSet("baseUrl")}`,
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

  const approvalTimeoutMs = secondsSetting(readSetting, "approvalTimeoutSeconds", problems, {
    defaultSeconds: DEFAULT_APPROVAL_TIMEOUT_SECONDS,
    zeroAllowed: false,
  });
  const retryTimeoutMs = retryTimeoutFrom(readSetting, problems);
  const outsideChanges = outsideChangesFrom(readSetting, problems);

  if (problems.length > 0) throw new SettingsError(problems);
  return {
    baseUrl: baseUrl!,
    apiToken: apiToken!,
    approver,
    approvalTimeoutMs,
    retryTimeoutMs,
    outsideChanges,
  };
}

function outsideChangesFrom(readSetting: SettingLookup, problems: SettingProblem[]): OutsideChanges {
  const text = readSetting("outsideChanges");
  if (text === undefined) return OUTSIDE_CHANGES[0];
  const value = OUTSIDE_CHANGES.find((choice) => choice === text.trim());
  if (value !== undefined) return value;
  problems.push({
    setting: "outsideChanges",
    message:
      `${configKeyOf("outsideChanges")} must be ${OUTSIDE_CHANGES.map((choice) => `"${choice}"`).join(" or ")}, ` +
      `got ${quoteValue(text)}; ${howToSet("outsideChanges")}`,
  });
  return OUTSIDE_CHANGES[0];
}

/** The retry budget alone (for callers that take the service's address and token from elsewhere). */
export function resolveRetryTimeoutMs(readSetting: SettingLookup): number {
  const problems: SettingProblem[] = [];
  const retryTimeoutMs = retryTimeoutFrom(readSetting, problems);
  if (problems.length > 0) throw new SettingsError(problems);
  return retryTimeoutMs;
}

const retryTimeoutFrom = (readSetting: SettingLookup, problems: SettingProblem[]) =>
  secondsSetting(readSetting, "retryTimeoutSeconds", problems, {
    defaultSeconds: DEFAULT_RETRY_TIMEOUT_SECONDS,
    maxSeconds: MAX_RETRY_TIMEOUT_SECONDS,
    zeroAllowed: true,
  });

/** A duration setting given in seconds, as milliseconds; its default when unset, a problem when unusable. */
function secondsSetting(
  readSetting: SettingLookup,
  name: "approvalTimeoutSeconds" | "retryTimeoutSeconds",
  problems: SettingProblem[],
  rule: { defaultSeconds: number; maxSeconds?: number; zeroAllowed: boolean },
): number {
  const text = readSetting(name);
  if (text === undefined) return rule.defaultSeconds * 1000;
  const seconds = /^\s*\d+(\.\d+)?\s*$/.test(text) ? Number(text) : NaN;
  const tooLarge = rule.maxSeconds !== undefined && seconds > rule.maxSeconds;
  if (Number.isNaN(seconds) || (seconds === 0 && !rule.zeroAllowed) || tooLarge) {
    const range =
      rule.maxSeconds === undefined
        ? `a positive number of seconds`
        : `a number of seconds from ${rule.zeroAllowed ? 0 : "above 0"} to ${rule.maxSeconds}`;
    problems.push({
      setting: name,
      message: `${configKeyOf(name)} must be ${range}, got ${quoteValue(text)}; ${howToSet(name)}`,
    });
    return rule.defaultSeconds * 1000;
  }
  return Math.round(seconds * 1000);
}
