import { z } from "zod";
import { canonicalAllocation } from "../../sdk/nodejs/contract/index.ts";
import type { SavedPlan } from "./planFile.ts";

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

const ChangeSchema = z.looseObject({
  signingActivityId: z.string().nullable(),
  targetPositions: z.array(z.looseObject({ positionKey: z.string(), targetWeightBps: z.number() })),
  status: z.string().optional(),
});

/** The strategy update a signing activity approves, as the stack's state records it. */
export interface PendingStrategyChange {
  /** The resource's name in the program. */
  resource: string;
  walletId: string;
  weights: Record<string, number>;
}

/**
 * The strategy change of `signingActivityId` in a `pulumi stack export`, or null when no resource
 * of the stack started it (a withdrawal's activity, or another stack's). Throws on a file that is
 * not a stack export.
 */
export function changeOfActivity(
  stateJson: unknown,
  signingActivityId: string,
): PendingStrategyChange | null {
  const parsed = StateSchema.safeParse(stateJson);
  if (!parsed.success)
    throw new Error(
      "the stack state is not the output of `pulumi stack export` (expected deployment.resources)",
    );
  for (const resource of parsed.data.deployment.resources ?? []) {
    const change = ChangeSchema.safeParse(resource.outputs?.["strategyChange"]);
    const walletId = resource.outputs?.["walletId"];
    if (
      !change.success ||
      change.data.signingActivityId !== signingActivityId ||
      typeof walletId !== "string"
    )
      continue;
    return {
      resource: resource.urn.split("::").at(-1) ?? resource.urn,
      walletId,
      weights: Object.fromEntries(change.data.targetPositions.map((p) => [p.positionKey, p.targetWeightBps])),
    };
  }
  return null;
}

const describe = (weights: Readonly<Record<string, number>>) =>
  canonicalAllocation(
    Object.entries(weights).map(([positionKey, targetWeightBps]) => ({ positionKey, targetWeightBps })),
  )
    .map((p) => `${p.positionKey} ${p.targetWeightBps}`)
    .join(", ");

/**
 * Why the plan does not cover `change`, naming what differs; null when the plan applies exactly
 * this allocation to this wallet.
 */
export function planDisagreement(plan: SavedPlan, change: PendingStrategyChange): string | null {
  const planned = plan.facts.steps.filter(
    (step) => step.walletId === change.walletId && step.after !== null && step.after !== "unknown",
  );
  if (planned.length === 0)
    return `the plan (sha256:${plan.sha256}) sets no allocation of wallet ${change.walletId}; the activity sets ${describe(change.weights)}`;
  const weights = planned[0]!.after as Record<string, number>;
  const keys = [...new Set([...Object.keys(weights), ...Object.keys(change.weights)])].sort();
  const differences = keys
    .filter((key) => (weights[key] ?? 0) !== (change.weights[key] ?? 0))
    .map((key) => `${key}: the plan ${weights[key] ?? 0} bps, the activity ${change.weights[key] ?? 0} bps`);
  return differences.length === 0
    ? null
    : `the activity's allocation of wallet ${change.walletId} is not the plan's (sha256:${plan.sha256}): ${differences.join("; ")}`;
}
