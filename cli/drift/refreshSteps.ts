import { z } from "zod";
import { resourceKindOfType, type ResourceKind } from "../../sdk/nodejs/resources/resourceTypes.ts";
import { PreviewSchema, UNKNOWN, urnParts, weightsOf, type Weights } from "../report/previewSteps.ts";

/**
 * What the drift check reads of `pulumi refresh --preview-only --json`, by allowlist, as the
 * pull-request report reads a preview: per resource of this package, the inputs the code last
 * applied (`oldState`) beside the inputs a refresh reads from the service (`newState`), and the
 * latest strategy change the provider recorded. Outputs that move on their own (the blended rate,
 * the status, balances are not even in state) are never read, so market movement cannot show as
 * drift, and nothing else of the stack (config, secrets, other resources) can reach a report.
 */

/** The webhook fields a refresh can find changed at the service. */
export interface WebhookSettings {
  url: string | null;
  eventTypes: string[] | null;
  description: string | null;
  enabled: boolean | null;
  disabledReason: string | null;
}

/** The latest strategy change of an allocation resource, as a refresh sees it. */
export interface RecordedStrategyChange {
  status: string;
  target: Record<string, number>;
  signingActivityId: string | null;
}

/** One resource of this package in the refresh preview. */
export interface RefreshedResource {
  urn: string;
  name: string;
  kind: ResourceKind;
  /** The wallet id, or the registration id of a webhook. */
  id: string | null;
  /** True when the service no longer has it (the refresh would drop it from the state). */
  missing: boolean;
  /** Allocation as the code last applied it (state), and as the service applies it now. */
  codeWeights: Weights;
  serviceWeights: Weights;
  codeWebhook: WebhookSettings | null;
  serviceWebhook: WebhookSettings | null;
  /** The latest strategy change after the refresh (null when none, or for a webhook). */
  strategyChange: RecordedStrategyChange | null;
}

export interface RefreshFacts {
  project: string | null;
  stack: string | null;
  resources: RefreshedResource[];
}

const ChangeSchema = z.looseObject({
  status: z.string(),
  targetPositions: z.array(z.looseObject({ positionKey: z.string(), targetWeightBps: z.number() })),
  signingActivityId: z.string().nullish(),
});

const stringOf = (value: unknown) => (typeof value === "string" && value !== UNKNOWN ? value : null);

function webhookOf(inputs: Record<string, unknown> | undefined): WebhookSettings | null {
  if (inputs === undefined) return null;
  const eventTypes = inputs["eventTypes"];
  return {
    url: stringOf(inputs["url"]),
    eventTypes: Array.isArray(eventTypes) ? eventTypes.filter((t) => typeof t === "string").sort() : null,
    description: stringOf(inputs["description"]),
    enabled: typeof inputs["enabled"] === "boolean" ? inputs["enabled"] : true,
    disabledReason: stringOf(inputs["disabledReason"]),
  };
}

function changeOf(outputs: Record<string, unknown> | undefined): RecordedStrategyChange | null {
  const parsed = ChangeSchema.safeParse(outputs?.["strategyChange"]);
  if (!parsed.success) return null;
  return {
    status: parsed.data.status,
    target: Object.fromEntries(parsed.data.targetPositions.map((p) => [p.positionKey, p.targetWeightBps])),
    signingActivityId: parsed.data.signingActivityId ?? null,
  };
}

/** Reads a refresh preview; throws with what is wrong when the text is not one. */
export function readRefreshPreview(text: string): RefreshFacts {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    throw new Error(
      "the refresh preview is not JSON: pass the output of `pulumi refresh --preview-only --json`",
    );
  }
  const parsed = PreviewSchema.safeParse(json);
  if (!parsed.success) {
    throw new Error(
      "the refresh preview does not look like `pulumi refresh --preview-only --json` output (expected an object with a `steps` array)",
    );
  }
  const resources: RefreshedResource[] = [];
  for (const step of parsed.data.steps) {
    const { type, name } = urnParts(step.urn);
    const kind = resourceKindOfType(type);
    if (kind === undefined) continue;
    const before = step.oldState ?? undefined;
    const after = step.newState ?? undefined;
    const isWebhook = kind === "webhookRegistration";
    const idField = isWebhook ? "registrationId" : "walletId";
    resources.push({
      urn: step.urn,
      name,
      kind,
      id: stringOf(before?.outputs?.[idField]) ?? stringOf(before?.inputs?.[idField]),
      // A read that finds nothing makes the refresh delete the resource from the state.
      missing: step.op === "delete" || after === undefined || after.outputs === undefined,
      codeWeights: isWebhook ? null : weightsOf(before?.inputs),
      serviceWeights: isWebhook ? null : weightsOf(after?.inputs),
      codeWebhook: isWebhook ? webhookOf(before?.inputs) : null,
      serviceWebhook: isWebhook ? webhookOf(after?.inputs) : null,
      strategyChange: isWebhook ? null : changeOf(after?.outputs ?? before?.outputs),
    });
  }
  const first = parsed.data.steps[0] ? urnParts(parsed.data.steps[0].urn) : undefined;
  return { project: first?.project ?? null, stack: first?.stack ?? null, resources };
}
