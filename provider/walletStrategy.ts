import type * as dynamic from "@pulumi/pulumi/dynamic/index.js";
import { canonicalAllocation, sameAllocation } from "../sdk/contract/allocation.ts";
import type { PortfolioWallet } from "../sdk/contract/wallet.ts";
import { NotFoundError } from "../sdk/client/index.ts";
import { containsUnknown, unknownPositionKeyFailures, validateInputs } from "./check.ts";
import type { ConfigSource } from "./config.ts";
import { WalletStrategyInputsSchema, targetWeightsByKey, type TargetPosition } from "./inputs.ts";
import { sessionFor } from "./session.ts";
import { applyStrategyChange, type StrategyChangeState } from "./strategyChange.ts";
import { appliedTarget } from "./walletOutputs.ts";

export interface WalletStrategyState {
  resourceUrn: string;
  walletId: string;
  positions: TargetPosition[];
  targetWeightsBps: Record<string, number>;
}

export type WalletStrategyOutputs = WalletStrategyState & {
  /** The allocation the service applies now, with each source's asset and liquidity limit. */
  strategyConfig: PortfolioWallet["strategyConfig"];
  blendedRateBps: number;
  strategyChange: StrategyChangeState | null;
  strategyChangeStatus: string | null;
};

function stateOf(news: Record<string, unknown>): WalletStrategyState {
  const inputs = WalletStrategyInputsSchema.parse(news);
  const positions = canonicalAllocation(inputs.positions);
  return {
    resourceUrn: inputs.resourceUrn,
    walletId: inputs.walletId,
    positions,
    targetWeightsBps: targetWeightsByKey(positions),
  };
}

function outputsOf(
  state: WalletStrategyState,
  wallet: PortfolioWallet,
  change: StrategyChangeState | null,
): WalletStrategyOutputs {
  return {
    ...state,
    strategyConfig: wallet.strategyConfig,
    blendedRateBps: wallet.blendedRateBps,
    strategyChange: change,
    strategyChangeStatus: change?.status ?? null,
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
    return { inputs: complete ? { ...news, ...stateOf(news) } : news };
  },

  // dispatch() passes the configuration first to every method, diff included.
  async diff(
    _config: ConfigSource | undefined,
    _id: string,
    olds: WalletStrategyOutputs,
    news: Record<string, unknown>,
  ): Promise<dynamic.DiffResult> {
    const walletChanged = containsUnknown(news["walletId"]) || olds.walletId !== news["walletId"];
    const newPositions = news["positions"];
    const positionsChanged =
      containsUnknown(newPositions) ||
      !Array.isArray(newPositions) ||
      !sameAllocation(olds.positions ?? [], newPositions as TargetPosition[]);
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
    const state = stateOf(news);
    const session = sessionFor(config);
    let wallet = await retrieveManagedWallet(config, state.walletId);
    let change: StrategyChangeState | null = null;
    if (!sameAllocation(appliedTarget(wallet), state.positions)) {
      ({ change, wallet } = await applyStrategyChange({
        session,
        walletId: state.walletId,
        urn: state.resourceUrn,
        target: state.positions,
        previous: null,
      }));
    }
    return { id: `${state.walletId}/strategy`, outs: outputsOf(state, wallet, change) };
  },

  async read(
    config: ConfigSource | undefined,
    id: string,
    props: WalletStrategyOutputs,
  ): Promise<dynamic.ReadResult> {
    let wallet: PortfolioWallet;
    try {
      wallet = await sessionFor(config).client.wallets.retrieve(props.walletId);
    } catch (error) {
      if (NotFoundError.isInstance(error)) return { id: "", props: {} };
      throw error;
    }
    const live = appliedTarget(wallet);
    let change = props.strategyChange ?? null;
    if (
      change &&
      change.status !== "completed" &&
      change.status !== "failed" &&
      sameAllocation(live, change.targetPositions)
    ) {
      change = { ...change, status: "completed", approvalsStillNeeded: null };
    }
    const state: WalletStrategyState = {
      resourceUrn: props.resourceUrn,
      walletId: props.walletId,
      positions: live,
      targetWeightsBps: targetWeightsByKey(live),
    };
    return { id, props: outputsOf(state, wallet, change), inputs: state };
  },

  async update(
    config: ConfigSource | undefined,
    _id: string,
    olds: WalletStrategyOutputs,
    news: Record<string, unknown>,
  ): Promise<dynamic.UpdateResult> {
    const state = stateOf(news);
    const { change, wallet } = await applyStrategyChange({
      session: sessionFor(config),
      walletId: state.walletId,
      urn: state.resourceUrn,
      target: state.positions,
      previous: olds.strategyChange ?? null,
    });
    return { outs: outputsOf(state, wallet, change) };
  },

  /** Stops managing the allocation; the wallet keeps the allocation it has. No request is made. */
  async delete(): Promise<void> {},
};

async function retrieveManagedWallet(
  config: ConfigSource | undefined,
  walletId: string,
): Promise<PortfolioWallet> {
  try {
    return await sessionFor(config).client.wallets.retrieve(walletId);
  } catch (error) {
    if (NotFoundError.isInstance(error)) {
      throw new Error(
        `walletId ${walletId}: no such wallet for this API token's organization. Check the id (for example the ` +
          "StackReference output it comes from) and that portfolio-wallet:apiToken belongs to the wallet's organization.",
        { cause: error },
      );
    }
    throw error;
  }
}
