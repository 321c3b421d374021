import { z } from "zod";
import { configKeyOf } from "../../sdk/nodejs/stackSettings.ts";
import { weightsByKeyOf } from "../../sdk/nodejs/contract/allocation.ts";
import {
  allocationFieldsOf,
  carriesAllocation,
  resourceKindOfType,
  type ResourceKind,
} from "../../sdk/nodejs/resources/resourceTypes.ts";
import { urnParts } from "../../sdk/nodejs/resources/urn.ts";
import {
  StrategyChangeStateSchema,
  type StrategyChangeState,
} from "../../sdk/nodejs/resources/strategyChangeState.ts";

/**
 * What the report reads of `pulumi preview --json`, by allowlist: for each step its operation, its
 * URN, and of this package's resources only the fields below. Nothing else of the preview (stack
 * config, other resources' inputs, webhook URLs, labels) is read, so no secret can reach a report,
 * whether it was set with `--secret` or not.
 */

/** The value the engine shows for an input that is not known until `up` (an output of another resource). */
export const UNKNOWN = "04da6b54-80e4-46f7-96ec-b56ff0331ba9";

const WeightsSchema = z.record(z.string(), z.number());
const PositionsSchema = z.array(z.looseObject({ positionKey: z.string(), targetWeightBps: z.number() }));

export const StateSchema = z
  .looseObject({
    type: z.string().optional(),
    inputs: z.record(z.string(), z.unknown()).optional(),
    outputs: z.record(z.string(), z.unknown()).optional(),
  })
  .optional()
  .nullable();

const StepSchema = z.looseObject({
  op: z.string(),
  urn: z.string(),
  oldState: StateSchema,
  newState: StateSchema,
});

export const PreviewSchema = z.looseObject({
  steps: z.array(StepSchema).default([]),
  changeSummary: z.record(z.string(), z.number()).optional(),
  config: z.record(z.string(), z.unknown()).optional(),
});

/** A target allocation as the report sees it: known weights, or "unknown until up". */
export type Weights = Record<string, number> | "unknown" | null;

/** One step of the preview, reduced to the allowlisted facts. */
export interface PreviewStep {
  op: string;
  urn: string;
  /** Resource name: the last `::` part of the URN. */
  name: string;
  /** The resource's own type token. */
  type: string;
  /** Which of this package's resources it is, if it is one. */
  kind: ResourceKind | null;
  before: Weights;
  after: Weights;
  /** PortfolioWallet `onDelete` in state: what a delete does. */
  onDelete: string | null;
  /** The wallet id in state (PortfolioWallet `walletId`, WalletStrategy `walletId`). */
  walletId: string | null;
  /**
   * What the stack's state records of the allocation (the old state's outputs), to tell an
   * allocation changed outside the stack from the stack's own: null without an old state, or when
   * its outputs do not show the allocation (a secret one shows as `[secret]`).
   */
  recorded: RecordedAllocation | null;
}

/** The allocation a resource's state records: its `targetWeightsBps` and latest `strategyChange`. */
export interface RecordedAllocation {
  weights: Record<string, number>;
  change: StrategyChangeState | null;
}

export interface PreviewFacts {
  project: string | null;
  stack: string | null;
  steps: PreviewStep[];
  /** Whether the stack config names a Turnkey approver key (its value is never read). */
  approverConfigured: boolean;
}

/**
 * The target weights in a resource's inputs, where its kind's descriptor keeps them: the checked
 * map, or the program's positions; null for a kind without an allocation.
 */
export function weightsOf(kind: ResourceKind | null, inputs: Record<string, unknown> | undefined): Weights {
  const fields = allocationFieldsOf(kind);
  if (inputs === undefined || fields === undefined) return null;
  const weights = inputs[fields.weights];
  if (weights === UNKNOWN) return "unknown";
  const parsedWeights = WeightsSchema.safeParse(weights);
  if (parsedWeights.success) {
    return Object.values(parsedWeights.data).some((value) => (value as unknown) === UNKNOWN)
      ? "unknown"
      : parsedWeights.data;
  }
  // Before check() ran (or when it could not finish) the inputs still hold the program's positions.
  const positions = inputs[fields.positions];
  if (positions === undefined) return null;
  const parsedPositions = PositionsSchema.safeParse(positions);
  if (!parsedPositions.success) return "unknown";
  return weightsByKeyOf(parsedPositions.data);
}

function stringField(state: z.infer<typeof StateSchema>, field: string): string | null {
  const value = state?.outputs?.[field] ?? state?.inputs?.[field];
  return typeof value === "string" && value !== UNKNOWN ? value : null;
}

export { urnParts };

/** The state's weights and strategy change outputs (where the kind keeps them), when both are readable. */
export function recordedAllocationOf(
  kind: ResourceKind | null,
  outputs: Record<string, unknown> | undefined,
): RecordedAllocation | null {
  const fields = allocationFieldsOf(kind);
  if (fields === undefined) return null;
  const weights = WeightsSchema.safeParse(outputs?.[fields.weights]);
  if (!weights.success) return null;
  const change = outputs?.[fields.strategyChange];
  const parsedChange = StrategyChangeStateSchema.safeParse(change);
  // No change yet is null in state; one the schema cannot read leaves the record unknown.
  if (change !== null && change !== undefined && !parsedChange.success) return null;
  return { weights: weights.data, change: parsedChange.success ? parsedChange.data : null };
}

/** Reads a preview; throws with what is wrong when the text is not `pulumi preview --json` output. */
export function readPreview(text: string): PreviewFacts {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    throw new Error("the preview is not JSON: pass the output of `pulumi preview --json`");
  }
  const parsed = PreviewSchema.safeParse(json);
  if (!parsed.success) {
    throw new Error(
      "the preview does not look like `pulumi preview --json` output (expected an object with a `steps` array)",
    );
  }
  // A preview run with --refresh (`restore`) lists each resource's refresh before its own step:
  // the refresh only reads, and its result is the state the step after it plans from.
  const planned = parsed.data.steps.filter((step) => step.op !== "refresh");
  const steps = planned.map((step): PreviewStep => {
    const { type, name } = urnParts(step.urn);
    const kind = resourceKindOfType(type) ?? null;
    const state = step.newState ?? step.oldState;
    const allocation = carriesAllocation(kind);
    const walletIdField = allocationFieldsOf(kind)?.walletId;
    return {
      op: step.op,
      urn: step.urn,
      name,
      type,
      kind,
      before: allocation ? weightsOf(kind, step.oldState?.inputs) : null,
      after: allocation ? weightsOf(kind, step.newState?.inputs) : null,
      // Only a kind with an `onDelete` input has one; reading it for every kind branches on none.
      onDelete: stringField(step.oldState ?? state, "onDelete"),
      walletId: walletIdField === undefined ? null : stringField(step.oldState ?? state, walletIdField),
      recorded: allocation ? recordedAllocationOf(kind, step.oldState?.outputs) : null,
    };
  });
  const first = steps[0] ? urnParts(steps[0].urn) : undefined;
  const configKeys = Object.keys(parsed.data.config ?? {});
  return {
    project: first?.project ?? null,
    stack: first?.stack ?? null,
    steps,
    approverConfigured: configKeys.includes(configKeyOf("turnkeyApiPrivateKey")),
  };
}
