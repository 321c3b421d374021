import { randomUUID } from "node:crypto";
import type { DatabaseSync } from "node:sqlite";
import {
  canonicalAllocation,
  TOTAL_WEIGHT_BPS,
  type StrategyUpdate,
  type StrategyUpdateRequest,
  type YieldSource,
} from "../../sdk/contract/index.ts";
import type { SandboxClock } from "../clock.ts";
import { HttpError } from "../http/errors.ts";
import { inTransaction } from "../store/db.ts";
import { getPolicy } from "../store/policyStore.ts";
import { findSigningActivity } from "../store/signingActivityStore.ts";
import {
  findStrategyUpdate,
  insertStrategyUpdate,
  listOpenStrategyUpdates,
  listProcessingStrategyUpdates,
  updateStrategyUpdateState,
  type StrategyUpdateRecord,
} from "../store/strategyUpdateStore.ts";
import {
  findWallet,
  listBalances,
  replaceTargets,
  setBalance,
  touchWallet,
  type TargetRecord,
} from "../store/walletStore.ts";
import {
  createSigningActivity,
  failSigningActivity,
  type ApprovalContinuation,
  type ApprovalDeps,
} from "./approvals.ts";
import { unknownPositionKeyProblems } from "./catalog.ts";
import type { FaultRegistry } from "./faults.ts";
import { runIdempotent } from "./idempotency.ts";

/** Idempotency scope of the strategy PATCH. */
export const STRATEGY_UPDATE_ENDPOINT = "PATCH /v2/portfolio-wallets/:id/strategy";

export interface StrategyUpdateDeps {
  db: DatabaseSync;
  clock: SandboxClock;
  catalog: () => YieldSource[];
  approvals: ApprovalDeps;
  faults: FaultRegistry;
  /** How long a rebalance stays `processing`, on the sandbox clock. */
  rebalanceDelayMs: number;
}

/**
 * The strategy update lifecycle (spec 3.4):
 * (new) → `pending_approval` (org policy needs approvals) → `processing` once approved;
 * (new) → `processing` directly otherwise; `processing` → `completed` after the rebalance delay
 * (the wallet's strategyConfig changes only now) or → `failed` (injected fault, source gone);
 * `pending_approval` → `failed` when rejected or superseded by a newer update.
 * Due updates settle lazily on every API request and by a timer, so state moves without reads.
 */
export interface StrategyUpdates {
  request(
    organizationId: string,
    walletId: string,
    body: StrategyUpdateRequest,
  ): { update: StrategyUpdate; replayed: boolean };
  get(organizationId: string, updateId: string): StrategyUpdate;
  /** Completes every `processing` update that is due on the sandbox clock. */
  settleDue(): void;
  /** Continues or fails an update once its signing activity is decided (see domain/approvals.ts). */
  readonly continuation: ApprovalContinuation;
  /** Stops the timers (the sandbox is closing). */
  close(): void;
}

export function createStrategyUpdates(deps: StrategyUpdateDeps): StrategyUpdates {
  const { db, clock } = deps;
  const timers = new Map<string, NodeJS.Timeout>();
  const now = () => clock.now().toISOString();

  function view(record: StrategyUpdateRecord): StrategyUpdate {
    const activity =
      record.signingActivityId === null
        ? null
        : findSigningActivity(db, record.organizationId, record.signingActivityId);
    return {
      id: record.id,
      requestId: record.requestId,
      portfolioWalletId: record.walletId,
      status: record.status,
      positions: record.positions,
      signingActivityId: record.signingActivityId,
      signingActivityStatus: activity?.status ?? null,
      failureReason: record.failureReason,
      createdAt: record.createdAt,
      updatedAt: record.updatedAt,
    };
  }

  function load(organizationId: string, updateId: string): StrategyUpdateRecord {
    const record = findStrategyUpdate(db, organizationId, updateId);
    if (record === null) throw HttpError.notFound(`strategy update ${updateId}`);
    return record;
  }

  /** Arms a timer for a processing update; if it fires early (sandbox clock behind), it re-arms. */
  function schedule(record: { id: string; dueAt: string | null }): void {
    if (record.dueAt === null || timers.has(record.id)) return;
    const remaining = Math.max(1, Date.parse(record.dueAt) - clock.now().getTime());
    const timer = setTimeout(() => {
      timers.delete(record.id);
      settleDue();
      const still = listProcessingStrategyUpdates(db).find((u) => u.id === record.id);
      if (still !== undefined) schedule(still);
    }, remaining);
    timer.unref();
    timers.set(record.id, timer);
  }

  function startProcessing(updateId: string, at: string): void {
    const dueAt = new Date(Date.parse(at) + deps.rebalanceDelayMs).toISOString();
    updateStrategyUpdateState(db, updateId, { status: "processing", dueAt }, at);
    schedule({ id: updateId, dueAt });
  }

  function fail(updateId: string, reason: string, at: string): void {
    updateStrategyUpdateState(db, updateId, { status: "failed", failureReason: reason, dueAt: null }, at);
  }

  /**
   * Applies the new target and rebalances the wallet's value across it. Prices are 1 unit = 1 USD
   * in the sandbox, so balanceUnits equal valueUsd; a later issue may price assets.
   */
  function complete(record: StrategyUpdateRecord, at: string): void {
    const catalog = deps.catalog();
    const targets: TargetRecord[] = [];
    for (const position of record.positions) {
      const entry = catalog.find((e) => e.positionKey === position.positionKey);
      if (entry === undefined) {
        fail(record.id, `yield source ${position.positionKey} is no longer in the catalog`, at);
        return;
      }
      targets.push({ ...position, asset: entry.asset, maxProcessingTime: entry.maxProcessingTime });
    }
    const balances = listBalances(db, record.walletId);
    const totalUsd = balances.reduce((sum, b) => sum + b.valueUsd, 0);
    replaceTargets(db, record.walletId, targets, at);
    for (const balance of balances) {
      if (!targets.some((t) => t.positionKey === balance.positionKey)) {
        setBalance(
          db,
          record.walletId,
          { positionKey: balance.positionKey, balanceUnits: 0, valueUsd: 0 },
          at,
        );
      }
    }
    for (const target of targets) {
      const valueUsd = (totalUsd * target.targetWeightBps) / TOTAL_WEIGHT_BPS;
      setBalance(
        db,
        record.walletId,
        { positionKey: target.positionKey, balanceUnits: valueUsd, valueUsd },
        at,
      );
    }
    touchWallet(db, record.walletId, at);
    updateStrategyUpdateState(db, record.id, { status: "completed", dueAt: null }, at);
  }

  function settleDue(): void {
    const at = now();
    for (const record of listProcessingStrategyUpdates(db, at)) {
      inTransaction(db, () => {
        // Settle at the moment the update was due, not "now": a clock jump must not reorder history.
        const settledAt = record.dueAt ?? at;
        if (record.plannedFailureReason !== null) fail(record.id, record.plannedFailureReason, settledAt);
        else complete(record, settledAt);
      });
      const timer = timers.get(record.id);
      if (timer !== undefined) clearTimeout(timer);
      timers.delete(record.id);
    }
  }

  function request(organizationId: string, walletId: string, body: StrategyUpdateRequest) {
    const wallet = findWallet(db, organizationId, walletId);
    if (wallet === null) throw HttpError.notFound(`portfolio wallet ${walletId}`);
    const unknown = unknownPositionKeyProblems(body.positions, deps.catalog());
    if (unknown.length > 0) throw HttpError.validation(unknown);
    const positions = body.positions.map((p) => ({
      positionKey: p.positionKey,
      targetWeightBps: p.targetWeightBps,
    }));
    const at = now();
    const outcome = runIdempotent(
      db,
      {
        organizationId,
        endpoint: STRATEGY_UPDATE_ENDPOINT,
        requestId: body.requestId,
        // The wallet is part of the operation: the same requestId on another wallet is a conflict.
        canonicalBody: { walletId, positions: canonicalAllocation(positions) },
      },
      () => createUpdate(organizationId, walletId, body.requestId, positions, at),
      at,
    );
    return { update: view(load(organizationId, outcome.resourceId)), replayed: outcome.replayed };
  }

  function createUpdate(
    organizationId: string,
    walletId: string,
    requestId: string,
    positions: StrategyUpdateRecord["positions"],
    at: string,
  ): string {
    const open = listOpenStrategyUpdates(db, walletId);
    const inFlight = open.find((u) => u.status === "processing");
    if (inFlight !== undefined) {
      throw new HttpError(
        409,
        "conflict",
        `strategy update ${inFlight.id} of this wallet is still rebalancing; retry once it has completed`,
      );
    }
    const id = randomUUID();
    // An update still waiting for approval is replaced by the newer one: approving a stale target
    // later would silently undo the newer request.
    for (const stale of open) {
      const reason = `superseded by strategy update ${id}`;
      fail(stale.id, reason, at);
      if (stale.signingActivityId !== null)
        failSigningActivity(deps.approvals, stale.signingActivityId, reason);
    }
    const requiredApprovals = getPolicy(db, organizationId).strategyUpdateApprovals;
    insertStrategyUpdate(db, {
      id,
      organizationId,
      walletId,
      requestId,
      status: requiredApprovals > 0 ? "pending_approval" : "processing",
      positions,
      signingActivityId: null,
      failureReason: null,
      plannedFailureReason: deps.faults.takeStrategyFailure(organizationId, walletId),
      dueAt: null,
      createdAt: at,
      updatedAt: at,
    });
    if (requiredApprovals > 0) {
      const activity = createSigningActivity(deps.approvals, {
        organizationId,
        kind: "strategy_update",
        subjectId: id,
        requiredApprovals,
      });
      updateStrategyUpdateState(db, id, { status: "pending_approval", signingActivityId: activity.id }, at);
    } else {
      startProcessing(id, at);
    }
    return id;
  }

  const continuation: ApprovalContinuation = {
    onApproved(activity) {
      const record = findStrategyUpdate(db, activity.organizationId, activity.subjectId);
      if (record?.status === "pending_approval") startProcessing(record.id, activity.updatedAt);
    },
    onRejected(activity, reason) {
      const record = findStrategyUpdate(db, activity.organizationId, activity.subjectId);
      if (record?.status === "pending_approval")
        fail(record.id, `approval rejected: ${reason}`, activity.updatedAt);
    },
  };

  // A restart picks up where the previous process left off.
  settleDue();
  for (const record of listProcessingStrategyUpdates(db)) schedule(record);

  return {
    request,
    get: (organizationId, updateId) => view(load(organizationId, updateId)),
    settleDue,
    continuation,
    close() {
      for (const timer of timers.values()) clearTimeout(timer);
      timers.clear();
    },
  };
}
