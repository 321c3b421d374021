import type { DatabaseSync } from "node:sqlite";
import type { YieldSource } from "../../sdk/nodejs/contract/index.ts";
import type { OrganizationClocks } from "../clock.ts";
import type { ApprovalDeps } from "../domain/approvals.ts";
import type { WebhookDispatcher } from "../domain/events/delivery.ts";
import type { WebhookInboxes } from "../domain/events/inboxes.ts";
import type { RequestLog } from "../domain/requestLog.ts";
import type { FaultRegistry } from "../domain/faults.ts";
import type { DueWorkScheduler } from "../domain/dueWorkScheduler.ts";
import type { MoneyDeps } from "../domain/money/moneyDeps.ts";
import type { FairTurns } from "../domain/fairTurns.ts";
import type { RateLimiter } from "../domain/rateLimits.ts";
import type { RequestCounter } from "../domain/requestCounter.ts";
import type { RequestGate, Snapshots } from "../domain/snapshots.ts";
import type { StrategyUpdates } from "../domain/strategyUpdates.ts";
import type { WebhookUrlPolicy } from "../domain/webhookUrlPolicy.ts";

/** Who may call the admin API: the sandbox's admin token, and admin tokens scoped to one organization. */
export interface AdminAccess {
  /** The all-powerful token; null: none; undefined: none configured (options.ts `adminToken`). */
  adminToken: string | null | undefined;
  /** Admin token → the one organization it acts for (options.ts `organizationAdminTokens`). */
  organizationAdminTokens: ReadonlyMap<string, string>;
}

/** Everything a route needs, built once per sandbox instance (no module-level state). */
export interface SandboxContext {
  db: DatabaseSync;
  /** The shared clock and each organization's own (sandbox/clock.ts). */
  clocks: OrganizationClocks;
  /** Bearer token → organization id. */
  tokens: ReadonlyMap<string, string>;
  /** The admin API's tokens: the sandbox's, and those scoped to one organization (options.ts). */
  adminAccess: AdminAccess;
  /** The current catalog as an organization sees it (rates may change between calls). */
  catalog(organizationId: string): YieldSource[];
  approvals: ApprovalDeps;
  strategyUpdates: StrategyUpdates;
  faults: FaultRegistry;
  requestCounter: RequestCounter;
  /** The organizations' turns at the one thread that serves them (domain/fairTurns.ts). */
  fairTurns: FairTurns;
  /** The service's rate limit, emulated, per organization (domain/rateLimits.ts). */
  rateLimiter: RateLimiter;
  /** What deposits, yield accrual, withdrawals and the ledger need (sandbox/domain/money/). */
  money: MoneyDeps;
  /** The one scheduler of time-driven work (strategy updates, deposit steps, payout legs). */
  dueWork: DueWorkScheduler;
  /** Each organization's last requests, for the console's Events page (domain/requestLog.ts). */
  requestLog: RequestLog;
  /** Background webhook delivery (sandbox/domain/events/delivery.ts). */
  webhookDispatcher: WebhookDispatcher;
  /** The receivers the sandbox hosts for tests (domain/events/inboxes.ts). */
  webhookInboxes: WebhookInboxes;
  /** Host names requests may name besides loopback ones (options.ts `allowedHosts`). */
  allowedHosts: readonly string[];
  /** Where webhooks may go (sandbox/domain/webhookUrlPolicy.ts). */
  webhookUrlPolicy: WebhookUrlPolicy;
  /** Requests in flight; a snapshot restore waits for them and holds new ones (domain/snapshots.ts). */
  requestGate: RequestGate;
  /** Whole-sandbox snapshots and organization export/import (domain/snapshots.ts). */
  snapshots: Snapshots;
  /** Where the admin API's snapshot and export files live (options.ts `snapshotDir`), or null when none is set. */
  snapshotDir: string | null;
}
