import { randomBytes } from "node:crypto";
import { resolve } from "node:path";
import { Command, InvalidArgumentError, Option } from "commander";
import {
  DEFAULT_WEBHOOK_DELIVERY,
  type WebhookDeliveryOptions,
} from "../../sandbox/domain/events/delivery.ts";
import {
  DEFAULT_DATA_DIR,
  DEFAULT_PORT,
  DEFAULT_REBALANCE_DELAY_MS,
  DEFAULT_TOKENS,
  parseAllowedHosts,
  parseBooleanSetting,
  parsePolicies,
  parseTokens,
} from "../../sandbox/options.ts";
import { wholeNumber } from "../flagValues.ts";
import { configKeyOf, SETTINGS } from "../../sdk/nodejs/stackSettings.ts";

function positiveWholeNumber(value: string): number {
  const parsed = wholeNumber(value);
  if (parsed === 0) throw new InvalidArgumentError("must be a whole number >= 1.");
  return parsed;
}

function positiveNumber(value: string): number {
  const parsed = Number(value);
  if (value.trim() === "" || !Number.isFinite(parsed) || parsed <= 0)
    throw new InvalidArgumentError("must be a number above 0.");
  return parsed;
}

function allowedHosts(value: string): string[] {
  try {
    return parseAllowedHosts(value);
  } catch (error) {
    throw new InvalidArgumentError(`${(error as Error).message}.`);
  }
}

function organizationAdminTokens(value: string): Map<string, string> {
  try {
    return parseTokens(value, "--org-admin-tokens");
  } catch (error) {
    throw new InvalidArgumentError(`${(error as Error).message}.`);
  }
}

function nonEmpty(value: string): string {
  if (value === "") throw new InvalidArgumentError("must not be empty.");
  return value;
}

/** Webhook delivery settings with a flag and an environment variable each (the option of the same name). */
const WEBHOOK_SETTINGS: { flag: string; env: string; key: keyof WebhookDeliveryOptions; what: string }[] = [
  {
    flag: "webhook-concurrency",
    env: "SANDBOX_WEBHOOK_CONCURRENCY",
    key: "concurrency",
    what: "webhook attempts in flight, in all",
  },
  {
    flag: "webhook-concurrency-per-org",
    env: "SANDBOX_WEBHOOK_CONCURRENCY_PER_ORG",
    key: "concurrencyPerOrganization",
    what: "webhook attempts in flight for one organization",
  },
  {
    flag: "webhook-concurrency-per-registration",
    env: "SANDBOX_WEBHOOK_CONCURRENCY_PER_REGISTRATION",
    key: "concurrencyPerRegistration",
    what: "webhook attempts in flight for one registration",
  },
  {
    flag: "webhook-max-pending",
    env: "SANDBOX_WEBHOOK_MAX_PENDING",
    key: "maxPendingPerRegistration",
    what: "pending deliveries one registration may collect",
  },
  {
    flag: "webhook-history-retention-ms",
    env: "SANDBOX_WEBHOOK_HISTORY_RETENTION_MS",
    key: "historyRetentionMs",
    what: "how long finished deliveries are kept, in ms",
  },
  {
    flag: "webhook-history-max",
    env: "SANDBOX_WEBHOOK_HISTORY_MAX",
    key: "historyMaxPerOrganization",
    what: "finished deliveries kept per organization",
  },
];

const camel = (flag: string) => flag.replace(/-([a-z])/g, (_, letter: string) => letter.toUpperCase());

interface SandboxFlags {
  port: number;
  data: string;
  catalog?: string;
  fromSnapshot?: string;
  snapshotDir?: string;
  rebalanceDelayMs: number;
  manualClock?: boolean;
  adminToken?: string;
  orgAdminTokens?: Map<string, string>;
  rateLimit?: number;
  rateLimitBurst?: number;
  /** False with --no-admin-api. */
  adminApi: boolean;
  allowPrivateWebhookUrls?: boolean;
  allowedHosts?: string[];
  [webhookSetting: string]: unknown;
}

/** `portfolio-wallet sandbox`: the local sandbox of the service, until SIGINT or SIGTERM. */
export function sandboxCommand(): Command {
  const command = new Command("sandbox")
    .description("Run the local sandbox of the Portfolio Wallet Yield Service on 127.0.0.1.")
    .option("--port <port>", "TCP port on 127.0.0.1; 0 picks a free one", wholeNumber, DEFAULT_PORT)
    .option("--data <dir>", 'directory of the SQLite data, or ":memory:" to keep nothing', DEFAULT_DATA_DIR)
    .option("--catalog <file.json>", "replace the yield-source catalog with this file at start-up")
    .option(
      "--from-snapshot <file>",
      "start from a whole-sandbox snapshot (POST /_sandbox/snapshot/save): it replaces what --data holds; --catalog and SANDBOX_POLICIES still apply on top",
    )
    .addOption(
      new Option(
        "--snapshot-dir <dir>",
        "the one directory the admin API saves and reads snapshot and export files in, by name (default: <--data>/snapshots; none with --data :memory:)",
      ).env("SANDBOX_SNAPSHOT_DIR"),
    )
    .option(
      "--rebalance-delay-ms <ms>",
      "how long a strategy update stays processing, in sandbox-clock ms",
      wholeNumber,
      DEFAULT_REBALANCE_DELAY_MS,
    )
    .option(
      "--manual-clock",
      "sandbox time stands still, moved only by the admin API's clock advance (or the console's clock control): balances read twice agree to the micro, and rebalances, deposits and payouts wait for an advance",
    )
    .addOption(
      new Option(
        "--admin-token <token>",
        "token the admin API (/_sandbox/*) requires in X-Sandbox-Admin-Token; without one the admin API is off. Prefer env SANDBOX_ADMIN_TOKEN: a flag's value is visible to every user of the machine (ps)",
      )
        .env("SANDBOX_ADMIN_TOKEN")
        .argParser(nonEmpty),
    )
    .addOption(
      new Option(
        "--org-admin-tokens <token=org,...>",
        "admin tokens scoped to one organization each: such a token opens that organization's admin calls and nothing sandbox-wide. Prefer env SANDBOX_ORG_ADMIN_TOKENS (a flag shows in ps)",
      )
        .env("SANDBOX_ORG_ADMIN_TOKENS")
        .argParser(organizationAdminTokens),
    )
    .option(
      "--no-admin-api",
      "keep the admin API off even when started in a terminal without --admin-token (see below)",
    )
    .addOption(
      new Option(
        "--allowed-hosts <names>",
        "host names, comma-separated, the sandbox answers to besides 127.0.0.1 and localhost (a shared sandbox behind a proxy or port forward); requests naming any other Host get 403",
      )
        .env("SANDBOX_ALLOWED_HOSTS")
        .argParser(allowedHosts),
    )
    .addOption(
      new Option(
        "--rate-limit <rps>",
        "emulate the service's rate limit: API requests per second each organization may send (more are answered 429 with Retry-After); default none",
      )
        .env("SANDBOX_RATE_LIMIT")
        .argParser(positiveNumber),
    )
    .addOption(
      new Option(
        "--rate-limit-burst <n>",
        "requests an organization may send at once under --rate-limit (default: one second's worth)",
      )
        .env("SANDBOX_RATE_LIMIT_BURST")
        .argParser(positiveWholeNumber),
    )
    .option(
      "--allow-private-webhook-urls",
      "let webhooks go to loopback and private-network addresses (env SANDBOX_ALLOW_PRIVATE_WEBHOOK_URLS=true)",
    );
  for (const setting of WEBHOOK_SETTINGS) {
    command.addOption(
      new Option(
        `--${setting.flag} <n>`,
        `${setting.what} (default ${DEFAULT_WEBHOOK_DELIVERY[setting.key]})`,
      )
        .env(setting.env)
        .argParser(setting.key.startsWith("history") ? wholeNumber : positiveWholeNumber),
    );
  }
  return command
    .addHelpText(
      "after",
      `
Environment:
  SANDBOX_TOKENS        API tokens and their organizations, "token=org,token2=org2"
                        (default: ${Object.entries(DEFAULT_TOKENS)
                          .map(([token, org]) => `${token}=${org}`)
                          .join(",")})
  SANDBOX_POLICIES      approval policies per organization, JSON:
                        '{"org":{"strategyUpdateApprovals":1,"withdrawalApprovals":2}}'
  SANDBOX_ALLOW_PRIVATE_WEBHOOK_URLS
                        true or false, as --allow-private-webhook-urls
  (the other settings' variables are listed with their flags above)

Admin API (/_sandbox/*: simulated deposits, the clock, rates, faults, approver keys; the console's
controls use it):
  SANDBOX_ADMIN_TOKEN / --admin-token   it takes that token, in X-Sandbox-Admin-Token (prefer the
                                        variable: a flag shows in ps to every user of the machine)
  SANDBOX_ORG_ADMIN_TOKENS / --org-admin-tokens
                                        "token=org,...": each token opens its organization's admin
                                        calls only (403 for another organization's API token, and
                                        for calls that act on every organization)
  neither, in a terminal                a token made for this run is printed there, once
  neither, output not a terminal        it is off (a shared or CI sandbox: no token in its logs)
  --no-admin-api                        it is off`,
    )
    .action(async (flags: SandboxFlags) => {
      // Loaded here, not at the top: every other command of the CLI imports this file to list it,
      // and none of them needs the sandbox's hundred modules.
      const { startSandbox } = await import("../../sandbox/index.ts");
      const { loadCatalogFile } = await import("../../sandbox/domain/catalog.ts");
      const env = process.env;
      const webhookDelivery: Partial<WebhookDeliveryOptions> = {};
      for (const setting of WEBHOOK_SETTINGS) {
        const value = flags[camel(setting.flag)];
        if (typeof value === "number") webhookDelivery[setting.key] = value;
      }
      const adminToken = adminTokenOf(flags);
      const tokens = env["SANDBOX_TOKENS"] === undefined ? undefined : parseTokens(env["SANDBOX_TOKENS"]);
      const sandbox = await startSandbox({
        port: flags.port,
        dataDir: flags.data,
        tokens: tokens ?? DEFAULT_TOKENS,
        ...(env["SANDBOX_POLICIES"] === undefined
          ? {}
          : { policies: parsePolicies(env["SANDBOX_POLICIES"]) }),
        ...(flags.catalog === undefined
          ? {}
          : { catalog: loadCatalogFile(flags.catalog, new Date().toISOString()) }),
        ...(flags.fromSnapshot === undefined ? {} : { fromSnapshot: resolve(flags.fromSnapshot) }),
        ...(flags.snapshotDir === undefined ? {} : { snapshotDir: resolve(flags.snapshotDir) }),
        rebalanceDelayMs: flags.rebalanceDelayMs,
        manualClock: flags.manualClock === true,
        adminToken: adminToken.token,
        ...(flags.orgAdminTokens === undefined ? {} : { organizationAdminTokens: flags.orgAdminTokens }),
        ...(flags.rateLimit === undefined
          ? {}
          : {
              rateLimit: {
                requestsPerSecond: flags.rateLimit,
                ...(flags.rateLimitBurst === undefined ? {} : { burst: flags.rateLimitBurst }),
              },
            }),
        ...(flags.allowedHosts === undefined ? {} : { allowedHosts: flags.allowedHosts }),
        allowPrivateWebhookUrls:
          flags.allowPrivateWebhookUrls === true ||
          parseBooleanSetting(
            "SANDBOX_ALLOW_PRIVATE_WEBHOOK_URLS",
            env["SANDBOX_ALLOW_PRIVATE_WEBHOOK_URLS"],
          ),
        webhookDelivery,
      });
      console.log(`listening on ${sandbox.url}`);
      console.log(`console: ${sandbox.consoleUrl} (sign in with an API token; docs/console.md)`);
      if (adminToken.made)
        console.log(
          `admin token for this run: ${adminToken.token} (the console's sandbox controls ask for it; choose your own with --admin-token or SANDBOX_ADMIN_TOKEN)`,
        );
      else if (adminToken.token === null && flags.orgAdminTokens !== undefined)
        console.log(
          "console: its sandbox controls take an organization's admin token (SANDBOX_ORG_ADMIN_TOKENS); calls that act on every organization need --admin-token (or SANDBOX_ADMIN_TOKEN), which was not given",
        );
      else if (adminToken.token === null)
        console.log(
          "console: its sandbox controls (deposits, clock, rates, faults, approver keys) need the admin API, which is off: start with --admin-token <token> (or SANDBOX_ADMIN_TOKEN) to use them",
        );
      console.log(settingsText(sandbox.url, tokens === undefined ? "default" : tokens.size));
      await new Promise<void>((resolve) => {
        const stop = () => void sandbox.close().then(resolve);
        process.once("SIGINT", stop);
        process.once("SIGTERM", stop);
      });
    });
}

/**
 * What a program (or this CLI) needs to reach the sandbox: the settings and their environment
 * variables (sdk/nodejs/stackSettings.ts names both), with the URL and the API token. The token is
 * printed only when it is the well-known default; tokens given in SANDBOX_TOKENS are the user's own
 * and may reach a log, so the text says where they came from instead.
 */
export function settingsText(url: string, tokens: "default" | number): string {
  const [defaultToken, defaultOrganization] = Object.entries(DEFAULT_TOKENS)[0] ?? ["", ""];
  const token = tokens === "default" ? defaultToken : "<token>";
  const whichToken =
    tokens === "default"
      ? `(${defaultToken} is the default API token, of organization ${defaultOrganization}; SANDBOX_TOKENS sets others)`
      : `(<token>: one of the ${tokens} API token${tokens === 1 ? "" : "s"} given in SANDBOX_TOKENS, not printed here)`;
  return [
    "to use it from a Pulumi program, set the stack's settings (or the environment variables, which the CLI reads too):",
    `  pulumi config set ${configKeyOf("baseUrl")} ${url}    or  export ${SETTINGS.baseUrl.env}=${url}`,
    `  pulumi config set --secret ${configKeyOf("apiToken")} ${token}    or  export ${SETTINGS.apiToken.env}=${token}`,
    `  ${whichToken}`,
  ].join("\n");
}

/**
 * The admin token of this run. Someone who starts the sandbox in a terminal is its one user and
 * needs the admin API to simulate deposits and move the clock (the console's controls): without a
 * token of their own, they get one made for this run, printed once to that terminal, as a local
 * development server prints its root token. A sandbox whose output is not a terminal is a shared or
 * CI one whose output lands in logs: no token is made (none may reach a log), and its admin API
 * stays off unless a token is given. Either way, an API token alone never opens the admin API.
 */
function adminTokenOf(flags: SandboxFlags): { token: string | null; made: boolean } {
  if (flags.adminToken !== undefined) return { token: flags.adminToken, made: false };
  if (!flags.adminApi || process.stdout.isTTY !== true) return { token: null, made: false };
  return { token: randomBytes(24).toString("base64url"), made: true };
}
