import { z } from "zod";
import { TargetAllocation, weightOf, weightsByKeyOf } from "../../sdk/nodejs/contract/index.ts";
import {
  allocationFieldsOf,
  resourceKindOfUrn,
  type ResourceKind,
} from "../../sdk/nodejs/resources/resourceTypes.ts";
import type { SavedPlan } from "./planFile.ts";
import { RecordedChangeSchema } from "../../sdk/nodejs/resources/strategyChangeState.ts";
import { UNKNOWN } from "./previewSteps.ts";

/**
 * What `portfolio-wallet approve` checks before it signs a strategy update: which wallet and target
 * the signing activity is for (from the stack's state, where the provider keeps each resource's
 * latest strategy change with its signingActivityId), and, given the plan a pull request reviewed,
 * whether that target is the one the plan applies to that wallet. Pure: the caller reads the files.
 */

const StateSchema = z.looseObject({
  deployment: z.looseObject({
    resources: z
      .array(z.looseObject({ urn: z.string(), outputs: z.record(z.string(), z.unknown()).optional() }))
      .nullish(),
  }),
});

/** The resources of a `pulumi stack export`, by URN: what the review reads of the stack's state. */
export interface StackExport {
  resources: ReadonlyMap<string, Readonly<Record<string, unknown>>>;
}

/** Reads a `pulumi stack export`; throws, saying what was expected, on anything else. */
export function readStackExport(stateJson: unknown): StackExport {
  const parsed = StateSchema.safeParse(stateJson);
  if (!parsed.success)
    throw new Error(
      "it is not the output of `pulumi stack export` (expected deployment.resources): pass `pulumi stack export --stack <stack> > state.json`",
    );
  return {
    resources: new Map(
      (parsed.data.deployment.resources ?? []).map((resource) => [resource.urn, resource.outputs ?? {}]),
    ),
  };
}

/**
 * The wallet a resource of the state manages: the wallet id output its kind's descriptor names,
 * which a PortfolioWallet and a WalletStrategy both have (a WalletStrategy's resource id is not the
 * wallet's); null for a kind without an allocation.
 */
function walletIdInState(
  kind: ResourceKind | null | undefined,
  outputs: Readonly<Record<string, unknown>> | undefined,
): string | null {
  const fields = allocationFieldsOf(kind);
  const walletId = fields === undefined ? undefined : outputs?.[fields.walletId];
  return typeof walletId === "string" && walletId !== "" && walletId !== UNKNOWN ? walletId : null;
}

/** The strategy update a signing activity approves, as the stack's state records it. */
export interface PendingStrategyChange {
  /** The resource's name in the program. */
  resource: string;
  walletId: string;
  weights: Record<string, number>;
}

/**
 * The strategy change of `signingActivityId` in the stack's state, or null when no resource of the
 * stack started it (a withdrawal's activity, or another stack's).
 */
export function changeOfActivity(
  state: StackExport,
  signingActivityId: string,
): PendingStrategyChange | null {
  for (const [urn, outputs] of state.resources) {
    // Only this package's kinds that keep an allocation record a strategy change.
    const kind = resourceKindOfUrn(urn);
    const fields = allocationFieldsOf(kind);
    if (fields === undefined) continue;
    const change = RecordedChangeSchema.safeParse(outputs[fields.strategyChange]);
    const walletId = walletIdInState(kind, outputs);
    if (!change.success || change.data.signingActivityId !== signingActivityId || walletId === null) continue;
    return {
      resource: urn.split("::").at(-1) ?? urn,
      walletId,
      weights: weightsByKeyOf(change.data.targetPositions),
    };
  }
  return null;
}

const describe = (weights: Readonly<Record<string, number>>) =>
  TargetAllocation.ofWeights(weights)
    .positions.map((p) => `${p.positionKey} ${p.targetWeightBps}`)
    .join(", ");

/** An allocation the plan applies, and to which wallet. */
export interface PlannedAllocation {
  urn: string;
  walletId: string | null;
  weights: Record<string, number>;
}

/**
 * The allocations the plan applies, each with its wallet. The engine's plan holds a resource's
 * planned inputs, not the outputs it had: a WalletStrategy's `walletId` is there (an input; known
 * at preview when it is another stack's output), a PortfolioWallet's is not (the service assigns it
 * at create). Where the plan has none, the state's resource of the same URN says which wallet it is.
 */
export function plannedAllocations(plan: SavedPlan, state: StackExport): PlannedAllocation[] {
  return plan.facts.steps.flatMap((step) =>
    step.after === null || step.after === "unknown"
      ? []
      : [
          {
            urn: step.urn,
            walletId: step.walletId ?? walletIdInState(step.kind, state.resources.get(step.urn)),
            weights: step.after,
          },
        ],
  );
}

/**
 * Why the plan does not cover `change`, naming what differs; null when the plan applies exactly
 * this allocation to this wallet. `state` is the stack's state after the plan was applied.
 */
export function planDisagreement(
  plan: SavedPlan,
  change: PendingStrategyChange,
  state: StackExport,
): string | null {
  const allocations = plannedAllocations(plan, state);
  const planned = allocations.filter((entry) => entry.walletId === change.walletId);
  if (planned.length === 0) {
    const unplaced = allocations.filter((entry) => entry.walletId === null).map((entry) => entry.urn);
    return (
      `the plan (sha256:${plan.sha256}) sets no allocation of wallet ${change.walletId}; the activity sets ${describe(change.weights)}` +
      (unplaced.length === 0
        ? ""
        : ` (the state has no wallet of the plan's ${unplaced.join(", ")}: export the state of the stack the plan was applied to, after \`pulumi up --plan\`)`)
    );
  }
  // Every allocation the plan sets on the wallet must be the activity's (two resources of one
  // wallet that disagree vouch for neither).
  for (const { weights } of planned) {
    const keys = [...new Set([...Object.keys(weights), ...Object.keys(change.weights)])].sort();
    const differences = keys
      .filter((key) => weightOf(weights, key) !== weightOf(change.weights, key))
      .map(
        (key) =>
          `${key}: the plan ${weightOf(weights, key)} bps, the activity ${weightOf(change.weights, key)} bps`,
      );
    if (differences.length > 0)
      return `the activity's allocation of wallet ${change.walletId} is not the plan's (sha256:${plan.sha256}): ${differences.join("; ")}`;
  }
  return null;
}
