import { randomUUID } from "node:crypto";
import type { DatabaseSync } from "node:sqlite";
import {
  canonicalAllocation,
  unknownPositionKeyProblems,
  type StrategyUpdate,
  type StrategyUpdateRequest,
  type YieldSource,
  SERVICE_OPERATIONS_BY_ID,
} from "../../sdk/nodejs/contract/index.ts";
import { isoAfter, type OrganizationClocks } from "../clock.ts";
import { ConflictError, NotFoundError, ValidationError } from "./errors.ts";
import { inTransaction } from "../store/connection.ts";
import { getPolicy } from "../store/policyStore.ts";
import { findSigningActivity } from "../store/signingActivityStore.ts";
import {
  findStrategyUpdate,
  insertStrategyUpdate,
  listOpenStrategyUpdates,
  listProcessingStrategyUpdates,
  listWalletStrategyUpdates,
  nextStrategyUpdateDueAt,
  updateStrategyUpdateState,
  type StrategyUpdateRecord,
} from "../store/strategyUpdateStore.ts";
import { findWallet, replaceTargets, touchWallet, type TargetRecord } from "../store/walletStore.ts";
import {
  createSigningActivity,
  failSigningActivity,
  type ApprovalContinuation,
  type ApprovalDeps,
} from "./approvals.ts";
import type { FaultRegistry } from "./faults.ts";
import type { DueWork } from "./dueWorkScheduler.ts";
import { idempotencyScopeOf, runIdempotent } from "./idempotency.ts";

/** Idempotency scope of the strategy PATCH. */
export const STRATEGY_UPDATE_ENDPOINT = idempotencyScopeOf(
  SERVICE_OPERATIONS_BY_ID.updatePortfolioWalletStrategy,
);

export interface StrategyUpdateDeps {
  db: DatabaseSync;
  clocks: OrganizationClocks;
  /** The catalog as an organization sees it. */
  catalog: (organizationId: string) => YieldSource[];
  approvals: ApprovalDeps;
  faults: FaultRegistry;
  /** How long a rebalance stays `processing`, on the sandbox clock. */
  rebalanceDelayMs: number;
  /** Moves the wallet's money onto the new targets when an update completes (domain/money/rebalance.ts). */
  rebalance(
    wallet: { id: string; organizationId: string },
    targets: readonly TargetRecord[],
    at: string,
    updateId: string,
  ): void;
  /** Told of every status change, inside the transaction that made it (webhook events). */
  onStatusChanged(update: StrategyUpdateRecord, previousStatus: string | null, at: string): void;
  /** Tells the due-work scheduler that the organization's update started processing (domain/dueWorkScheduler.ts). */
  wake(organizationId: string): void;
}

/**
 * The strategy update lifecycle (spec 3.4):
 * (new) → `pending_approval` (org policy needs approvals) → `processing` once approved;
 * (new) → `processing` directly otherwise; `processing` → `completed` after the rebalance delay
 * (the wallet's strategyConfig changes only now) or → `failed` (injected fault, source gone);
 * `pending_approval` → `failed` when rejected or superseded by a newer update.
 * Due updates settle through the due-work scheduler (`dueWork`): on every API request, on clock
 * advances and by its timer, so state moves without reads.
 */
export interface StrategyUpdates {
  request(
    organizationId: string,
    walletId: string,
    body: StrategyUpdateRequest,
  ): { update: StrategyUpdate; replayed: boolean };
  get(organizationId: string, updateId: string): StrategyUpdate;
  /** A wallet's updates, newest first, at most `limit`; another organization's wallet is not found. */
  listForWallet(organizationId: string, walletId: string, limit: number): StrategyUpdate[];
  /** Processing updates that fall due, for the due-work scheduler: each completes (or fails) at its due time. */
  readonly dueWork: DueWork;
  /** Continues or fails an update once its signing activity is decided (see domain/approvals.ts). */
  readonly continuation: ApprovalContinuation;
}

export function createStrategyUpdates(deps: StrategyUpdateDeps): StrategyUpdates {
  const { db, clocks } = deps;

  function strategyUpdateView(record: StrategyUpdateRecord): StrategyUpdate {
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

  function loadOwnUpdate(organizationId: string, updateId: string): StrategyUpdateRecord {
    const record = findStrategyUpdate(db, organizationId, updateId);
    if (record === null) throw new NotFoundError(`strategy update ${updateId}`);
    return record;
  }

  function notify(organizationId: string, updateId: string, previousStatus: string | null, at: string): void {
    const record = findStrategyUpdate(db, organizationId, updateId);
    if (record !== null && record.status !== previousStatus) deps.onStatusChanged(record, previousStatus, at);
  }

  function startProcessing(record: { id: string; organizationId: string; status: string }, at: string): void {
    const dueAt = isoAfter(at, deps.rebalanceDelayMs);
    updateStrategyUpdateState(db, record.id, { status: "processing", dueAt }, at);
    notify(record.organizationId, record.id, record.status, at);
    deps.wake(record.organizationId);
  }

  function fail(
    record: { id: string; organizationId: string; status: string },
    reason: string,
    at: string,
  ): void {
    updateStrategyUpdateState(db, record.id, { status: "failed", failureReason: reason, dueAt: null }, at);
    notify(record.organizationId, record.id, record.status, at);
  }

  /** Applies the new target and rebalances the wallet's money across it (deps.rebalance). */
  function complete(record: StrategyUpdateRecord, at: string): void {
    const catalog = deps.catalog(record.organizationId);
    const targets: TargetRecord[] = [];
    for (const position of record.positions) {
      const entry = catalog.find((e) => e.positionKey === position.positionKey);
      if (entry === undefined) {
        fail(record, `yield source ${position.positionKey} is no longer in the catalog`, at);
        return;
      }
      targets.push({ ...position, asset: entry.asset, maxProcessingTime: entry.maxProcessingTime });
    }
    replaceTargets(db, record.walletId, targets, at);
    deps.rebalance({ id: record.walletId, organizationId: record.organizationId }, targets, at, record.id);
    touchWallet(db, record.walletId, at);
    updateStrategyUpdateState(db, record.id, { status: "completed", dueAt: null }, at);
    notify(record.organizationId, record.id, record.status, at);
  }

  function settleDue(at: string, organizationId?: string): void {
    for (const record of listProcessingStrategyUpdates(db, at, organizationId)) {
      inTransaction(db, () => {
        // Settle at the moment the update was due, not "now": a clock jump must not reorder history.
        const settledAt = record.dueAt ?? at;
        if (record.plannedFailureReason !== null) fail(record, record.plannedFailureReason, settledAt);
        else complete(record, settledAt);
      });
    }
  }

  function request(organizationId: string, walletId: string, body: StrategyUpdateRequest) {
    const wallet = findWallet(db, organizationId, walletId);
    if (wallet === null) throw new NotFoundError(`portfolio wallet ${walletId}`);
    const unknown = unknownPositionKeyProblems(body.positions, deps.catalog(organizationId));
    if (unknown.length > 0) throw new ValidationError(unknown);
    const positions = body.positions.map((p) => ({
      positionKey: p.positionKey,
      targetWeightBps: p.targetWeightBps,
    }));
    const at = clocks.now(organizationId).toISOString();
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
    return {
      update: strategyUpdateView(loadOwnUpdate(organizationId, outcome.resourceId)),
      replayed: outcome.replayed,
    };
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
      throw new ConflictError(
        `strategy update ${inFlight.id} of this wallet is still rebalancing; retry once it has completed`,
      );
    }
    const id = randomUUID();
    // An update still waiting for approval is replaced by the newer one: approving a stale target
    // later would silently undo the newer request.
    for (const stale of open) {
      const reason = `superseded by strategy update ${id}`;
      fail(stale, reason, at);
      if (stale.signingActivityId !== null)
        failSigningActivity(deps.approvals, stale.signingActivityId, reason, at);
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
      notify(organizationId, id, null, at);
    } else {
      startProcessing({ id, organizationId, status: "processing" }, at);
      notify(organizationId, id, null, at);
    }
    return id;
  }

  const continuation: ApprovalContinuation = {
    onApproved(activity) {
      const record = findStrategyUpdate(db, activity.organizationId, activity.subjectId);
      if (record?.status === "pending_approval") startProcessing(record, activity.updatedAt);
    },
    onRejected(activity, reason) {
      const record = findStrategyUpdate(db, activity.organizationId, activity.subjectId);
      if (record?.status === "pending_approval")
        fail(record, `approval rejected: ${reason}`, activity.updatedAt);
    },
  };

  return {
    request,
    get: (organizationId, updateId) => strategyUpdateView(loadOwnUpdate(organizationId, updateId)),
    listForWallet(organizationId, walletId, limit) {
      if (findWallet(db, organizationId, walletId) === null)
        throw new NotFoundError(`portfolio wallet ${walletId}`);
      return listWalletStrategyUpdates(db, walletId, limit).map(strategyUpdateView);
    },
    dueWork: {
      name: "strategy updates",
      nextDueAt: (organizationId) => nextStrategyUpdateDueAt(db, organizationId),
      settleDue,
    },
    continuation,
  };
}
