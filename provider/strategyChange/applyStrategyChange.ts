import { sameAllocation } from "../../sdk/nodejs/contract/allocation.ts";
import type { PortfolioWallet } from "../../sdk/nodejs/contract/wallet.ts";
import { ConflictError, IdempotencyConflictError } from "../../sdk/nodejs/client/index.ts";
import type { TargetAllocation } from "../../sdk/nodejs/contract/allocation.ts";
import type { ServiceConnection } from "../serviceConnection.ts";
import { appliedTarget } from "../walletOutputs.ts";
import { approvePendingChange, sayAwaitingApproval } from "./approval.ts";
import { waitsWithin } from "../../sdk/nodejs/client/boundedWaits.ts";
import { secondsText } from "../../sdk/nodejs/retryWording.ts";
import {
  keySpentBy,
  MAX_SPENT_KEYS_SKIPPED,
  nextRevisionKey,
  requestKeyForTarget,
  type ChangeAnswer,
  type ChangeRequestKey,
} from "./requestKey.ts";
import { changeStateOf, isOpenStatus, type StrategyChangeState } from "./state.ts";
import { allocationAtService, describeAllocation } from "./outsideChange.ts";

/**
 * Moves a wallet to a target allocation through the strategy PATCH (the requests; the decisions
 * are in state.ts and requestKey.ts):
 * - the requestId is stable, so a retried or resumed `up` never makes a second update;
 * - `pending_approval` is approved with the configured Turnkey key (approval.ts), then awaited;
 *   without a key, the pending state is returned so that `up` succeeds and shows it;
 * - `failed` throws with the service's failureReason;
 * - with `recorded` (an update of a resource the stack already manages), nothing is sent when the
 *   wallet's allocation was changed outside the stack, unless the stack says to overwrite it.
 */
export async function applyStrategyChange(params: {
  connection: ServiceConnection;
  walletId: string;
  urn: string;
  target: TargetAllocation;
  previous: StrategyChangeState | null;
  /** The allocation the state holds; absent where the stack starts managing the wallet (create, adoption). */
  recorded?: TargetAllocation;
}): Promise<{ change: StrategyChangeState; wallet: PortfolioWallet }> {
  const { connection, walletId, urn, target, recorded, previous } = params;
  // Checked before the first PATCH, and again after waiting out another update (whose result is
  // exactly such a change when it was not this stack's).
  const beforeSending =
    recorded === undefined
      ? async () => {}
      : () => refuseOutsideChange({ connection, walletId, target, recorded, previous });
  const { key, answer, supersededFailure } = await requestWithUnspentKey(
    connection,
    walletId,
    urn,
    target,
    requestKeyForTarget(urn, target, previous),
    beforeSending,
  );
  let change: StrategyChangeState = { ...changeStateOf(answer, key.revision, target), supersededFailure };
  throwIfFailed(change, walletId);
  if (change.status === "pending_approval") {
    const approval = await approvePendingChange(connection, walletId, change);
    change = approval.change;
    if (!approval.approved) {
      sayAwaitingApproval(connection, walletId, change);
      return { change, wallet: await connection.client.wallets.retrieve(walletId) };
    }
  }
  return waitUntilApplied(connection, walletId, change);
}

/**
 * Before a strategy update of a wallet the stack manages: the wallet's allocation at the service
 * must be one the stack can account for (outsideChange.ts), or what was reviewed is not what the
 * update moves. When the stack's last change may still be open, its PATCH is replayed (same
 * requestId, same body: no new update) to learn whether it is: while it waits, no other update
 * can have been applied (the service supersedes a waiting update, or refuses one beside a
 * processing one).
 */
async function refuseOutsideChange(params: {
  connection: ServiceConnection;
  walletId: string;
  target: TargetAllocation;
  recorded: TargetAllocation;
  previous: StrategyChangeState | null;
}): Promise<void> {
  const { connection, walletId, target, recorded, previous } = params;
  const wallet = await connection.client.wallets.retrieve(walletId);
  const service = appliedTarget(wallet);
  const found = allocationAtService({ recorded, recordedChange: previous, service, codeTarget: target });
  let why: string;
  switch (found.verdict) {
    case "as recorded":
    case "the code's target":
      return;
    case "awaiting the stack's change": {
      const replay = await replayOpenChange(connection, walletId, found.change);
      if (replay !== "conflict" && isOpenStatus(replay.status)) return;
      why =
        replay === "conflict"
          ? `the service no longer knows this stack's strategy update ${found.change.requestId} with its allocation`
          : `this stack's strategy update ${found.change.requestId} (to ${describeAllocation(found.change.targetPositions)}) ` +
            `is ${replay.status} at the service${replay.failureReason ? ` (${replay.failureReason})` : ""}, ` +
            "and the wallet does not hold its allocation";
      break;
    }
    case "changed outside":
      why = `this stack's state recorded ${describeAllocation(found.recorded)}`;
      break;
  }
  const what =
    `wallet ${walletId}: the service holds ${describeAllocation(service)}; ${why}. ` +
    `The code asks for ${describeAllocation(target)}.`;
  if (connection.settings.outsideChanges === "overwrite") {
    connection.say(
      "warning",
      `overwriting an allocation changed outside this stack (portfolio-wallet:outsideChanges is overwrite): ${what}`,
    );
    return;
  }
  throw new Error(
    `${what} The allocation was changed outside this stack (a console, another tool or stack), so no strategy ` +
      "update was sent: applying the code's now would move money that no review saw. Ways on: run `pulumi refresh`, " +
      "then preview again and review the change from the service's allocation (the report shows its dollars); " +
      "`portfolio-wallet drift` lists every such change in the stack; or, to let the code win, " +
      "`pulumi config set portfolio-wallet:outsideChanges overwrite` and run `pulumi up` again.",
  );
}

/** The answer to the stack's own open change, asked again with its requestId and body. */
async function replayOpenChange(
  connection: ServiceConnection,
  walletId: string,
  change: StrategyChangeState,
): Promise<ChangeAnswer> {
  try {
    return await connection.client.wallets.updateStrategy(walletId, {
      requestId: change.requestId,
      positions: change.targetPositions,
    });
  } catch (error) {
    if (IdempotencyConflictError.isInstance(error)) return "conflict";
    throw error;
  }
}

/**
 * Brings a wallet that a resource starts managing (created, re-created under the same URN, or
 * adopted) to the code's allocation: a strategy change only when it applies another one.
 */
export async function reconcileAllocation(params: {
  connection: ServiceConnection;
  wallet: PortfolioWallet;
  urn: string;
  target: TargetAllocation;
}): Promise<{ change: StrategyChangeState | null; wallet: PortfolioWallet }> {
  const { connection, wallet, urn, target } = params;
  if (sameAllocation(wallet.strategyConfig.positions, target)) return { change: null, wallet };
  return applyStrategyChange({ connection, walletId: wallet.id, urn, target, previous: null });
}

/**
 * Sends the PATCH, and again with the next revision's key while the answer shows the key spent
 * (requestKey.ts says when). A failure found on the way is kept, so that a rejection that happened
 * while nobody watched is not lost.
 */
async function requestWithUnspentKey(
  connection: ServiceConnection,
  walletId: string,
  urn: string,
  target: TargetAllocation,
  firstKey: ChangeRequestKey,
  beforeSending: () => Promise<void>,
): Promise<{
  key: ChangeRequestKey;
  answer: Exclude<ChangeAnswer, "conflict">;
  supersededFailure: StrategyChangeState["supersededFailure"];
}> {
  let key = firstKey;
  let answer = await requestUpdate(connection, walletId, key.requestId, target, beforeSending);
  let supersededFailure: StrategyChangeState["supersededFailure"] = null;
  for (let skipped = 0; skipped < MAX_SPENT_KEYS_SKIPPED; skipped++) {
    const verdict = keySpentBy(answer);
    const spent =
      verdict === "spent" ||
      (verdict === "check the wallet" &&
        !sameAllocation(
          (await connection.client.wallets.retrieve(walletId)).strategyConfig.positions,
          target,
        ));
    if (!spent) break;
    if (supersededFailure === null && answer !== "conflict" && answer.status === "failed") {
      supersededFailure = { requestId: answer.requestId, failureReason: answer.failureReason ?? null };
    }
    key = nextRevisionKey(urn, target, key.revision);
    answer = await requestUpdate(connection, walletId, key.requestId, target, async () => {});
  }
  if (answer === "conflict") {
    throw new Error(
      `strategy update of wallet ${walletId}: the service holds every requestId tried (up to revision ` +
        `${key.revision}) for other requests of ${urn}. Give the resource a new name to start a new series of keys.`,
    );
  }
  return { key, answer, supersededFailure };
}

/**
 * Sends the strategy PATCH; "conflict" when the service knows the requestId with another body.
 * While another update of the wallet is still processing, the service refuses a new one (409):
 * that one will finish on its own, so this waits for it, within the approval timeout.
 * `beforeSending` runs before each attempt (the outside-change check).
 */
async function requestUpdate(
  connection: ServiceConnection,
  walletId: string,
  requestId: string,
  target: TargetAllocation,
  beforeSending: () => Promise<void>,
): Promise<ChangeAnswer> {
  const timeoutMs = connection.settings.approvalTimeoutMs;
  for (const waitBeforeRetry of waitsWithin(timeoutMs)) {
    await beforeSending();
    try {
      return await connection.client.wallets.updateStrategy(walletId, {
        requestId,
        positions: target.toPositions(),
      });
    } catch (error) {
      if (IdempotencyConflictError.isInstance(error)) return "conflict";
      if (!ConflictError.isInstance(error)) throw error;
      if (waitBeforeRetry === undefined) {
        throw new Error(
          `wallet ${walletId} is still busy with another strategy update after ${secondsText(timeoutMs)} ` +
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
async function waitUntilApplied(
  connection: ServiceConnection,
  walletId: string,
  approved: StrategyChangeState,
): Promise<{ change: StrategyChangeState; wallet: PortfolioWallet }> {
  const timeoutMs = connection.settings.approvalTimeoutMs;
  let change = approved;
  for (const waitBeforeRetry of waitsWithin(timeoutMs)) {
    const wallet = await connection.client.wallets.retrieve(walletId);
    if (sameAllocation(wallet.strategyConfig.positions, change.targetPositions)) {
      return { change: { ...change, status: "completed", approvalsStillNeeded: null }, wallet };
    }
    const replay = await connection.client.wallets.updateStrategy(walletId, {
      requestId: change.requestId,
      positions: change.targetPositions,
    });
    change = {
      ...changeStateOf(replay, change.revision, change.targetPositions),
      signingActivityStatus: replay.signingActivityStatus ?? change.signingActivityStatus,
      supersededFailure: change.supersededFailure,
    };
    throwIfFailed(change, walletId);
    if (replay.status === "completed") {
      // Completed, yet the wallet shows another target: something else changed it since.
      return { change, wallet: await connection.client.wallets.retrieve(walletId) };
    }
    if (waitBeforeRetry === undefined) {
      throw new Error(
        `strategy update ${change.requestId} of wallet ${walletId} is still "${change.status}" after ` +
          secondsText(timeoutMs) +
          (change.signingActivityId ? ` (signing activity ${change.signingActivityId})` : "") +
          ". Check the update at the service (and its approval at the signing provider), then run `pulumi up` again: " +
          "it resumes with the same requestId. Raise portfolio-wallet:approvalTimeoutSeconds to wait longer.",
      );
    }
    await waitBeforeRetry();
  }
  throw new Error("unreachable: waitsWithin always ends with a last attempt");
}
