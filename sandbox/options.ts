import type { YieldSource } from "../sdk/nodejs/contract/index.ts";
import type { SandboxClock } from "./clock.ts";
import type { WebhookDeliveryOptions } from "./domain/events/delivery.ts";
import type { OrgPolicy } from "./store/policyStore.ts";

/** Options of `startSandbox`. Every field is optional; defaults suit a developer machine. */
export interface SandboxOptions {
  /** TCP port on 127.0.0.1; 0 picks a free one. Default 8787 (`--port`). */
  port?: number;
  /**
   * Host names requests may address the sandbox by, besides its own address (127.0.0.1, localhost,
   * *.localhost, [::1]), which always work: the names of a shared deployment reached through a
   * proxy or a port forward. A request with any other `Host` is refused with 403, so a web page
   * cannot reach the sandbox by making its own name resolve to 127.0.0.1 (DNS rebinding). Default
   * none (`--allowed-hosts a.example,b.example`, env SANDBOX_ALLOWED_HOSTS).
   */
  allowedHosts?: readonly string[];
  /** Directory of the SQLite file, or `:memory:`. Default `.sandbox-data` (`--data`). */
  dataDir?: string;
  /** Bearer token → organization id. Default `{ "sandbox-token": "sandbox-org" }` (env `SANDBOX_TOKENS`). */
  /**
   * Who may call the admin API (`/_sandbox/*`), which can move an organization's clock (or, with
   * `scope: "sandbox"`, every organization's), change its rates (or everyone's) and approve its
   * withdrawals. This token acts for every organization; see `organizationAdminTokens` for tokens
   * of one:
   * - a token: admin calls must also send it as `X-Sandbox-Admin-Token` (the bearer API token
   *   still says which organization a call acts for);
   * - `null`: the admin API is off (403 on every admin call);
   * - left out: every API token may call it. That is the in-process test sandbox's default (it
   *   binds 127.0.0.1 only); `portfolio-wallet sandbox` never leaves it out: it passes
   *   `--admin-token` / env `SANDBOX_ADMIN_TOKEN`, or `null`.
   */
  adminToken?: string | null;
  /**
   * Admin tokens scoped to one organization: admin token → organization id (docs/sandbox.md "Admin
   * token"). Sent as `X-Sandbox-Admin-Token`, such a token opens that organization's admin calls
   * (its clock, its rates, its deposits, faults, approvals and approver keys) and nothing else: a
   * call whose bearer token belongs to another organization is 403, and so is every call that acts
   * on the whole sandbox (moving every organization's clock, a rate change for all). They work
   * beside `adminToken` whatever it is; with `adminToken` left out, configuring any of them closes
   * the admin API to API tokens alone. Default none (`--org-admin-tokens token=org,...`, env
   * SANDBOX_ORG_ADMIN_TOKENS).
   */
  organizationAdminTokens?: Record<string, string> | ReadonlyMap<string, string>;
  tokens?: Record<string, string> | ReadonlyMap<string, string>;
  /**
   * The service's rate limit, emulated per organization (docs/sandbox.md "Rate limit"): each
   * organization may send `requestsPerSecond` API requests a second, in bursts of `burst` (default
   * one second's worth); more are answered 429 with Retry-After. The admin API changes it per
   * organization. Default none (`--rate-limit <rps>`, `--rate-limit-burst <n>`, env
   * SANDBOX_RATE_LIMIT, SANDBOX_RATE_LIMIT_BURST).
   */
  rateLimit?: { requestsPerSecond: number; burst?: number };
  /**
   * A whole-sandbox snapshot file to start from (`--from-snapshot <file>`, docs/sandbox.md
   * "Snapshots"): its state replaces what `dataDir` holds before anything else starts; `catalog`
   * and `policies`, when given, still apply on top of it. A file that is not a readable snapshot of
   * a format and schema this sandbox reads is refused, and the sandbox does not start.
   */
  fromSnapshot?: string;
  /**
   * The one directory the admin API saves snapshot and export files in and reads them from
   * (`--snapshot-dir <dir>`, env SANDBOX_SNAPSHOT_DIR): the API takes file names only, so a caller
   * can never reach another file of the host. Whole-sandbox snapshots lie in it; an organization's
   * exports in `organizations/<organization id>/` below it, the only place that organization's
   * imports are read from. Default `<dataDir>/snapshots`; with `dataDir: ":memory:"` none, and the
   * snapshot calls say to set one.
   */
  snapshotDir?: string;
  /** Replaces the stored catalog at startup (`--catalog <file.json>`). Default: keep the stored one, or the built-in one. */
  catalog?: YieldSource[];
  /** Approval policies per organization, written at startup (env `SANDBOX_POLICIES`). */
  policies?: Record<string, Partial<OrgPolicy>>;
  /** The sandbox clock. Default: wall clock with an offset the admin API can advance. */
  clock?: SandboxClock;
  /**
   * The sandbox's own clock stands still: it moves only when the admin API advances it
   * (`POST /_sandbox/clock/advance`, the console's clock control), so balances read twice agree to
   * the micro; rebalances, deposit legs and payouts then wait for an advance. Starts where the wall
   * clock with the stored offset stands. Default false (`--manual-clock`). A `clock` given wins.
   */
  manualClock?: boolean;
  /** How long a strategy update stays `processing`, in sandbox-clock ms. Default 300 (`--rebalance-delay-ms`). */
  rebalanceDelayMs?: number;
  /**
   * How long a detected deposit takes to reach its positions, in sandbox-clock ms: legs go
   * `processing` at half of it and `completed` at all of it. Default 1000.
   */
  depositProcessingDelayMs?: number;
  /**
   * Webhook delivery, all times in real ms: `retryBaseDelayMs` (default 1000, before the first
   * retry, doubling), `maxAttempts` (default 8, the first included), `timeoutMs` (default 5000 per
   * attempt), `concurrency` (default 16 attempts in flight in all; `--webhook-concurrency`, env
   * SANDBOX_WEBHOOK_CONCURRENCY), `concurrencyPerOrganization` (default 4;
   * `--webhook-concurrency-per-org`, SANDBOX_WEBHOOK_CONCURRENCY_PER_ORG),
   * `concurrencyPerRegistration` (default 2; `--webhook-concurrency-per-registration`,
   * SANDBOX_WEBHOOK_CONCURRENCY_PER_REGISTRATION), `maxPendingPerRegistration` (default 1000;
   * `--webhook-max-pending`, SANDBOX_WEBHOOK_MAX_PENDING), `historyRetentionMs` (default 86400000;
   * `--webhook-history-retention-ms`, SANDBOX_WEBHOOK_HISTORY_RETENTION_MS) and
   * `historyMaxPerOrganization` (default 10000; `--webhook-history-max`, SANDBOX_WEBHOOK_HISTORY_MAX).
   */
  webhookDelivery?: Partial<WebhookDeliveryOptions>;
  /**
   * Lets webhooks go to loopback and private-network addresses (127.0.0.1, localhost, 10.x, ...),
   * as tests and the quickstart need. Link-local and cloud metadata addresses and URLs with
   * credentials are refused whatever this says. Default false (`--allow-private-webhook-urls`,
   * env SANDBOX_ALLOW_PRIVATE_WEBHOOK_URLS=true).
   */
  allowPrivateWebhookUrls?: boolean;
  /**
   * This host's own addresses, which webhooks may reach only with `allowPrivateWebhookUrls`
   * (a listener bound to 0.0.0.0 answers on each). Asked at every check. Default: every address
   * of `os.networkInterfaces()`; tests pass a list of their own.
   */
  webhookHostAddresses?: () => Iterable<string>;
}

export const DEFAULT_PORT = 8787;
export const DEFAULT_DATA_DIR = ".sandbox-data";
export const DEFAULT_TOKENS: Readonly<Record<string, string>> = { "sandbox-token": "sandbox-org" };
export const DEFAULT_REBALANCE_DELAY_MS = 300;
export const DEFAULT_DEPOSIT_PROCESSING_DELAY_MS = 1000;

/**
 * Parses `token=org,token2=org2` (env `SANDBOX_TOKENS`; with `setting`, the variable or flag named
 * in errors: `SANDBOX_ORG_ADMIN_TOKENS` reads the same format).
 */
export function parseTokens(text: string, setting = "SANDBOX_TOKENS"): Map<string, string> {
  const tokens = new Map<string, string>();
  for (const pair of text
    .split(",")
    .map((p) => p.trim())
    .filter((p) => p !== "")) {
    const separator = pair.indexOf("=");
    const token = pair.slice(0, separator).trim();
    const organizationId = pair.slice(separator + 1).trim();
    if (separator <= 0 || token === "" || organizationId === "") {
      // The token itself is a secret: the error names the entry's place, never its text.
      throw new Error(`${setting} entry ${tokens.size + 1} is not token=organization`);
    }
    tokens.set(token, organizationId);
  }
  if (tokens.size === 0) throw new Error(`${setting} holds no token=organization pair`);
  return tokens;
}

/** Parses `name,name2` (`--allowed-hosts`, env SANDBOX_ALLOWED_HOSTS): host names, without scheme, port or path. */
export function parseAllowedHosts(text: string): string[] {
  const names = text
    .split(",")
    .map((name) => name.trim().toLowerCase())
    .filter((name) => name !== "");
  for (const name of names) {
    if (!/^(?:[a-z0-9_.-]+|\[[0-9a-f:.]+\])$/.test(name))
      throw new Error(
        `allowed host ${JSON.stringify(name.slice(0, 100))} is not a host name: give names like sandbox.example.internal, without scheme, port or path`,
      );
  }
  return names;
}

/** Parses env `SANDBOX_POLICIES`: JSON `{ "<org>": { "strategyUpdateApprovals": 1, "withdrawalApprovals": 2 } }`. */
export function parsePolicies(text: string): Record<string, Partial<OrgPolicy>> {
  const value = JSON.parse(text) as unknown;
  if (value === null || typeof value !== "object" || Array.isArray(value)) {
    throw new Error("SANDBOX_POLICIES must be a JSON object keyed by organization id");
  }
  return value as Record<string, Partial<OrgPolicy>>;
}

/** Reads a true/false environment setting (`true`, `1`, `yes` / `false`, `0`, `no`, unset = false). */
export function parseBooleanSetting(name: string, text: string | undefined): boolean {
  if (text === undefined || text.trim() === "") return false;
  const value = text.trim().toLowerCase();
  if (["true", "1", "yes"].includes(value)) return true;
  if (["false", "0", "no"].includes(value)) return false;
  throw new Error(`${name} must be true or false (got ${JSON.stringify(text.slice(0, 50))})`);
}
