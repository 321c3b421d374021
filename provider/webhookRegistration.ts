import type { EventType } from "../sdk/nodejs/contract/events.ts";
import type { WebhookRegistration } from "../sdk/nodejs/contract/webhook.ts";
import { NotFoundError } from "../sdk/nodejs/client/index.ts";
import { validateInputs } from "./check.ts";
import { resourceDiffOf, valueChange, type ResourceDiff } from "./resourceDiff.ts";
import { webhookRegistrationDescriptor } from "../sdk/nodejs/resources/webhookRegistrationDescriptor.ts";
import type {
  ReadAnswer,
  ReadState,
  ResourceImplementation,
  StoredOutputs,
} from "./resourceImplementation.ts";
import { webhookCreationRequestId } from "../sdk/nodejs/client/requestIds.ts";
import { NO_LONGER_EXISTS, unlessNotFound } from "./notFound.ts";
import type { CheckedInputs, DiffInputs } from "./inputs.ts";
import type { ServiceConnection } from "./serviceConnection.ts";

export type WebhookRegistrationState = Pick<
  WebhookRegistrationOutputs,
  "resourceUrn" | "url" | "eventTypes" | "description" | "enabled" | "disabledReason"
>;

/** What state keeps: the descriptor's outputs (sdk/nodejs/resources/webhookRegistrationDescriptor.ts). */
export type WebhookRegistrationOutputs = StoredOutputs<"webhookRegistration">;

const WebhookRegistrationInputsSchema = webhookRegistrationDescriptor.inputs;

/** What state keeps of checked inputs: the event types sorted, the reason only while disabled. */
function stateOf(inputs: CheckedInputs<"webhookRegistration">): WebhookRegistrationState {
  const enabled = inputs.enabled ?? true;
  return {
    resourceUrn: inputs.resourceUrn,
    url: inputs.url,
    eventTypes: [...inputs.eventTypes].sort(),
    ...(inputs.description !== undefined ? { description: inputs.description } : {}),
    enabled,
    ...(!enabled && inputs.disabledReason !== undefined ? { disabledReason: inputs.disabledReason } : {}),
  };
}

function outputsOf(
  state: WebhookRegistrationState,
  registration: WebhookRegistration,
  secret: string | null,
): WebhookRegistrationOutputs {
  return {
    ...state,
    registrationId: registration.id,
    status: registration.status,
    createdAt: registration.createdAt,
    disabledAt: registration.disabledAt ?? null,
    secret,
  };
}

/**
 * The WebhookRegistration dynamic provider: create maps to POST /webhooks/registrations, an
 * `enabled`/`disabledReason` change to the status PATCH, delete to DELETE. A registration holds
 * no funds, so a change the service cannot make in place is an honest, visible replacement.
 */
export const webhookRegistrationProvider = {
  async check(
    _connect: () => ServiceConnection,
    _olds: Record<string, unknown>,
    news: Record<string, unknown>,
  ) {
    const { inputs, failures, complete } = validateInputs(WebhookRegistrationInputsSchema, news);
    if (failures.length > 0) return { failures };
    if (inputs === undefined || !complete) return { inputs: news };
    return { inputs: { ...news, ...stateOf(inputs) } };
  },

  async diff(
    _connect: () => ServiceConnection,
    _id: string,
    olds: WebhookRegistrationOutputs,
    news: DiffInputs<"webhookRegistration">,
  ): Promise<ResourceDiff> {
    const newEventTypes = Array.isArray(news.eventTypes) ? [...news.eventTypes].sort() : news.eventTypes;
    const newEnabled = news.enabled ?? true;
    // The service has no update of url, event types or description: changing one replaces the
    // registration (a new one first, then the old one deleted). Only the status changes in place.
    return resourceDiffOf({
      url: valueChange(olds.url, news.url, { replaces: true }),
      eventTypes: valueChange(olds.eventTypes, newEventTypes, { replaces: true }),
      description: valueChange(olds.description, news.description, { replaces: true }),
      enabled: valueChange(olds.enabled, newEnabled),
      // The reason only counts while the registration is disabled.
      disabledReason:
        newEnabled === false ? valueChange(olds.disabledReason, news.disabledReason) : undefined,
    });
  },

  async create(
    connect: () => ServiceConnection,
    news: CheckedInputs<"webhookRegistration">,
  ): Promise<{ id: string; outs: WebhookRegistrationOutputs }> {
    const state = stateOf(news);
    const connection = connect();
    const created = await createRegistration(connection, state);
    const registration = state.enabled ? created : await setStatus(connection, created.id, state);
    return { id: created.id, outs: outputsOf(state, registration, created.secret) };
  },

  async read(
    connect: () => ServiceConnection,
    id: string,
    props: ReadState<"webhookRegistration">,
  ): Promise<ReadAnswer<"webhookRegistration">> {
    const registration = await unlessNotFound(connect().client.webhookRegistrations.retrieve(id));
    if (registration === undefined) return NO_LONGER_EXISTS;
    const enabled = registration.status === "active";
    const state: WebhookRegistrationState = {
      resourceUrn: props.resourceUrn,
      url: registration.url,
      eventTypes: [...registration.eventTypes].sort(),
      ...(registration.description != null ? { description: registration.description } : {}),
      enabled,
      ...(!enabled && registration.disabledReason != null
        ? { disabledReason: registration.disabledReason }
        : {}),
    };
    // The secret is never returned again: keep the one from creation.
    return { id, props: outputsOf(state, registration, props.secret ?? null), inputs: state };
  },

  async update(
    connect: () => ServiceConnection,
    id: string,
    olds: WebhookRegistrationOutputs,
    news: CheckedInputs<"webhookRegistration">,
  ): Promise<{ outs: WebhookRegistrationOutputs }> {
    const state = stateOf(news);
    const registration = await setStatus(connect(), id, state);
    return { outs: outputsOf(state, registration, olds.secret ?? null) };
  },

  async delete(connect: () => ServiceConnection, id: string): Promise<void> {
    // Already deleted is deleted.
    await unlessNotFound(connect().client.webhookRegistrations.delete(id));
  },
} satisfies ResourceImplementation<"webhookRegistration">;

/** How many deleted registrations under one name are skipped before giving up. */
const MAX_GENERATIONS = 100;

async function createRegistration(connection: ServiceConnection, state: WebhookRegistrationState) {
  for (let generation = 0; ; generation++) {
    try {
      return await connection.client.webhookRegistrations.create({
        requestId: webhookCreationRequestId(state.resourceUrn, generation),
        url: state.url,
        eventTypes: state.eventTypes as EventType[],
        ...(state.description !== undefined ? { description: state.description } : {}),
      });
    } catch (error) {
      // 404 on create: this generation's registration was deleted, so its key is spent.
      if (!NotFoundError.isInstance(error) || generation >= MAX_GENERATIONS) throw error;
    }
  }
}

async function setStatus(
  connection: ServiceConnection,
  id: string,
  state: WebhookRegistrationState,
): Promise<WebhookRegistration> {
  return connection.client.webhookRegistrations.updateStatus(
    id,
    state.enabled
      ? { status: "active" }
      : {
          status: "disabled",
          ...(state.disabledReason !== undefined ? { disabledReason: state.disabledReason } : {}),
        },
  );
}
