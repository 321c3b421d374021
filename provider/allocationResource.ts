import type { z } from "zod";
import { TargetAllocation, type Allocation } from "../sdk/nodejs/contract/allocation.ts";
import type { PortfolioWallet } from "../sdk/nodejs/contract/wallet.ts";
import { unknownPositionKeyFailures, validateInputs, type CheckFailure, type CheckResult } from "./check.ts";
import type { UnknownInput } from "./inputs.ts";
import { mapChanges, type PropertyChange } from "./resourceDiff.ts";
import type { ServiceConnection } from "./serviceConnection.ts";
import {
  strategyChangeOutputs,
  withObservedCompletion,
  type StrategyChangeState,
} from "./strategyChange/state.ts";
import { appliedTarget } from "./walletOutputs.ts";
import { allocationAtService, describeAllocation } from "./strategyChange/outsideChange.ts";

/**
 * What PortfolioWallet and WalletStrategy share: a resource that manages a wallet's target
 * allocation. Checked inputs and outputs keep the allocation in one shape, `targetWeightsBps`, a map
 * (the form whose diff names each yield source), beside the latest strategy change; in between it
 * is one value, a TargetAllocation (sdk/nodejs/contract/allocation.ts).
 */

/** The allocation outputs of a resource. */
export function allocationOutputs(
  target: TargetAllocation,
  change: StrategyChangeState | null,
  appliedRatesBps: Record<string, number> | null,
) {
  return { targetWeightsBps: target.weightsBps, ...strategyChangeOutputs(change), appliedRatesBps };
}

/**
 * The catalog's current rate of each target source, as this stack sets the allocation (the catalog
 * is read once per deployment): what the market watch holds later rates to. A source the catalog
 * does not list has no rate to record.
 */
export async function ratesOfTarget(
  connection: ServiceConnection,
  target: TargetAllocation,
): Promise<Record<string, number>> {
  const catalog = await connection.catalog();
  return Object.fromEntries(
    target.positions.flatMap((position) => {
      const entry = catalog.find((candidate) => candidate.positionKey === position.positionKey);
      return entry === undefined ? [] : [[position.positionKey, entry.currentRateBps]];
    }),
  );
}

/**
 * The applied rates a refresh keeps: the recorded ones while the service applies the allocation
 * they were recorded for; none once it applies another (changed outside the stack, at a rate
 * nobody recorded).
 */
export function appliedRatesAfterRead(
  props: { targetWeightsBps?: Record<string, number>; appliedRatesBps?: Record<string, number> | null },
  live: TargetAllocation,
): Record<string, number> | null {
  return targetInState(props).same(live) ? (props.appliedRatesBps ?? null) : null;
}

/** The target allocation a resource's state holds. */
export function targetInState(state: { targetWeightsBps?: Record<string, number> }): TargetAllocation {
  return TargetAllocation.ofWeights(state.targetWeightsBps ?? {});
}

/**
 * check() of an allocation resource: every failure at once, before any request; then, once the
 * inputs are well-formed, unknown positionKeys against the catalog (read once per deployment).
 * Checked inputs hand the allocation on as `targetWeightsBps` only.
 */
export async function checkAllocationInputs<T extends { positions: Allocation }>(params: {
  schema: z.ZodType<T>;
  news: Record<string, unknown>;
  connect: () => ServiceConnection;
  /** Failures the resource finds itself (a field that cannot change), reported with the rest. */
  resourceFailures?: CheckFailure[];
  /**
   * The checked inputs of complete, valid inputs (without `positions`), in the key order state
   * keeps them: `target` is the allocation, made once from `positions`.
   */
  checkedInputs: (inputs: T, target: TargetAllocation) => Record<string, unknown>;
}): Promise<CheckResult> {
  const { inputs, failures, complete } = validateInputs(params.schema, params.news);
  const allFailures = [...failures, ...(params.resourceFailures ?? [])];
  // A bad input never costs a request; a refused immutable field is no reason to hold back unknown keys.
  if (inputs !== undefined) {
    allFailures.push(...unknownPositionKeyFailures(inputs.positions, await params.connect().catalog()));
  }
  if (allFailures.length > 0) return { failures: allFailures };
  if (inputs === undefined || !complete) return { inputs: params.news };
  const { positions: _programForm, ...rest } = params.news;
  return {
    inputs: { ...rest, ...params.checkedInputs(inputs, TargetAllocation.ofPositions(inputs.positions)) },
  };
}

/**
 * How new inputs change the allocation in state, yield source by yield source
 * (`targetWeightsBps.tbills: update`). An allocation still unknown (during preview) is one change
 * of the whole map: the engine then shows an update rather than hiding one.
 */
export function allocationChanges(
  state: { targetWeightsBps?: Record<string, number> },
  target: TargetAllocation | UnknownInput,
): Record<string, PropertyChange> {
  if (!(target instanceof TargetAllocation)) return { targetWeightsBps: { kind: "update", replaces: false } };
  return mapChanges("targetWeightsBps", state.targetWeightsBps ?? {}, target.weightsBps);
}

/** read(): the allocation the wallet applies now, and the latest change as that shows it. */
export function refreshedAllocation(
  wallet: PortfolioWallet,
  previousChange: StrategyChangeState | null | undefined,
): { live: TargetAllocation; change: StrategyChangeState | null } {
  const live = appliedTarget(wallet);
  return { live, change: withObservedCompletion(previousChange ?? null, live) };
}

/**
 * diff() of an allocation change: when the wallet's allocation at the service was changed outside
 * the stack, says so on the resource, so that a preview shows what `up` will do (refuse, or
 * overwrite with `outsideChanges: overwrite`) before anyone merges. One GET; never fails the diff:
 * the update checks again before it sends anything.
 */
export async function warnOfOutsideChange(params: {
  connect: () => ServiceConnection;
  walletId: string | undefined;
  olds: { targetWeightsBps?: Record<string, number>; strategyChange?: StrategyChangeState | null };
  target: TargetAllocation | UnknownInput;
  changes: Record<string, PropertyChange>;
}): Promise<void> {
  const { walletId, olds, target } = params;
  const allocationChanges = Object.keys(params.changes).some(
    (path) => path === "targetWeightsBps" || path.startsWith("targetWeightsBps."),
  );
  if (walletId === undefined || !allocationChanges) return;
  if (!(target instanceof TargetAllocation)) return;
  try {
    const connection = params.connect();
    const service = appliedTarget(await connection.client.wallets.retrieve(walletId));
    const found = allocationAtService({
      recorded: targetInState(olds),
      recordedChange: olds.strategyChange ?? null,
      service,
      codeTarget: target,
    });
    if (found.verdict !== "changed outside") return;
    const consequence =
      connection.settings.outsideChanges === "overwrite"
        ? "`up` will overwrite it with the code's allocation (portfolio-wallet:outsideChanges is overwrite)"
        : "`up` will refuse this update and send nothing until `pulumi refresh` and a new preview show the change from the service's allocation";
    connection.say(
      "warning",
      `wallet ${walletId}: its allocation was changed outside this stack: the service holds ${describeAllocation(service)}, ` +
        `this stack's state recorded ${describeAllocation(found.recorded)}. This preview's diff is against the state, ` +
        `not against the service; ${consequence}.`,
    );
  } catch {
    // A read that fails here only costs the early warning; update() reads again and refuses then.
  }
}
