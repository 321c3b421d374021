import { z } from "zod";
import { weightsByKeyOf } from "../../sdk/nodejs/contract/allocation.ts";
import {
  allocationFieldsOf,
  RESOURCE_DESCRIPTORS,
  resourceKindOfType,
  typeTokenOf,
  type ResourceKind,
  type UncheckedInputs,
} from "../../sdk/nodejs/resources/resourceTypes.ts";
import {
  PreviewSchema,
  StateSchema,
  UNKNOWN,
  urnParts,
  weightsOf,
  type Weights,
} from "../report/previewSteps.ts";
import { RecordedChangeSchema } from "../../sdk/nodejs/resources/strategyChangeState.ts";

/**
 * What the drift check reads of a refresh preview, by allowlist, as the pull-request report reads
 * a preview: per resource of this package, the inputs the code last applied beside the inputs a
 * refresh read from the service, and the latest strategy change the provider recorded. Outputs
 * that move on their own (the blended rate, the status; balances are not even in state) are never
 * read, so market movement cannot show as drift, and nothing else of the stack (config, secrets,
 * other resources) can reach a report.
 *
 * Two texts carry a refresh preview, and only one of them carries it for every program:
 * - the engine's event log (`pulumi refresh --preview-only --event-log FILE`, a flag the engine
 *   offers with PULUMI_DEBUG_COMMANDS=true, as the Automation API runs it): each resource's
 *   outputs event holds the state the read found. This is what `drift` runs and what a pipeline
 *   should save.
 * - the `--json` digest (`pulumi refresh --preview-only --json`): the engine swaps the read state
 *   into a step only when the provider answered its diff with a detailed diff. The native plugin
 *   does; Pulumi's dynamic-provider host (the TypeScript resources) never passes one on, so for
 *   them the digest keeps the state from before the read and hides every change
 *   (docs/offline-pulumi-engine.md). A digest is therefore read only when it holds no dynamic
 *   resource of this package, and refused otherwise, never read as "no drift".
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

/** What the drift check compares at the service: a wallet's allocation, or a webhook registration's settings. */
export type DriftSubject = "allocation" | "webhook";

/** What the drift check compares for each kind. A new kind is a compile error here until it says which. */
export const DRIFT_SUBJECT: Record<ResourceKind, DriftSubject> = {
  portfolioWallet: "allocation",
  walletStrategy: "allocation",
  webhookRegistration: "webhook",
};

/** One resource of this package in the refresh preview. */
export interface RefreshedResource {
  urn: string;
  name: string;
  kind: ResourceKind;
  /** The service's id of what it stands for: the wallet id, or the registration id of a webhook. */
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

type State = z.infer<typeof StateSchema>;

const stringOf = (value: unknown) => (typeof value === "string" && value !== UNKNOWN ? value : null);

function webhookOf(inputs: UncheckedInputs<"webhookRegistration"> | undefined): WebhookSettings | null {
  if (inputs === undefined) return null;
  const { eventTypes, enabled } = inputs;
  return {
    url: stringOf(inputs.url),
    eventTypes: Array.isArray(eventTypes) ? eventTypes.filter((t) => typeof t === "string").sort() : null,
    description: stringOf(inputs.description),
    enabled: typeof enabled === "boolean" ? enabled : true,
    disabledReason: stringOf(inputs.disabledReason),
  };
}

/** The latest strategy change in a resource's outputs, where its kind's descriptor keeps it. */
function changeOf(
  kind: ResourceKind,
  outputs: Record<string, unknown> | undefined,
): RecordedStrategyChange | null {
  const field = allocationFieldsOf(kind)?.strategyChange;
  if (field === undefined) return null;
  const parsed = RecordedChangeSchema.safeParse(outputs?.[field]);
  if (!parsed.success) return null;
  return {
    status: parsed.data.status,
    target: weightsByKeyOf(parsed.data.targetPositions),
    signingActivityId: parsed.data.signingActivityId ?? null,
  };
}

/**
 * One resource of this package: `before` is its state as the code last applied it, `after` the
 * state the read found (null or without outputs when the service no longer has it).
 */
function refreshedResource(
  urn: string,
  kind: ResourceKind,
  before: State,
  after: State,
  deleted: boolean,
): RefreshedResource {
  const { name } = urnParts(urn);
  const idField = RESOURCE_DESCRIPTORS[kind].serviceIdOutput;
  const read = after ?? undefined;
  const last = before ?? undefined;
  return {
    urn,
    name,
    kind,
    id: stringOf(last?.outputs?.[idField]) ?? stringOf(last?.inputs?.[idField]),
    // A read that finds nothing makes the refresh delete the resource from the state.
    missing: deleted || read === undefined || read.outputs === undefined,
    ...SUBJECT_FIELDS[DRIFT_SUBJECT[kind]](kind, last, read),
  };
}

type SubjectFields = Pick<
  RefreshedResource,
  "codeWeights" | "serviceWeights" | "codeWebhook" | "serviceWebhook" | "strategyChange"
>;

/**
 * What each subject reads from the state the code applied (`last`) and the one the read found
 * (`read`): a wallet's weights and latest strategy change, or a registration's settings. A new
 * subject is a compile error here until it says what it reads.
 */
const SUBJECT_FIELDS: Record<
  DriftSubject,
  (kind: ResourceKind, last: State | undefined, read: State | undefined) => SubjectFields
> = {
  allocation: (kind, last, read) => ({
    codeWeights: weightsOf(kind, last?.inputs),
    serviceWeights: weightsOf(kind, read?.inputs),
    codeWebhook: null,
    serviceWebhook: null,
    strategyChange: changeOf(kind, read?.outputs ?? last?.outputs),
  }),
  webhook: (_kind, last, read) => ({
    codeWeights: null,
    serviceWeights: null,
    codeWebhook: webhookOf(last?.inputs),
    serviceWebhook: webhookOf(read?.inputs),
    strategyChange: null,
  }),
};

function factsOf(resources: RefreshedResource[]): RefreshFacts {
  const first = resources[0] ? urnParts(resources[0].urn) : undefined;
  return { project: first?.project ?? null, stack: first?.stack ?? null, resources };
}

const HOW_TO_RUN =
  "run `PULUMI_DEBUG_COMMANDS=true pulumi refresh --preview-only --event-log refresh-events.jsonl` and pass that file (or let `portfolio-wallet drift` run the refresh)";

/** The fields of the engine's step metadata that the drift check reads (apitype.StepEventMetadata). */
const StepMetadataSchema = z.looseObject({
  op: z.string(),
  urn: z.string(),
  old: StateSchema,
  new: StateSchema,
});

const EngineEventSchema = z.looseObject({
  resourcePreEvent: z.looseObject({ metadata: StepMetadataSchema }).optional(),
  resOutputsEvent: z.looseObject({ metadata: StepMetadataSchema }).optional(),
  summaryEvent: z.looseObject({}).optional(),
});

/**
 * Reads the engine's event log of `pulumi refresh --preview-only --event-log FILE` (one JSON event
 * a line). Each resource's refresh has a pre event (the state before) and an outputs event (the
 * state the read found, or none when the service no longer has it). The log ends with a cancel
 * event whether or not the run finished (it closes the engine's event stream), so the summary
 * event is what says the refresh ran to its end. A refresh that did not, or a resource of this
 * package whose read never reported, is an error: a check that saw less than the whole stack must
 * not say "no drift".
 */
export function readRefreshEvents(text: string): RefreshFacts {
  const before = new Map<string, { kind: ResourceKind; state: State }>();
  const read = new Map<string, { op: string; state: State }>();
  let finished = false;
  const lines = text.split("\n").filter((line) => line.trim() !== "");
  for (const [index, line] of lines.entries()) {
    let json: unknown;
    try {
      json = JSON.parse(line);
    } catch {
      throw new Error(`the refresh event log is not JSON at line ${index + 1}: ${HOW_TO_RUN}`);
    }
    const event = EngineEventSchema.safeParse(json);
    if (!event.success) continue;
    if (event.data.summaryEvent !== undefined) finished = true;
    const pre = event.data.resourcePreEvent?.metadata;
    if (pre !== undefined && pre.op === "refresh") {
      const kind = resourceKindOfType(urnParts(pre.urn).type);
      if (kind !== undefined) before.set(pre.urn, { kind, state: pre.old });
    }
    const outputs = event.data.resOutputsEvent?.metadata;
    if (outputs !== undefined) read.set(outputs.urn, { op: outputs.op, state: outputs.new });
  }
  if (!finished) {
    throw new Error(
      `the refresh event log has no summary: the refresh did not finish (or this is not an event log); ${HOW_TO_RUN}`,
    );
  }
  const resources: RefreshedResource[] = [];
  for (const [urn, { kind, state }] of before) {
    const found = read.get(urn);
    if (found === undefined) {
      throw new Error(
        `the refresh event log has no read result for ${urn}: the refresh did not finish reading it; run it again`,
      );
    }
    resources.push(refreshedResource(urn, kind, state, found.state, found.op === "delete"));
  }
  return factsOf(resources);
}

/**
 * Reads `pulumi refresh --preview-only --json` output. Refuses one that holds dynamic resources of
 * this package (TypeScript programs), whose read state the digest does not carry (see above).
 */
function readRefreshDigest(json: unknown): RefreshFacts {
  const parsed = PreviewSchema.safeParse(json);
  if (!parsed.success) {
    throw new Error(
      `the refresh preview does not look like \`pulumi refresh --preview-only --json\` output (expected an object with a \`steps\` array); ${HOW_TO_RUN}`,
    );
  }
  const resources: RefreshedResource[] = [];
  for (const step of parsed.data.steps) {
    const { type } = urnParts(step.urn);
    const kind = resourceKindOfType(type);
    if (kind === undefined) continue;
    if (type === typeTokenOf(kind)) {
      throw new Error(
        `this refresh preview (\`pulumi refresh --preview-only --json\`) holds ${step.urn}, a resource of a TypeScript program: ` +
          "for those the engine's --json output keeps the state from before the refresh read the service, so it cannot show drift; " +
          HOW_TO_RUN,
      );
    }
    resources.push(refreshedResource(step.urn, kind, step.oldState, step.newState, step.op === "delete"));
  }
  return factsOf(resources);
}

/**
 * Reads a refresh preview, either text the engine writes: its event log (any program) or its
 * `--json` digest (programs on the native plugin only). Throws with what is wrong otherwise.
 */
export function readRefreshPreview(text: string): RefreshFacts {
  let whole: unknown;
  try {
    whole = JSON.parse(text);
  } catch {
    // Not one JSON document: an event log has one a line.
    if (text.trim().includes("\n")) return readRefreshEvents(text);
    throw new Error(
      "the refresh preview is not JSON: pass the event log of `PULUMI_DEBUG_COMMANDS=true pulumi refresh --preview-only --event-log FILE`, " +
        "or (for programs on the native plugin) the output of `pulumi refresh --preview-only --json`",
    );
  }
  if (whole !== null && typeof whole === "object" && !Array.isArray(whole) && !("sequence" in whole)) {
    return readRefreshDigest(whole);
  }
  // A one-line event log is one JSON document too.
  return readRefreshEvents(text);
}
