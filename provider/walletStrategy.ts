import type * as dynamic from "@pulumi/pulumi/dynamic/index.js";
import type { PortfolioWallet } from "../sdk/contract/wallet.ts";
import {
  allocationChanges,
  allocationOutputs,
  checkAllocationInputs,
  refreshedAllocation,
} from "./allocationResource.ts";
import { resourceDiffOf, valueChange, type ResourceDiff } from "./resourceDiff.ts";
import { retrieveExistingWallet } from "./existingWallet.ts";
import {
  WalletStrategyInputsSchema,
  targetAllocationOf,
  targetWeightsByKey,
  type TargetPosition,
} from "./inputs.ts";
import { NO_LONGER_EXISTS, unlessNotFound } from "./notFound.ts";
import type { ServiceConnection } from "./serviceConnection.ts";
import { applyStrategyChange, reconcileAllocation } from "./strategyChange/applyStrategyChange.ts";
import type { StrategyChangeState } from "./strategyChange/state.ts";

/** Inputs as check() hands them on and state keeps them: the allocation as a map, for readable diffs. */
export interface WalletStrategyState {
  resourceUrn: string;
  walletId: string;
  targetWeightsBps: Record<string, number>;
}

export type WalletStrategyOutputs = WalletStrategyState &
  ReturnType<typeof allocationOutputs> & {
    /** Blended rate of the wallet in basis points. */
    blendedRateBps: number;
  };

/** The state of checked inputs (or of program inputs) and their target allocation. */
function parseInputs(news: Record<string, unknown>): {
  state: WalletStrategyState;
  target: TargetPosition[];
} {
  const target = targetAllocationOf(news);
  const inputs = WalletStrategyInputsSchema.omit({ positions: true }).parse(news);
  return {
    target,
    state: {
      resourceUrn: inputs.resourceUrn,
      walletId: inputs.walletId,
      targetWeightsBps: targetWeightsByKey(target),
    },
  };
}

function outputsOf(
  state: WalletStrategyState,
  target: TargetPosition[],
  wallet: PortfolioWallet,
  change: StrategyChangeState | null,
): WalletStrategyOutputs {
  return {
    ...state,
    ...allocationOutputs(target, change),
    blendedRateBps: wallet.blendedRateBps,
  };
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
      checkedInputs: (checked) => ({ ...parseInputs(checked).state }),
    });
  },

  async diff(
    _connect: () => ServiceConnection,
    _id: string,
    olds: WalletStrategyOutputs,
    news: Record<string, unknown>,
  ): Promise<ResourceDiff> {
    // Another wallet is another thing to manage: replacing only moves management, no funds.
    return resourceDiffOf({
      walletId: valueChange(olds.walletId, news["walletId"], { replaces: true }),
      ...allocationChanges(olds, news),
    });
  },

  async create(
    connect: () => ServiceConnection,
    news: Record<string, unknown>,
  ): Promise<dynamic.CreateResult> {
    const { state, target } = parseInputs(news);
    const connection = connect();
    const managed = await retrieveExistingWallet(connection, state.walletId, "walletId");
    const { change, wallet } = await reconcileAllocation({
      connection,
      wallet: managed,
      urn: state.resourceUrn,
      target,
    });
    return { id: `${state.walletId}/strategy`, outs: outputsOf(state, target, wallet, change) };
  },

  async read(
    connect: () => ServiceConnection,
    id: string,
    props: WalletStrategyOutputs,
  ): Promise<dynamic.ReadResult> {
    const wallet = await unlessNotFound(connect().client.wallets.retrieve(props.walletId));
    if (wallet === undefined) return NO_LONGER_EXISTS;
    const { live, change } = refreshedAllocation(wallet, props.strategyChange);
    const state: WalletStrategyState = {
      resourceUrn: props.resourceUrn,
      walletId: props.walletId,
      targetWeightsBps: targetWeightsByKey(live),
    };
    return { id, props: outputsOf(state, live, wallet, change), inputs: state };
  },

  async update(
    connect: () => ServiceConnection,
    _id: string,
    olds: WalletStrategyOutputs,
    news: Record<string, unknown>,
  ): Promise<dynamic.UpdateResult> {
    const { state, target } = parseInputs(news);
    const { change, wallet } = await applyStrategyChange({
      connection: connect(),
      walletId: state.walletId,
      urn: state.resourceUrn,
      target,
      previous: olds.strategyChange ?? null,
    });
    return { outs: outputsOf(state, target, wallet, change) };
  },

  /** Stops managing the allocation; the wallet keeps the allocation it has. No request is made. */
  async delete(): Promise<void> {},
};
