import type { TargetAllocation } from "../sdk/nodejs/contract/allocation.ts";
import { UuidSchema } from "../sdk/nodejs/contract/common.ts";
import type { PortfolioWallet } from "../sdk/nodejs/contract/wallet.ts";
import {
  allocationChanges,
  allocationOutputs,
  appliedRatesAfterRead,
  ratesOfTarget,
  checkAllocationInputs,
  refreshedAllocation,
  targetInState,
  warnOfOutsideChange,
} from "./allocationResource.ts";
import { resourceDiffOf, valueChange, type ResourceDiff } from "./resourceDiff.ts";
import { retrieveExistingWallet } from "./existingWallet.ts";
import { walletStrategyDescriptor } from "../sdk/nodejs/resources/walletStrategyDescriptor.ts";
import type { CheckedInputs, DiffInputs } from "./inputs.ts";
import { NO_LONGER_EXISTS, unlessNotFound } from "./notFound.ts";
import type {
  ReadAnswer,
  ReadState,
  ResourceImplementation,
  StoredOutputs,
} from "./resourceImplementation.ts";
import type { ServiceConnection } from "./serviceConnection.ts";
import { applyStrategyChange, reconcileAllocation } from "./strategyChange/applyStrategyChange.ts";
import type { StrategyChangeState } from "./strategyChange/state.ts";

/** Inputs as check() hands them on and state keeps them: the allocation as a map, for readable diffs. */
export type WalletStrategyState = Pick<
  WalletStrategyOutputs,
  "resourceUrn" | "walletId" | "targetWeightsBps"
>;

/** What state keeps: the descriptor's outputs (sdk/nodejs/resources/walletStrategyDescriptor.ts). */
export type WalletStrategyOutputs = StoredOutputs<"walletStrategy">;

const WalletStrategyInputsSchema = walletStrategyDescriptor.inputs;

/** The inputs state keeps, in its key order, from the allocation and the other inputs. */
function stateOf(
  inputs: Pick<CheckedInputs<"walletStrategy">, "resourceUrn" | "walletId">,
  target: TargetAllocation,
): WalletStrategyState {
  return { resourceUrn: inputs.resourceUrn, walletId: inputs.walletId, targetWeightsBps: target.weightsBps };
}

function outputsOf(
  state: WalletStrategyState,
  target: TargetAllocation,
  wallet: PortfolioWallet,
  change: StrategyChangeState | null,
  appliedRatesBps: Record<string, number> | null,
): WalletStrategyOutputs {
  return {
    ...state,
    ...allocationOutputs(target, change, appliedRatesBps),
    blendedRateBps: wallet.blendedRateBps,
  };
}

/** A WalletStrategy's id: the id of the wallet whose allocation it manages, and `/strategy`. */
const strategyIdOf = (walletId: string) => `${walletId}/strategy`;

function walletIdOfStrategyId(id: string): string {
  const walletId = id.endsWith("/strategy") ? id.slice(0, -"/strategy".length) : "";
  if (!UuidSchema.safeParse(walletId).success) {
    throw new Error(
      `"${id}" is not a WalletStrategy id: it is the wallet's id followed by /strategy ` +
        "(for example 0b3f5c1e-1d2a-4c7e-9f10-5a6b7c8d9e01/strategy)",
    );
  }
  return walletId;
}

/**
 * The WalletStrategy dynamic provider: the target allocation of a wallet managed elsewhere (for
 * example created in another stack). Create and update go through the strategy PATCH with the
 * same approval handling as PortfolioWallet; delete stops managing and leaves the allocation as it is.
 */
export const walletStrategyProvider = {
  async check(
    connect: () => ServiceConnection,
    _olds: Record<string, unknown>,
    news: Record<string, unknown>,
  ) {
    return checkAllocationInputs({
      schema: WalletStrategyInputsSchema,
      news,
      connect,
      checkedInputs: (inputs, target) => ({ ...stateOf(inputs, target) }),
    });
  },

  async diff(
    connect: () => ServiceConnection,
    _id: string,
    olds: WalletStrategyOutputs,
    news: DiffInputs<"walletStrategy">,
  ): Promise<ResourceDiff> {
    const walletChange = valueChange(olds.walletId, news.walletId, { replaces: true });
    const changes = allocationChanges(olds, news.targetWeightsBps);
    // A move to another wallet is a replacement (a create there), not an update of this one.
    if (walletChange === undefined) {
      const target = news.targetWeightsBps;
      await warnOfOutsideChange({ connect, walletId: olds.walletId, olds, target, changes });
    }
    // Another wallet is another thing to manage: replacing only moves management, no funds.
    return resourceDiffOf({ walletId: walletChange, ...changes });
  },

  async create(
    connect: () => ServiceConnection,
    news: CheckedInputs<"walletStrategy">,
  ): Promise<{ id: string; outs: WalletStrategyOutputs }> {
    const target = news.targetWeightsBps;
    const state = stateOf(news, target);
    const connection = connect();
    const managed = await retrieveExistingWallet(connection, state.walletId, "walletId");
    const { change, wallet } = await reconcileAllocation({
      connection,
      wallet: managed,
      urn: state.resourceUrn,
      target,
    });
    const rates = await ratesOfTarget(connection, target);
    return { id: strategyIdOf(state.walletId), outs: outputsOf(state, target, wallet, change, rates) };
  },

  async read(
    connect: () => ServiceConnection,
    id: string,
    props: ReadState<"walletStrategy">,
  ): Promise<ReadAnswer<"walletStrategy">> {
    // `pulumi import` reads with no state yet: the id names the wallet.
    const walletId = props.walletId ?? walletIdOfStrategyId(id);
    const wallet = await unlessNotFound(connect().client.wallets.retrieve(walletId));
    if (wallet === undefined) return NO_LONGER_EXISTS;
    const { live, change } = refreshedAllocation(wallet, props.strategyChange);
    const state: WalletStrategyState = {
      resourceUrn: props.resourceUrn,
      walletId,
      targetWeightsBps: live.weightsBps,
    };
    return {
      id,
      props: outputsOf(state, live, wallet, change, appliedRatesAfterRead(props, live)),
      inputs: state,
    };
  },

  async update(
    connect: () => ServiceConnection,
    _id: string,
    olds: WalletStrategyOutputs,
    news: CheckedInputs<"walletStrategy">,
  ): Promise<{ outs: WalletStrategyOutputs }> {
    const target = news.targetWeightsBps;
    const state = stateOf(news, target);
    const connection = connect();
    const rates = await ratesOfTarget(connection, target);
    const { change, wallet } = await applyStrategyChange({
      connection,
      walletId: state.walletId,
      urn: state.resourceUrn,
      target,
      previous: olds.strategyChange ?? null,
      recorded: targetInState(olds),
    });
    return { outs: outputsOf(state, target, wallet, change, rates) };
  },

  /** Stops managing the allocation; the wallet keeps the allocation it has. No request is made. */
  async delete(): Promise<void> {},
} satisfies ResourceImplementation<"walletStrategy">;
