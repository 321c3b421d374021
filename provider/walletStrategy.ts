import type * as dynamic from "@pulumi/pulumi/dynamic/index.js";
import type { PortfolioWallet } from "../sdk/contract/wallet.ts";
import { containsUnknown, unknownPositionKeyFailures, validateInputs } from "./check.ts";
import type { ConfigSource } from "../sdk/settings.ts";
import {
  WalletStrategyInputsSchema,
  targetAllocationOf,
  targetWeightsByKey,
  withoutPositions,
  type TargetPosition,
} from "./inputs.ts";
import { retrieveExistingWallet } from "./existingWallet.ts";
import { GONE, unlessGone } from "./gone.ts";
import { sessionFor } from "./session.ts";
import {
  applyStrategyChange,
  settledAgainst,
  type StrategyChangeState,
  allocationChanged,
  reconcileAllocation,
  strategyChangeOutputs,
} from "./strategyChange.ts";
import { appliedTarget } from "./walletOutputs.ts";

/** Inputs as check() hands them on and state keeps them: the allocation as a map, for readable diffs. */
export interface WalletStrategyState {
  resourceUrn: string;
  walletId: string;
  targetWeightsBps: Record<string, number>;
}

export type WalletStrategyOutputs = WalletStrategyState & {
  /** The target allocation as an array, sorted by positionKey. */
  positions: TargetPosition[];
  /** The allocation the service applies now, with each source's asset and liquidity limit. */
  strategyConfig: PortfolioWallet["strategyConfig"];
  blendedRateBps: number;
  strategyChange: StrategyChangeState | null;
  strategyChangeStatus: string | null;
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
    positions: target,
    strategyConfig: wallet.strategyConfig,
    blendedRateBps: wallet.blendedRateBps,
    ...strategyChangeOutputs(change),
  };
}

/**
 * The WalletStrategy dynamic provider: the target allocation of a wallet managed elsewhere (for
 * example created in another stack). Create and update go through the strategy PATCH with the
 * same approval handling as PortfolioWallet; delete stops managing and leaves the allocation as it is.
 */
export const walletStrategyProvider = {
  async check(
    config: ConfigSource | undefined,
    _olds: Record<string, unknown>,
    news: Record<string, unknown>,
  ) {
    const { inputs, failures, complete } = validateInputs(WalletStrategyInputsSchema, news);
    if (failures.length > 0) return { failures };
    if (inputs === undefined) return { inputs: news };
    const keyFailures = unknownPositionKeyFailures(inputs.positions, await sessionFor(config).catalog());
    if (keyFailures.length > 0) return { failures: keyFailures };
    return { inputs: complete ? { ...withoutPositions(news), ...parseInputs(news).state } : news };
  },

  // callProviderOf() passes the configuration first to every method, diff included.
  async diff(
    _config: ConfigSource | undefined,
    _id: string,
    olds: WalletStrategyOutputs,
    news: Record<string, unknown>,
  ): Promise<dynamic.DiffResult> {
    const walletChanged = containsUnknown(news["walletId"]) || olds.walletId !== news["walletId"];
    const positionsChanged = allocationChanged(olds.positions, news);
    // Another wallet is another thing to manage: replacing only moves management, no funds.
    return {
      changes: walletChanged || positionsChanged,
      replaces: walletChanged ? ["walletId"] : [],
      deleteBeforeReplace: false,
    };
  },

  async create(
    config: ConfigSource | undefined,
    news: Record<string, unknown>,
  ): Promise<dynamic.CreateResult> {
    const { state, target } = parseInputs(news);
    const session = sessionFor(config);
    const managed = await retrieveExistingWallet(session, state.walletId, "walletId");
    const { change, wallet } = await reconcileAllocation({
      session,
      wallet: managed,
      urn: state.resourceUrn,
      target,
    });
    return { id: `${state.walletId}/strategy`, outs: outputsOf(state, target, wallet, change) };
  },

  async read(
    config: ConfigSource | undefined,
    id: string,
    props: WalletStrategyOutputs,
  ): Promise<dynamic.ReadResult> {
    const wallet = await unlessGone(sessionFor(config).client.wallets.retrieve(props.walletId));
    if (wallet === undefined) return GONE;
    const live = appliedTarget(wallet);
    const change = settledAgainst(props.strategyChange ?? null, live);
    const state: WalletStrategyState = {
      resourceUrn: props.resourceUrn,
      walletId: props.walletId,
      targetWeightsBps: targetWeightsByKey(live),
    };
    return { id, props: outputsOf(state, live, wallet, change), inputs: state };
  },

  async update(
    config: ConfigSource | undefined,
    _id: string,
    olds: WalletStrategyOutputs,
    news: Record<string, unknown>,
  ): Promise<dynamic.UpdateResult> {
    const { state, target } = parseInputs(news);
    const { change, wallet } = await applyStrategyChange({
      session: sessionFor(config),
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
