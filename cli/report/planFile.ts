import { createHash } from "node:crypto";
import { z } from "zod";
import { sameWeights } from "../../sdk/nodejs/contract/allocation.ts";
import {
  allocationFieldsOf,
  carriesAllocation,
  resourceKindOfType,
  type UncheckedInputs,
} from "../../sdk/nodejs/resources/resourceTypes.ts";
import { UNKNOWN, urnParts, weightsOf, type PreviewFacts, type PreviewStep } from "./previewSteps.ts";

/**
 * A plan saved by `pulumi preview --save-plan` (what `pulumi up --plan` applies), read by
 * allowlist as the preview is: per resource its planned operation and, of this package's
 * allocation resources, the planned target weights. Its digest (SHA-256 of the file) names the
 * plan in the report, so a reviewer and the merge job speak of the same file.
 */

const ResourcePlanSchema = z.looseObject({
  goal: z.looseObject({ type: z.string() }).nullish(),
  steps: z.array(z.string()).default([]),
  state: z.record(z.string(), z.unknown()).nullish(),
});

const PlanSchema = z.looseObject({
  manifest: z.looseObject({ version: z.string().optional() }).optional(),
  resourcePlans: z.record(z.string(), ResourcePlanSchema),
});

export interface SavedPlan {
  /** Lowercase hex SHA-256 of the plan file's bytes. */
  sha256: string;
  /** The engine version that saved it. */
  engineVersion: string | null;
  /** The plan's resources as preview steps: before weights are not in a plan, so they are null. */
  facts: PreviewFacts;
}

/** One operation per resource, as a preview names it (a plan lists a replacement's three steps). */
function operationOf(steps: string[]): string {
  if (steps.includes("replace")) return "replace";
  return steps[0] ?? "same";
}

export function readPlan(bytes: Buffer): SavedPlan {
  let json: unknown;
  try {
    json = JSON.parse(bytes.toString("utf8"));
  } catch {
    throw new Error("the plan is not JSON: pass the file of `pulumi preview --save-plan <file>`");
  }
  const parsed = PlanSchema.safeParse(json);
  if (!parsed.success) {
    throw new Error(
      "the plan does not look like a file of `pulumi preview --save-plan` (expected an object with `resourcePlans`)",
    );
  }
  const steps = Object.entries(parsed.data.resourcePlans).map(([urn, plan]): PreviewStep => {
    const { type, name } = urnParts(urn);
    const kind = resourceKindOfType(type) ?? null;
    const op = operationOf(plan.steps);
    const allocation = carriesAllocation(kind);
    // onDelete is a PortfolioWallet's input; another kind's planned state has none, and reads null.
    const planned: UncheckedInputs<"portfolioWallet"> = plan.state ?? {};
    // A WalletStrategy's walletId is an input, so the plan holds it; a PortfolioWallet's is an
    // output the plan does not hold (approvalReview.ts finds it in the stack's state by URN).
    const walletIdField = allocationFieldsOf(kind)?.walletId;
    const walletId = walletIdField === undefined ? undefined : plan.state?.[walletIdField];
    return {
      op,
      urn,
      name,
      type,
      kind,
      before: null,
      after: allocation && op !== "delete" ? weightsOf(kind, plan.state ?? undefined) : null,
      onDelete: typeof planned.onDelete === "string" ? planned.onDelete : null,
      walletId: allocation && typeof walletId === "string" && walletId !== UNKNOWN ? walletId : null,
      // A plan holds the planned state, not the state before it.
      recorded: null,
    };
  });
  const first = steps[0] ? urnParts(steps[0].urn) : undefined;
  return {
    sha256: createHash("sha256").update(bytes).digest("hex"),
    engineVersion: parsed.data.manifest?.version ?? null,
    facts: { project: first?.project ?? null, stack: first?.stack ?? null, steps, approverConfigured: false },
  };
}

/**
 * Where a plan and a preview disagree, for this package's resources: a resource in one and not the
 * other, another operation, or other planned weights. Empty when both come from one
 * `pulumi preview --save-plan plan.json --json`.
 */
export function planPreviewMismatches(plan: SavedPlan, preview: PreviewFacts): string[] {
  const planned = new Map(plan.facts.steps.map((step) => [step.urn, step]));
  const mismatches: string[] = [];
  const ours = preview.steps.filter((step) => step.kind !== null && !QUIET_COMPANIONS.has(step.op));
  for (const step of ours) {
    const entry = planned.get(step.urn);
    if (entry === undefined) {
      mismatches.push(`${step.name}: ${step.op} in the preview, not in the plan`);
    } else if (entry.op !== step.op) {
      mismatches.push(`${step.name}: ${step.op} in the preview, ${entry.op} in the plan`);
    } else if (
      step.after !== null &&
      step.after !== "unknown" &&
      entry.after !== null &&
      entry.after !== "unknown" &&
      !sameWeights(step.after, entry.after)
    ) {
      mismatches.push(`${step.name}: other target weights in the plan than in the preview`);
    }
  }
  const previewed = new Set(ours.map((step) => step.urn));
  for (const step of plan.facts.steps) {
    if (step.kind !== null && step.op !== "same" && !previewed.has(step.urn)) {
      mismatches.push(`${step.name}: ${step.op} in the plan, not in the preview`);
    }
  }
  return mismatches;
}

/** Preview steps that accompany another step of the same resource (a replacement's halves). */
const QUIET_COMPANIONS = new Set([
  "create-replacement",
  "delete-replaced",
  "discard",
  "remove-pending-replace",
  "read",
]);
