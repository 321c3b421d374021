import { resolve } from "node:path";
import type { AddressInfo } from "node:net";
import { serve } from "@hono/node-server";
import type { Hono } from "hono";
import { createApp } from "./app.ts";
import { CONSOLE_PREFIX } from "./console/consolePages.ts";
import {
  createOrganizationClocks,
  createStandingClock,
  createWallClock,
  type OrganizationClocks,
  type SandboxClock,
} from "./clock.ts";
import type { SandboxContext } from "./http/context.ts";
import { createApprovalDeps } from "./domain/approvals.ts";
import { completeCatalog, DEFAULT_CATALOG } from "./domain/catalog.ts";
import { createWebhookDispatcher, DEFAULT_WEBHOOK_DELIVERY } from "./domain/events/delivery.ts";
import { createWebhookInboxes } from "./domain/events/inboxes.ts";
import { createEventSink } from "./domain/events/eventSink.ts";
import { createRequestLog } from "./domain/requestLog.ts";
import { strategyStatusEvent } from "./domain/events/strategyEvents.ts";
import { createFaultRegistry } from "./domain/faults.ts";
import { createDueWorkScheduler, type DueWorkScheduler } from "./domain/dueWorkScheduler.ts";
import { dueMoneyWork } from "./domain/money/dueMoneyWork.ts";
import type { MoneyDeps } from "./domain/money/moneyDeps.ts";
import { emitWalletFigures } from "./domain/walletFigures.ts";
import { rebalanceWallet } from "./domain/money/rebalance.ts";
import { withdrawalContinuation } from "./domain/money/withdrawals.ts";
import { createRequestCounter } from "./domain/requestCounter.ts";
import { createFairTurns } from "./domain/fairTurns.ts";
import { createRateLimiter, defaultBurst, type RateLimit } from "./domain/rateLimits.ts";
import type { WebhookUrlPolicy } from "./domain/webhookUrlPolicy.ts";
import { createStrategyUpdates } from "./domain/strategyUpdates.ts";
import { createRequestGate, createSnapshots, loadSnapshotAtStartup } from "./domain/snapshots.ts";
import type { SandboxEnv } from "./http/env.ts";
import {
  DEFAULT_DATA_DIR,
  DEFAULT_DEPOSIT_PROCESSING_DELAY_MS,
  DEFAULT_PORT,
  DEFAULT_REBALANCE_DELAY_MS,
  DEFAULT_TOKENS,
  type SandboxOptions,
} from "./options.ts";
import { countCatalog, listCatalog, replaceCatalog } from "./store/catalogStore.ts";
import { insertOrganizationRate, listForkedOrganizations } from "./store/rateHistoryStore.ts";
import { rebuildOrganizationSourceAccrualsBehindRate } from "./store/sourceAccrualStore.ts";
import { databaseFileIn, openDatabase } from "./store/db.ts";
import { startWalCheckpoints } from "./store/walCheckpoints.ts";
import { DEFAULT_POLICY, getPolicy, setPolicy } from "./store/policyStore.ts";
import {
  readClockOffsetMs,
  readOrganizationClockLeads,
  writeClockOffsetMs,
  writeOrganizationClockLead,
} from "./store/settingsStore.ts";

export type { SandboxOptions } from "./options.ts";
export type { OrganizationClocks, SandboxClock } from "./clock.ts";
export { createManualClock, createWallClock } from "./clock.ts";
export { DEFAULT_CATALOG } from "./domain/catalog.ts";
export { SANDBOX_DOCUMENT_OPERATIONS, sandboxOpenApiDocuments } from "./routes/openapiDocuments.ts";

/** The one address the sandbox listens on: it is reachable from this machine only. */
const BIND_ADDRESS = "127.0.0.1";
/** How long an idle connection stays open (see where the server starts). */
const KEEP_ALIVE_MS = 60_000;

/** A running sandbox. */
export interface Sandbox {
  /** Base URL, for example `http://127.0.0.1:54321` (no trailing slash). */
  url: string;
  /** The console's address, for example `http://127.0.0.1:54321/_console/` (docs/console.md). */
  consoleUrl: string;
  port: number;
  /**
   * The shared clock every organization's time counts from: advancing it directly (as tests do)
   * moves every organization's clock at once, as `POST /_sandbox/clock/advance` with
   * `scope: "sandbox"` does.
   */
  clock: SandboxClock;
  /** Each organization's clock over the shared one (sandbox/clock.ts; tests can move one directly). */
  clocks: OrganizationClocks;
  /** The Hono app, for in-process `app.request(...)` calls without a socket. */
  app: Hono<SandboxEnv>;
  /** Stops listening, cuts open connections, stops timers and closes the database. */
  close(): Promise<void>;
}

/**
 * The organizations' admin tokens, refused at startup when one is empty, names no organization, or
 * is the sandbox's own admin token (which would then mean two things).
 */
function checkedOrganizationAdminTokens(options: SandboxOptions): ReadonlyMap<string, string> {
  const given = options.organizationAdminTokens ?? {};
  const tokens = given instanceof Map ? given : new Map(Object.entries(given));
  for (const [token, organizationId] of tokens) {
    if (token === "" || organizationId === "")
      throw new Error("organizationAdminTokens: every entry needs a non-empty token and organization id");
    if (token === options.adminToken)
      throw new Error(
        `organizationAdminTokens: the admin token of organization ${JSON.stringify(organizationId)} is the sandbox's own admin token; give each its own`,
      );
  }
  return tokens;
}

/** The sandbox's rate limit, refused at startup when it is not a positive rate and a whole burst ≥ 1. */
function checkedRateLimit(given: SandboxOptions["rateLimit"]): RateLimit | null {
  if (given === undefined) return null;
  const { requestsPerSecond } = given;
  if (!Number.isFinite(requestsPerSecond) || requestsPerSecond <= 0)
    throw new Error(
      `rateLimit.requestsPerSecond must be a number above 0 (got ${String(requestsPerSecond)})`,
    );
  const burst = given.burst ?? defaultBurst(requestsPerSecond);
  if (!Number.isInteger(burst) || burst < 1)
    throw new Error(`rateLimit.burst must be a whole number of requests, 1 or more (got ${String(burst)})`);
  return { requestsPerSecond, burst };
}

/** Opens the store, seeds catalog and policies, wires the domain and starts listening on 127.0.0.1. */
export async function startSandbox(options: SandboxOptions = {}): Promise<Sandbox> {
  if (options.adminToken === "")
    throw new Error("adminToken must not be empty; leave it out or pass null to switch the admin API off");
  const organizationAdminTokens = checkedOrganizationAdminTokens(options);
  const dataDir = options.dataDir ?? DEFAULT_DATA_DIR;
  const db = openDatabase(dataDir);
  // A database on disk writes its log's pages to the database file off the event loop.
  const walCheckpoints = dataDir === ":memory:" ? null : startWalCheckpoints(db, databaseFileIn(dataDir));
  if (options.fromSnapshot !== undefined) {
    // Before the clocks are made: they read the snapshot's offset and leads.
    try {
      loadSnapshotAtStartup(db, options.fromSnapshot);
    } catch (error) {
      await walCheckpoints?.close();
      db.close();
      throw error;
    }
  }
  // The sandbox's own clock keeps its offset in the database, so advanced time survives a restart
  // (a clock passed in belongs to the caller). Standing still with manualClock.
  const storeOffset = (offsetMs: number) => writeClockOffsetMs(db, offsetMs);
  const clock =
    options.clock ??
    (options.manualClock === true
      ? createStandingClock(readClockOffsetMs(db), storeOffset)
      : createWallClock(readClockOffsetMs(db), storeOffset));
  // Each organization's clock runs ahead of the shared one by its own lead, kept in the database too.
  // An organization that moves its clock for the first time forks from the shared time it had.
  const clocks = createOrganizationClocks(clock, readOrganizationClockLeads(db), (organizationId, leadMs) =>
    writeOrganizationClockLead(db, organizationId, leadMs, clock.now().toISOString()),
  );
  const nowIso = clock.now().toISOString();
  if (options.catalog !== undefined) {
    const catalogFile = completeCatalog(options.catalog, nowIso);
    replaceCatalog(db, catalogFile);
    // Organizations with rates or a clock of their own take the file's rates too, each reading the
    // file's rateUpdatedAt on its own clock (docs/sandbox.md "Rates per organization").
    for (const organizationId of listForkedOrganizations(db))
      for (const entry of catalogFile) {
        const from = insertOrganizationRate(
          db,
          organizationId,
          entry.positionKey,
          entry.currentRateBps,
          entry.rateUpdatedAt,
        );
        rebuildOrganizationSourceAccrualsBehindRate(db, organizationId, entry.positionKey, from);
      }
  } else if (countCatalog(db) === 0) replaceCatalog(db, completeCatalog(DEFAULT_CATALOG, nowIso));
  for (const [organizationId, policy] of Object.entries(options.policies ?? {})) {
    setPolicy(db, organizationId, { ...DEFAULT_POLICY, ...getPolicy(db, organizationId), ...policy }, nowIso);
  }

  const approvals = createApprovalDeps(db, clocks);
  const faults = createFaultRegistry();
  const catalog = (organizationId: string) => listCatalog(db, organizationId);
  const webhookDelivery = { ...DEFAULT_WEBHOOK_DELIVERY, ...options.webhookDelivery };
  const webhookUrlPolicy: WebhookUrlPolicy = {
    allowPrivateNetworks: options.allowPrivateWebhookUrls ?? false,
    ...(options.webhookHostAddresses === undefined ? {} : { hostAddresses: options.webhookHostAddresses }),
  };
  const allowedHosts = [BIND_ADDRESS, ...(options.allowedHosts ?? [])];
  const webhookInboxes = createWebhookInboxes(db, { allowedHosts, now: () => new Date() });
  const webhookDispatcher = createWebhookDispatcher(db, webhookDelivery, webhookUrlPolicy, webhookInboxes);
  const events = createEventSink(db, (registration) => webhookDispatcher.kick(registration), webhookDelivery);
  // The scheduler is created last (it needs every kind of due work); until then, wake is a no-op.
  let dueWork: DueWorkScheduler | null = null;
  const wake = (organizationId: string) => dueWork?.wake(organizationId);
  const money: MoneyDeps = {
    db,
    clocks,
    catalog,
    events,
    approvals,
    faults,
    depositProcessingDelayMs: options.depositProcessingDelayMs ?? DEFAULT_DEPOSIT_PROCESSING_DELAY_MS,
    wake,
    emitWalletFigures: (wallet, at, figureOptions) =>
      emitWalletFigures({ db, catalog, events }, wallet, at, figureOptions),
  };
  const strategyUpdates = createStrategyUpdates({
    db,
    clocks,
    catalog,
    approvals,
    faults,
    rebalanceDelayMs: options.rebalanceDelayMs ?? DEFAULT_REBALANCE_DELAY_MS,
    rebalance: (wallet, targets, at, updateId) => rebalanceWallet(money, wallet, targets, at, updateId),
    onStatusChanged: (update, previousStatus, at) =>
      events.emit(update.organizationId, ...strategyStatusEvent(update, previousStatus), at),
    wake,
  });
  approvals.continuations.set("strategy_update", strategyUpdates.continuation);
  approvals.continuations.set("withdrawal", withdrawalContinuation(money));
  // Strategy updates settle before money work, as on every API request.
  dueWork = createDueWorkScheduler(clocks, [strategyUpdates.dueWork, dueMoneyWork(money)]);
  // A restart picks up what fell due while the sandbox was down.
  dueWork.settleDue();

  const tokens = options.tokens ?? DEFAULT_TOKENS;
  const rateLimiter = createRateLimiter(checkedRateLimit(options.rateLimit));
  const requestGate = createRequestGate();
  const ctx: SandboxContext = {
    db,
    clocks,
    tokens: tokens instanceof Map ? tokens : new Map(Object.entries(tokens)),
    adminAccess: { adminToken: options.adminToken, organizationAdminTokens },
    catalog,
    approvals,
    strategyUpdates,
    faults,
    requestCounter: createRequestCounter(),
    requestLog: createRequestLog(),
    rateLimiter,
    fairTurns: createFairTurns(),
    money,
    dueWork,
    webhookDispatcher,
    webhookUrlPolicy,
    webhookInboxes,
    allowedHosts,
    requestGate,
    snapshotDir:
      options.snapshotDir !== undefined
        ? resolve(options.snapshotDir)
        : (options.dataDir ?? DEFAULT_DATA_DIR) === ":memory:"
          ? null
          : resolve(options.dataDir ?? DEFAULT_DATA_DIR, "snapshots"),
    snapshots: createSnapshots({
      db,
      clocks,
      dueWork,
      webhookDispatcher,
      faults,
      rateLimiter,
      gate: requestGate,
    }),
  };
  const app = createApp(ctx);

  const { server, port } = await new Promise<{ server: ReturnType<typeof serve>; port: number }>(
    (resolve, reject) => {
      const server = serve(
        { fetch: app.fetch, port: options.port ?? DEFAULT_PORT, hostname: BIND_ADDRESS },
        (info: AddressInfo) => resolve({ server, port: info.port }),
      );
      server.once("error", reject);
    },
  );
  webhookInboxes.listening(port);
  // Idle connections are kept a minute (Node's default is 5 s, and it says so to each client in
  // Keep-Alive: timeout=5). A client whose own timers run late (a busy CI machine) can send on a
  // socket just as the sandbox closes it, and read ECONNRESET: seen under a busy-machine test run.
  if ("keepAliveTimeout" in server) {
    server.keepAliveTimeout = KEEP_ALIVE_MS;
    server.headersTimeout = KEEP_ALIVE_MS + 1000;
  }

  let closed: Promise<void> | null = null;
  return {
    url: `http://${BIND_ADDRESS}:${port}`,
    consoleUrl: `http://${BIND_ADDRESS}:${port}${CONSOLE_PREFIX}/`,
    port,
    clock,
    clocks,
    app,
    close() {
      closed ??= (async () => {
        dueWork.close();
        await webhookDispatcher.close();
        await new Promise<void>((resolve) => {
          server.close(() => resolve());
          // Keep-alive connections would hold close() open until they time out.
          if ("closeAllConnections" in server) server.closeAllConnections();
        });
        await walCheckpoints?.close();
        db.close();
      })();
      return closed;
    },
  };
}
