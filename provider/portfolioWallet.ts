import type * as dynamic from "@pulumi/pulumi/dynamic/index.js";
import { sameAllocation } from "../sdk/contract/allocation.ts";
import type { PortfolioWallet } from "../sdk/contract/wallet.ts";
import { IdempotencyConflictError } from "../sdk/client/index.ts";
import {
  immutableInputFailure,
  unknownPositionKeyFailures,
  validateInputs,
  containsUnknown,
  type CheckFailure,
} from "./check.ts";
import type { ConfigSource } from "../sdk/settings.ts";
import {
  PortfolioWalletInputsSchema,
  targetAllocationOf,
  targetWeightsByKey,
  withoutPositions,
  type OnDelete,
  type TargetPosition,
} from "./inputs.ts";
import { creationRequestId } from "./requestIds.ts";
import { retrieveExistingWallet } from "./existingWallet.ts";
import { GONE, unlessGone } from "./gone.ts";
import { sessionFor, type ProviderSession } from "./session.ts";
import {
  applyStrategyChange,
  settledAgainst,
  type StrategyChangeState,
  allocationChanged,
  reconcileAllocation,
  strategyChangeOutputs,
} from "./strategyChange.ts";
import { appliedTarget, holdsFunds, liveWalletOutputs, type LiveWalletOutputs } from "./walletOutputs.ts";

/** Inputs as check() hands them on and state keeps them: the allocation as a map, for readable diffs. */
export interface PortfolioWalletState {
  resourceUrn: string;
  targetWeightsBps: Record<string, number>;
  label?: string;
  onDelete: OnDelete;
  adoptWalletId?: string;
}

export type PortfolioWalletOutputs = PortfolioWalletState &
  LiveWalletOutputs & {
    /** The target allocation as an array, sorted by positionKey. */
    positions: TargetPosition[];
    /** The requestId the wallet was created with (derived from the URN). */
    creationRequestId: string | null;
    /** The latest strategy change this resource started, or null. */
    strategyChange: StrategyChangeState | null;
    /** Shortcut to `strategyChange.status`: `completed`, `pending_approval`, `processing`, `failed`, or null. */
    strategyChangeStatus: string | null;
  };

/** The state of checked inputs (or of program inputs, in tests that skip check) and their target allocation. */
function parseInputs(news: Record<string, unknown>): {
  state: PortfolioWalletState;
  target: TargetPosition[];
} {
  const target = targetAllocationOf(news);
  const inputs = PortfolioWalletInputsSchema.omit({ positions: true }).parse(news);
  return {
    target,
    state: {
      resourceUrn: inputs.resourceUrn,
      targetWeightsBps: targetWeightsByKey(target),
      ...(inputs.label !== undefined ? { label: inputs.label } : {}),
      onDelete: inputs.onDelete ?? "fail-if-funded",
      ...(inputs.adoptWalletId !== undefined ? { adoptWalletId: inputs.adoptWalletId } : {}),
    },
  };
}

function outputsOf(
  state: PortfolioWalletState,
  target: TargetPosition[],
  wallet: PortfolioWallet,
  creationRequestIdValue: string | null,
  change: StrategyChangeState | null,
): PortfolioWalletOutputs {
  return {
    ...state,
    positions: target,
    ...liveWalletOutputs(wallet),
    creationRequestId: creationRequestIdValue,
    ...strategyChangeOutputs(change),
  };
}

const WHY_LABEL_IS_FIXED =
  "the service has no endpoint to change a wallet's label, and replacing a wallet would move funds. " +
  "Set label back to its current value (after a refresh, the value the service holds)";
const WHY_ADOPTION_IS_FIXED =
  "adoptWalletId only chooses which wallet a new resource manages. To manage another wallet, add a new resource " +
  'and drop this one (with onDelete: "retain" if it holds funds)';

/**
 * The PortfolioWallet dynamic provider: create maps to POST /v2/portfolio-wallets (or adoption by
 * id), a positions change to the strategy PATCH, refresh to GET. The service has no wallet delete,
 * so delete only drops the wallet from the stack, and refuses to when it holds funds unless
 * `onDelete: "retain"` says so.
 */
export const portfolioWalletProvider = {
  async check(
    config: ConfigSource | undefined,
    olds: Record<string, unknown>,
    news: Record<string, unknown>,
  ) {
    const { inputs, failures, complete } = validateInputs(PortfolioWalletInputsSchema, news);
    const allFailures: CheckFailure[] = [...failures];
    const isUpdate = typeof olds["resourceUrn"] === "string";
    if (isUpdate && !containsUnknown(news["label"]) && olds["label"] !== news["label"]) {
      allFailures.push(immutableInputFailure("label", olds["label"] ?? null, WHY_LABEL_IS_FIXED));
    }
    if (
      isUpdate &&
      !containsUnknown(news["adoptWalletId"]) &&
      olds["adoptWalletId"] !== news["adoptWalletId"]
    ) {
      allFailures.push(
        immutableInputFailure("adoptWalletId", olds["adoptWalletId"] ?? null, WHY_ADOPTION_IS_FIXED),
      );
    }
    // The catalog is consulted only once the inputs are well-formed: a bad input never costs a request.
    // A refused label or adoptWalletId change is no reason to hold back unknown positionKeys.
    if (inputs !== undefined) {
      const catalog = await sessionFor(config).catalog();
      allFailures.push(...unknownPositionKeyFailures(inputs.positions, catalog));
    }
    if (allFailures.length > 0) return { failures: allFailures };
    if (inputs === undefined || !complete) return { inputs: news };
    return { inputs: { ...withoutPositions(news), ...parseInputs(news).state } };
  },

  // callProviderOf() passes the configuration first to every method, diff included.
  async diff(
    _config: ConfigSource | undefined,
    _id: string,
    olds: PortfolioWalletOutputs,
    news: Record<string, unknown>,
  ): Promise<dynamic.DiffResult> {
    const changed: string[] = [];
    for (const key of ["label", "onDelete", "adoptWalletId"] as const) {
      const newValue = key === "onDelete" ? (news[key] ?? "fail-if-funded") : news[key];
      if (containsUnknown(newValue) || olds[key] !== newValue) changed.push(key);
    }
    if (allocationChanged(olds.positions, news)) changed.push("targetWeightsBps");
    // Label and adoptWalletId changes never get here: check() refuses them. Nothing is ever replaced.
    return { changes: changed.length > 0, replaces: [], deleteBeforeReplace: false };
  },

  async create(
    config: ConfigSource | undefined,
    news: Record<string, unknown>,
  ): Promise<dynamic.CreateResult> {
    const { state, target } = parseInputs(news);
    const session = sessionFor(config);
    const { wallet, requestId } =
      state.adoptWalletId !== undefined
        ? { wallet: await adoptWallet(session, state.adoptWalletId, state.label), requestId: null }
        : await createWallet(session, state, target);
    // An adopted wallet, or one created earlier under this URN, is reconciled to the code's allocation.
    const reconciled = await reconcileAllocation({ session, wallet, urn: state.resourceUrn, target });
    return { id: wallet.id, outs: outputsOf(state, target, reconciled.wallet, requestId, reconciled.change) };
  },

  async read(
    config: ConfigSource | undefined,
    id: string,
    props: PortfolioWalletOutputs,
  ): Promise<dynamic.ReadResult> {
    const session = sessionFor(config);
    const wallet = await unlessGone(session.client.wallets.retrieve(id));
    if (wallet === undefined) return GONE;
    const live = appliedTarget(wallet);
    const change = settledAgainst(props.strategyChange ?? null, live);
    const state: PortfolioWalletState = {
      resourceUrn: props.resourceUrn,
      targetWeightsBps: targetWeightsByKey(live),
      // An adopted wallet's label is the code's (checked equal at adoption, or not managed when
      // unset); taking the service's label into the inputs would refuse every later `up`.
      ...(props.adoptWalletId !== undefined
        ? props.label !== undefined
          ? { label: props.label }
          : {}
        : wallet.label != null
          ? { label: wallet.label }
          : {}),
      onDelete: props.onDelete ?? "fail-if-funded",
      ...(props.adoptWalletId !== undefined ? { adoptWalletId: props.adoptWalletId } : {}),
    };
    return {
      id: wallet.id,
      props: outputsOf(state, live, wallet, props.creationRequestId ?? null, change),
      inputs: state,
    };
  },

  async update(
    config: ConfigSource | undefined,
    id: string,
    olds: PortfolioWalletOutputs,
    news: Record<string, unknown>,
  ): Promise<dynamic.UpdateResult> {
    const { state, target } = parseInputs(news);
    const session = sessionFor(config);
    let change = olds.strategyChange ?? null;
    let wallet: PortfolioWallet;
    if (!sameAllocation(olds.positions, target)) {
      ({ change, wallet } = await applyStrategyChange({
        session,
        walletId: id,
        urn: state.resourceUrn,
        target,
        previous: change,
      }));
    } else {
      // Only provider-side settings (onDelete) changed: no request changes anything at the service.
      wallet = await session.client.wallets.retrieve(id);
    }
    return { outs: outputsOf(state, target, wallet, olds.creationRequestId ?? null, change) };
  },

  async delete(config: ConfigSource | undefined, id: string, props: PortfolioWalletOutputs): Promise<void> {
    if (props.onDelete === "retain") return;
    const session = sessionFor(config);
    const wallet = await unlessGone(session.client.wallets.retrieve(id));
    if (wallet === undefined) return;
    if (holdsFunds(wallet)) {
      throw new Error(
        `refusing to drop portfolio wallet ${id} from the stack: it holds ${usd(wallet.totalBalanceUsd)}` +
          ` (${usd(wallet.pendingAllocationsUsd)} of it pending allocation). The service has no wallet delete, so the ` +
          "wallet and its funds would stay at the service with nothing in this stack managing them. Either withdraw " +
          'the funds first, or set onDelete: "retain" on the resource, run `pulumi up`, and then delete it: the ' +
          "wallet and its funds stay at the service and can be adopted again with adoptWalletId.",
      );
    }
    // An empty wallet leaves the stack; it stays at the service, empty, because there is no delete endpoint.
  },
};

/** A balance for a message: dollars and cents, never a long float. */
function usd(amount: number): string {
  return `${amount.toLocaleString("en-US", { minimumFractionDigits: 2, maximumFractionDigits: 2 })} USD`;
}

async function createWallet(
  session: ProviderSession,
  state: PortfolioWalletState,
  target: TargetPosition[],
): Promise<{ wallet: PortfolioWallet; requestId: string }> {
  const requestId = creationRequestId(state.resourceUrn);
  try {
    const wallet = await session.client.wallets.create({
      requestId,
      positions: target,
      ...(state.label !== undefined ? { label: state.label } : {}),
    });
    return { wallet, requestId };
  } catch (error) {
    if (IdempotencyConflictError.isInstance(error)) {
      throw new Error(
        `a wallet was already created for this resource (requestId ${requestId}, derived from ${state.resourceUrn}) ` +
          "with a different allocation or label: the resource was destroyed and re-created under the same name. " +
          "That wallet still exists at the service. Set adoptWalletId to its id to manage it again, use the " +
          "allocation and label it was created with, or give the resource a new name to create a new wallet.",
        { cause: error },
      );
    }
    throw error;
  }
}

async function adoptWallet(
  session: ProviderSession,
  walletId: string,
  label: string | undefined,
): Promise<PortfolioWallet> {
  const wallet = await retrieveExistingWallet(session, walletId, "adoptWalletId");
  if (label !== undefined && label !== (wallet.label ?? undefined)) {
    throw new Error(
      `adoptWalletId ${walletId}: label "${label}" differs from the wallet's ` +
        `${wallet.label == null ? "(it has none)" : `"${wallet.label}"`}, and the service cannot rename a wallet. ` +
        "Remove label from the resource, or set it to the wallet's label.",
    );
  }
  return wallet;
}
