import { setTimeout as sleep } from "node:timers/promises";
import { sameAllocation } from "../sdk/contract/allocation.ts";
import type { PortfolioWallet } from "../sdk/contract/wallet.ts";
import type { StrategyUpdate } from "../sdk/contract/strategy.ts";
import { ConflictError, IdempotencyConflictError } from "../sdk/client/index.ts";
import { approveSigningActivity } from "../sdk/approval/index.ts";
import { containsUnknown } from "./check.ts";
import { targetAllocationOf, type TargetPosition } from "./inputs.ts";
import { strategyUpdateRequestId } from "./requestIds.ts";
import type { ProviderSession } from "./session.ts";

/**
 * The latest strategy change a resource started, as kept in its state. It is what lets a later
 * `up` reuse the same requestId for the same pending change and pick a fresh one otherwise.
 */
export interface StrategyChangeState {
  /** How many strategy changes this resource has started; folded into the requestId. */
  revision: number;
  requestId: string;
  /** `pending_approval`, `processing`, `completed` or `failed`; other statuses may appear. */
  status: string;
  targetPositions: TargetPosition[];
  signingActivityId: string | null;
  signingActivityStatus: string | null;
  /** Approvals still missing at the signing provider, when known. */
  approvalsStillNeeded: number | null;
  failureReason: string | null;
  /**
   * An earlier update of the same target that had failed (for example rejected at the signing
   * provider while it waited for approval), found when this change was requested again.
   */
  supersededFailure: { requestId: string; failureReason: string | null } | null;
}

const STILL_OPEN = new Set(["pending_approval", "processing", "created"]);

/** The requestId and revision for a target: the stored ones for the same open change, else the next revision's. */
function keyFor(urn: string, target: TargetPosition[], previous: StrategyChangeState | null) {
  if (previous && STILL_OPEN.has(previous.status) && sameAllocation(previous.targetPositions, target)) {
    return { revision: previous.revision, requestId: previous.requestId };
  }
  const revision = (previous?.revision ?? 0) + 1;
  return { revision, requestId: strategyUpdateRequestId(urn, revision, target) };
}

function stateOf(update: StrategyUpdate, revision: number, target: TargetPosition[]): StrategyChangeState {
  return {
    revision,
    requestId: update.requestId,
    status: update.status,
    targetPositions: target,
    signingActivityId: update.signingActivityId ?? null,
    signingActivityStatus: update.signingActivityStatus ?? null,
    approvalsStillNeeded: null,
    failureReason: update.failureReason ?? null,
    supersededFailure: null,
  };
}

/** A spent requestId is skipped for the next revision's: only this many are tried in one call. */
const MAX_SPENT_KEYS_SKIPPED = 20;

/**
 * Sends the strategy PATCH; "conflict" when the service knows the requestId with another body.
 * While another update of the wallet is still processing, the service refuses a new one (409):
 * that one will finish on its own, so this waits for it, within the approval timeout.
 */
async function requestUpdate(
  session: ProviderSession,
  walletId: string,
  requestId: string,
  target: TargetPosition[],
): Promise<StrategyUpdate | "conflict"> {
  for (const waitBeforeRetry of waitsWithin(session.settings.approvalTimeoutMs)) {
    try {
      return await session.client.wallets.updateStrategy(walletId, { requestId, positions: target });
    } catch (error) {
      if (IdempotencyConflictError.isInstance(error)) return "conflict";
      if (!ConflictError.isInstance(error)) throw error;
      if (waitBeforeRetry === undefined) {
        throw new Error(
          `wallet ${walletId} is still busy with another strategy update after ${timeoutText(session)} ` +
            `(${error.message}). Let it finish, then run \`pulumi up\` again; raise ` +
            "portfolio-wallet:approvalTimeoutSeconds to wait longer.",
          { cause: error },
        );
      }
      await waitBeforeRetry();
    }
  }
  throw new Error("unreachable: waitsWithin always ends with a last attempt");
}

/**
 * The waits of one bounded poll: exponential backoff from 100 ms to 5 s, for as long as the
 * configured timeout allows. Each item is the wait before the next attempt, or undefined for the
 * last attempt, after which the caller gives up with its own message. The one backoff of the
 * provider's waiting (HTTP retries are the client's, in sdk/client/core/retry.ts).
 */
function* waitsWithin(timeoutMs: number): Generator<(() => Promise<void>) | undefined> {
  const deadline = Date.now() + timeoutMs;
  for (let delayMs = 100; Date.now() + delayMs <= deadline; delayMs = Math.min(delayMs * 2, 5_000)) {
    const wait = delayMs;
    yield () => sleep(wait);
  }
  yield undefined;
}

function timeoutText(session: ProviderSession): string {
  return `${Math.round(session.settings.approvalTimeoutMs / 100) / 10} s`;
}

/**
 * Whether the answer belongs to an earlier update whose requestId is spent, so that this change
 * needs the next revision's key. A brand-new request never answers `failed` at once (a bad body
 * is a 4xx), nor `completed` without the wallet showing its target, so such an answer is the
 * replay of an earlier update with this key: one that failed, or one that completed before the
 * wallet was changed again (a resource re-created under the same URN starts at revision 1 again).
 * A 409 means the key was used with another body: the same URN on another wallet (a WalletStrategy
 * moved to another wallet, or a wallet adopted under a re-used name).
 */
async function isSpent(
  session: ProviderSession,
  walletId: string,
  update: StrategyUpdate | "conflict",
  target: TargetPosition[],
): Promise<boolean> {
  if (update === "conflict" || update.status === "failed") return true;
  if (update.status !== "completed") return false;
  const wallet = await session.client.wallets.retrieve(walletId);
  return !sameAllocation(wallet.strategyConfig.positions, target);
}

/**
 * Moves a wallet to a target allocation through the strategy PATCH, with approval:
 * - the requestId is stable (see requestIds.ts), so a retried or resumed `up` never makes a second update;
 * - `pending_approval` is approved with the configured Turnkey key, then awaited;
 *   without a key, the pending state is returned so that `up` succeeds and shows it;
 * - `failed` throws with the service's failureReason.
 * The one place where approval happens during `pulumi up`.
 */
export async function applyStrategyChange(params: {
  session: ProviderSession;
  walletId: string;
  urn: string;
  target: TargetPosition[];
  previous: StrategyChangeState | null;
}): Promise<{ change: StrategyChangeState; wallet: PortfolioWallet }> {
  const { session, walletId, urn, target } = params;
  let key = keyFor(urn, target, params.previous);
  let answer = await requestUpdate(session, walletId, key.requestId, target);
  let supersededFailure: StrategyChangeState["supersededFailure"] = null;
  for (
    let skipped = 0;
    skipped < MAX_SPENT_KEYS_SKIPPED && (await isSpent(session, walletId, answer, target));
    skipped++
  ) {
    // Kept for the outputs, so a rejection that happened while nobody watched is not lost.
    if (supersededFailure === null && answer !== "conflict" && answer.status === "failed") {
      supersededFailure = { requestId: answer.requestId, failureReason: answer.failureReason ?? null };
    }
    const revision = key.revision + 1;
    key = { revision, requestId: strategyUpdateRequestId(urn, revision, target) };
    answer = await requestUpdate(session, walletId, key.requestId, target);
  }
  if (answer === "conflict") {
    throw new Error(
      `strategy update of wallet ${walletId}: the service holds every requestId tried (up to revision ` +
        `${key.revision}) for other requests of ${urn}. Give the resource a new name to start a new series of keys.`,
    );
  }
  const update = answer;
  let change: StrategyChangeState = { ...stateOf(update, key.revision, target), supersededFailure };
  throwIfFailed(change, walletId);

  if (change.status === "pending_approval") {
    const approver = session.settings.approver;
    if (approver === undefined || change.signingActivityId === null) {
      return { change, wallet: await session.client.wallets.retrieve(walletId) };
    }
    const outcome = await approveSigningActivity(approver, change.signingActivityId);
    change = { ...change, signingActivityStatus: outcome.activityStatus };
    if (outcome.kind === "rejected") {
      throw new Error(
        `strategy update ${change.requestId} of wallet ${walletId} was rejected at the signing provider` +
          `${outcome.reason ? `: ${outcome.reason}` : ""}. Change the target allocation to request a new update.`,
      );
    }
    if (outcome.kind === "failed") {
      throw new Error(
        `the signing activity ${change.signingActivityId} of strategy update ${change.requestId} failed` +
          `${outcome.reason ? `: ${outcome.reason}` : ""}. Run \`pulumi up\` again to retry with the same requestId.`,
      );
    }
    if (outcome.kind === "consensus_needed") {
      // Our vote counted; other approvers must still vote. `up` succeeds and shows the pending state.
      change = { ...change, approvalsStillNeeded: outcome.approvalsStillNeeded ?? null };
      return { change, wallet: await session.client.wallets.retrieve(walletId) };
    }
  }
  return waitUntilApplied({ session, walletId, change });
}

function throwIfFailed(change: StrategyChangeState, walletId: string): void {
  if (change.status === "failed") {
    throw new Error(
      `strategy update ${change.requestId} of wallet ${walletId} failed: ${change.failureReason ?? "the service gave no reason"}. ` +
        "The wallet keeps its previous allocation; fix the cause and run `pulumi up` again to request a new update.",
    );
  }
}

/**
 * Waits until the wallet's strategyConfig shows the target. The spec offers no polling of strategy
 * events, so this polls GET of the wallet, and replays the idempotent PATCH (same requestId, same
 * body) to learn whether the update failed. Bounded backoff; the timeout is configurable.
 */
async function waitUntilApplied(params: {
  session: ProviderSession;
  walletId: string;
  change: StrategyChangeState;
}): Promise<{ change: StrategyChangeState; wallet: PortfolioWallet }> {
  const { session, walletId } = params;
  let change = params.change;
  for (const waitBeforeRetry of waitsWithin(session.settings.approvalTimeoutMs)) {
    const wallet = await session.client.wallets.retrieve(walletId);
    if (sameAllocation(wallet.strategyConfig.positions, change.targetPositions)) {
      return { change: { ...change, status: "completed", approvalsStillNeeded: null }, wallet };
    }
    const replay = await session.client.wallets.updateStrategy(walletId, {
      requestId: change.requestId,
      positions: change.targetPositions,
    });
    change = {
      ...stateOf(replay, change.revision, change.targetPositions),
      signingActivityStatus: replay.signingActivityStatus ?? change.signingActivityStatus,
      supersededFailure: change.supersededFailure,
    };
    throwIfFailed(change, walletId);
    if (replay.status === "completed") {
      // Completed, yet the wallet shows another target: something else changed it since.
      return { change, wallet: await session.client.wallets.retrieve(walletId) };
    }
    if (waitBeforeRetry === undefined) {
      throw new Error(
        `strategy update ${change.requestId} of wallet ${walletId} is still "${change.status}" after ` +
          timeoutText(session) +
          (change.signingActivityId ? ` (signing activity ${change.signingActivityId})` : "") +
          ". Check the update at the service (and its approval at the signing provider), then run `pulumi up` again: " +
          "it resumes with the same requestId. Raise portfolio-wallet:approvalTimeoutSeconds to wait longer.",
      );
    }
    await waitBeforeRetry();
  }
  throw new Error("unreachable: waitsWithin always ends with a last attempt");
}

/**
 * A refresh's view of the latest change: an open change whose target the wallet now applies has
 * completed (approved in the portal, say). Strategy events cannot be polled, so the wallet's
 * strategyConfig is the evidence.
 */
export function settledAgainst(
  change: StrategyChangeState | null,
  applied: readonly TargetPosition[],
): StrategyChangeState | null {
  if (change && STILL_OPEN.has(change.status) && sameAllocation(applied, change.targetPositions)) {
    return { ...change, status: "completed", approvalsStillNeeded: null };
  }
  return change;
}

/**
 * Whether new inputs ask for another allocation than the one in state. Unknown inputs (during
 * preview) count as a change: the engine then shows an update rather than hiding one.
 */
export function allocationChanged(
  current: readonly TargetPosition[] | undefined,
  news: Record<string, unknown>,
): boolean {
  return (
    containsUnknown(news["targetWeightsBps"]) ||
    containsUnknown(news["positions"]) ||
    !sameAllocation(current ?? [], targetAllocationOf(news))
  );
}

/**
 * Brings a wallet that a resource starts managing (created, re-created under the same URN, or
 * adopted) to the code's allocation: a strategy change only when it applies another one.
 */
export async function reconcileAllocation(params: {
  session: ProviderSession;
  wallet: PortfolioWallet;
  urn: string;
  target: TargetPosition[];
}): Promise<{ change: StrategyChangeState | null; wallet: PortfolioWallet }> {
  const { session, wallet, urn, target } = params;
  if (sameAllocation(wallet.strategyConfig.positions, target)) return { change: null, wallet };
  return applyStrategyChange({ session, walletId: wallet.id, urn, target, previous: null });
}

/** The outputs every allocation-managing resource shows about its latest strategy change. */
export function strategyChangeOutputs(change: StrategyChangeState | null) {
  return { strategyChange: change, strategyChangeStatus: change?.status ?? null };
}
