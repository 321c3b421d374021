import type { TargetAllocation } from "../sdk/nodejs/contract/allocation.ts";
import { formatDollars, usdToMicros } from "../sdk/nodejs/contract/money.ts";
import type { PortfolioWallet } from "../sdk/nodejs/contract/wallet.ts";
import { IdempotencyConflictError } from "../sdk/nodejs/client/index.ts";
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
import { containsUnknown, immutableInputFailure, type CheckFailure } from "./check.ts";
import { resourceDiffOf, valueChange, type ResourceDiff } from "./resourceDiff.ts";
import { retrieveExistingWallet } from "./existingWallet.ts";
import {
  earlierWalletNotFound,
  earlierWalletRefusal,
  findEarlierWallet,
  holdingOf,
} from "./earlierWallet.ts";
import { portfolioWalletDescriptor } from "../sdk/nodejs/resources/portfolioWalletDescriptor.ts";
import type { UncheckedInputs } from "../sdk/nodejs/resources/resourceTypes.ts";
import type { CheckedInputs, DiffInputs } from "./inputs.ts";
import { NO_LONGER_EXISTS, unlessNotFound } from "./notFound.ts";
import { creationRequestId } from "../sdk/nodejs/client/requestIds.ts";
import type {
  ReadAnswer,
  ReadState,
  ResourceImplementation,
  StoredOutputs,
} from "./resourceImplementation.ts";
import type { ServiceConnection } from "./serviceConnection.ts";
import { applyStrategyChange, reconcileAllocation } from "./strategyChange/applyStrategyChange.ts";
import type { StrategyChangeState } from "./strategyChange/state.ts";
import { holdsFunds, liveWalletOutputs } from "./walletOutputs.ts";

/** Inputs as check() hands them on and state keeps them: the allocation as a map, for readable diffs. */
export type PortfolioWalletState = Pick<
  PortfolioWalletOutputs,
  "resourceUrn" | "targetWeightsBps" | "label" | "onDelete" | "adoptWalletId"
>;

/** What state keeps: the descriptor's outputs (sdk/nodejs/resources/portfolioWalletDescriptor.ts). */
export type PortfolioWalletOutputs = StoredOutputs<"portfolioWallet">;

const PortfolioWalletInputsSchema = portfolioWalletDescriptor.inputs;

/** The inputs state keeps, in its key order, from the allocation and the other inputs. */
function stateOf(
  inputs: Pick<CheckedInputs<"portfolioWallet">, "resourceUrn" | "label" | "onDelete" | "adoptWalletId">,
  target: TargetAllocation,
): PortfolioWalletState {
  return {
    resourceUrn: inputs.resourceUrn,
    targetWeightsBps: target.weightsBps,
    ...(inputs.label !== undefined ? { label: inputs.label } : {}),
    onDelete: inputs.onDelete ?? "fail-if-funded",
    ...(inputs.adoptWalletId !== undefined ? { adoptWalletId: inputs.adoptWalletId } : {}),
  };
}

function outputsOf(
  state: PortfolioWalletState,
  target: TargetAllocation,
  wallet: PortfolioWallet,
  creationRequestIdValue: string | null,
  change: StrategyChangeState | null,
  appliedRatesBps: Record<string, number> | null,
): PortfolioWalletOutputs {
  return {
    ...state,
    ...liveWalletOutputs(wallet),
    ...allocationOutputs(target, change, appliedRatesBps),
    creationRequestId: creationRequestIdValue,
  };
}

const WHY_LABEL_IS_FIXED =
  "the service has no endpoint to change a wallet's label, and replacing a wallet would move funds. " +
  "Set label back to its current value (after a refresh, the value the service holds)";
const WHY_ADOPTION_IS_FIXED =
  "adoptWalletId only chooses which wallet a new resource manages. To manage another wallet, add a new resource " +
  'and drop this one (with onDelete: "retain" if it holds funds)';

/** Changes check() refuses: the label and the adopted wallet are fixed once a wallet is managed. */
function immutableInputFailures(
  olds: UncheckedInputs<"portfolioWallet">,
  news: UncheckedInputs<"portfolioWallet">,
): CheckFailure[] {
  const isUpdate = typeof olds.resourceUrn === "string";
  if (!isUpdate) return [];
  const failures: CheckFailure[] = [];
  if (!containsUnknown(news.label) && olds.label !== news.label) {
    failures.push(immutableInputFailure("label", olds.label ?? null, WHY_LABEL_IS_FIXED));
  }
  const adopted = portfolioWalletDescriptor.allocationFields.adoptWalletId;
  if (!containsUnknown(news[adopted]) && olds[adopted] !== news[adopted]) {
    failures.push(immutableInputFailure(adopted, olds[adopted] ?? null, WHY_ADOPTION_IS_FIXED));
  }
  return failures;
}

/**
 * The PortfolioWallet dynamic provider: create maps to POST /v2/portfolio-wallets (or adoption by
 * id), a positions change to the strategy PATCH, refresh to GET. The service has no wallet delete,
 * so delete only drops the wallet from the stack, and refuses to when it holds funds unless
 * `onDelete: "retain"` says so.
 */
export const portfolioWalletProvider = {
  async check(
    connect: () => ServiceConnection,
    olds: Record<string, unknown>,
    news: Record<string, unknown>,
  ) {
    return checkAllocationInputs({
      schema: PortfolioWalletInputsSchema,
      news,
      connect,
      resourceFailures: immutableInputFailures(olds, news),
      checkedInputs: (inputs, target) => ({ ...stateOf(inputs, target) }),
    });
  },

  async diff(
    connect: () => ServiceConnection,
    id: string,
    olds: PortfolioWalletOutputs,
    news: DiffInputs<"portfolioWallet">,
  ): Promise<ResourceDiff> {
    const changes = allocationChanges(olds, news.targetWeightsBps);
    await warnOfOutsideChange({ connect, walletId: id, olds, target: news.targetWeightsBps, changes });
    // Label and adoptWalletId changes never get here: check() refuses them. Nothing is ever replaced.
    return resourceDiffOf({
      label: valueChange(olds.label, news.label),
      onDelete: valueChange(olds.onDelete, news.onDelete ?? "fail-if-funded"),
      adoptWalletId: valueChange(olds.adoptWalletId, news.adoptWalletId),
      ...changes,
    });
  },

  async create(
    connect: () => ServiceConnection,
    news: CheckedInputs<"portfolioWallet">,
  ): Promise<{ id: string; outs: PortfolioWalletOutputs }> {
    const target = news.targetWeightsBps;
    const state = stateOf(news, target);
    const connection = connect();
    const { wallet, requestId } =
      state.adoptWalletId !== undefined
        ? { wallet: await adoptWallet(connection, state.adoptWalletId, state.label), requestId: null }
        : await createWallet(connection, state, target);
    // An adopted wallet, or one created earlier under this URN, is reconciled to the code's allocation.
    const reconciled = await reconcileAllocation({
      connection,
      wallet,
      urn: state.resourceUrn,
      target,
    });
    const rates = await ratesOfTarget(connection, target);
    return {
      id: wallet.id,
      outs: outputsOf(state, target, reconciled.wallet, requestId, reconciled.change, rates),
    };
  },

  async read(
    connect: () => ServiceConnection,
    id: string,
    props: ReadState<"portfolioWallet">,
  ): Promise<ReadAnswer<"portfolioWallet">> {
    const wallet = await unlessNotFound(connect().client.wallets.retrieve(id));
    if (wallet === undefined) return NO_LONGER_EXISTS;
    const { live, change } = refreshedAllocation(wallet, props.strategyChange);
    const state: PortfolioWalletState = {
      resourceUrn: props.resourceUrn,
      targetWeightsBps: live.weightsBps,
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
      props: outputsOf(
        state,
        live,
        wallet,
        props.creationRequestId ?? null,
        change,
        appliedRatesAfterRead(props, live),
      ),
      inputs: state,
    };
  },

  async update(
    connect: () => ServiceConnection,
    id: string,
    olds: PortfolioWalletOutputs,
    news: CheckedInputs<"portfolioWallet">,
  ): Promise<{ outs: PortfolioWalletOutputs }> {
    const target = news.targetWeightsBps;
    const state = stateOf(news, target);
    const connection = connect();
    let change = olds.strategyChange ?? null;
    let wallet: PortfolioWallet;
    let rates = olds.appliedRatesBps ?? null;
    if (!target.same(targetInState(olds))) {
      rates = await ratesOfTarget(connection, target);
      ({ change, wallet } = await applyStrategyChange({
        connection,
        walletId: id,
        urn: state.resourceUrn,
        target,
        previous: change,
        recorded: targetInState(olds),
      }));
    } else {
      // Only provider-side settings (onDelete) changed: no request changes anything at the service.
      wallet = await connection.client.wallets.retrieve(id);
    }
    return { outs: outputsOf(state, target, wallet, olds.creationRequestId ?? null, change, rates) };
  },

  async delete(connect: () => ServiceConnection, id: string, props: PortfolioWalletOutputs): Promise<void> {
    if (props.onDelete === "retain") return;
    const wallet = await unlessNotFound(connect().client.wallets.retrieve(id));
    if (wallet === undefined) return;
    if (holdsFunds(wallet)) {
      throw new Error(
        `refusing to drop portfolio wallet ${id} from the stack: it holds ${formatDollars(usdToMicros(wallet.totalBalanceUsd))}` +
          ` (${formatDollars(usdToMicros(wallet.pendingAllocationsUsd))} of it pending allocation). The service has no wallet delete, so the ` +
          "wallet and its funds would stay at the service with nothing in this stack managing them. Either withdraw " +
          'the funds first, or set onDelete: "retain" on the resource, run `pulumi up`, and then delete it: the ' +
          "wallet and its funds stay at the service and can be adopted again with adoptWalletId.",
      );
    }
    // An empty wallet leaves the stack; it stays at the service, empty, because there is no delete endpoint.
  },
} satisfies ResourceImplementation<"portfolioWallet">;

/**
 * Creates the resource's wallet with its creation requestId. When that requestId is spent (409: the
 * resource was destroyed and is declared again with another allocation or label), the wallet it
 * created is taken over if it is empty, and refused, named, if not (earlierWallet.ts).
 */
async function createWallet(
  connection: ServiceConnection,
  state: PortfolioWalletState,
  target: TargetAllocation,
): Promise<{ wallet: PortfolioWallet; requestId: string }> {
  const requestId = creationRequestId(state.resourceUrn);
  try {
    const wallet = await connection.client.wallets.create({
      requestId,
      positions: target.toPositions(),
      ...(state.label !== undefined ? { label: state.label } : {}),
    });
    return { wallet, requestId };
  } catch (error) {
    if (!IdempotencyConflictError.isInstance(error)) throw error;
    const urn = state.resourceUrn;
    const earlier = await findEarlierWallet(connection, requestId, state.label);
    if (earlier.found === undefined) {
      throw new Error(
        earlierWalletNotFound({ requestId, urn, label: state.label, sameLabel: earlier.sameLabel }),
        {
          cause: error,
        },
      );
    }
    const wallet = earlier.found;
    const holding = await holdingOf(connection, wallet);
    if (holding !== undefined) {
      throw new Error(earlierWalletRefusal({ requestId, urn, walletId: wallet.id, holding }), {
        cause: error,
      });
    }
    connection.say(
      "info",
      `taking over wallet ${wallet.id}: this resource created it earlier (requestId ${requestId}) and it is empty ` +
        "(no balance, nothing pending, no withdrawal under way); its allocation is brought to the code's.",
    );
    return { wallet, requestId };
  }
}

async function adoptWallet(
  connection: ServiceConnection,
  walletId: string,
  label: string | undefined,
): Promise<PortfolioWallet> {
  const wallet = await retrieveExistingWallet(connection, walletId, "adoptWalletId");
  if (label !== undefined && label !== (wallet.label ?? undefined)) {
    throw new Error(
      `adoptWalletId ${walletId}: label "${label}" differs from the wallet's ` +
        `${wallet.label == null ? "(it has none)" : `"${wallet.label}"`}, and the service cannot rename a wallet. ` +
        "Remove label from the resource, or set it to the wallet's label.",
    );
  }
  return wallet;
}
