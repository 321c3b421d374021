import { randomBytes, randomUUID } from "node:crypto";
import type { DatabaseSync } from "node:sqlite";
import type {
  CreatedWebhookRegistration,
  CreateWebhookRegistrationRequest,
  EventType,
  Page,
  WebhookRegistration,
  WebhookStatusUpdateRequest,
} from "../../sdk/nodejs/contract/index.ts";
import { SERVICE_OPERATIONS_BY_ID } from "../../sdk/nodejs/contract/index.ts";
import type { OrganizationClocks } from "../clock.ts";
import { pageFrom, type PageRequest } from "./pagination.ts";
import { ConflictError, NotFoundError, ValidationError } from "./errors.ts";
import { inTransaction } from "../store/connection.ts";
import { cancelPendingDeliveries } from "../store/webhookDeliveryStore.ts";
import {
  countWebhooks,
  deleteWebhook,
  findWebhook,
  insertWebhook,
  listWebhooks,
  updateWebhookStatus,
  updateWebhookTarget,
  type WebhookRecord,
} from "../store/webhookStore.ts";
import { idempotencyScopeOf, runIdempotent } from "./idempotency.ts";
import type { WebhookInboxes } from "./events/inboxes.ts";
import { webhookUrlProblem, type WebhookUrlPolicy } from "./webhookUrlPolicy.ts";

/** Idempotency scope of a webhook registration. */
export const CREATE_WEBHOOK_ENDPOINT = idempotencyScopeOf(SERVICE_OPERATIONS_BY_ID.createWebhookRegistration);

export interface WebhookDeps {
  db: DatabaseSync;
  clocks: OrganizationClocks;
  /** Where webhooks may go; a registration elsewhere is refused (webhookUrlPolicy.ts). */
  urlPolicy: WebhookUrlPolicy;
  /** The sandbox's own receivers: a URL naming one is allowed, whatever the policy says of loopback. */
  inboxes: WebhookInboxes;
}

/** Why a registration may not have this URL, or null: an inbox of this sandbox, or the URL policy. */
function registrationUrlProblem(deps: WebhookDeps, organizationId: string, url: string): string | null {
  return deps.inboxes.inboxUrl(url) === null
    ? webhookUrlProblem(url, deps.urlPolicy)
    : deps.inboxes.registrationUrlProblem(organizationId, url);
}

/** How many registrations one organization may have. */
export const MAX_WEBHOOKS_PER_ORGANIZATION = 100;

/** A registration as the API answers it: never its secret (shown once, at creation). */
export function registrationView(record: WebhookRecord): WebhookRegistration {
  return {
    id: record.id,
    url: record.url,
    status: record.status,
    eventTypes: record.eventTypes,
    description: record.description,
    createdAt: record.createdAt,
    disabledAt: record.disabledAt,
    disabledReason: record.disabledReason,
  };
}

function loadOwnRegistration(deps: WebhookDeps, organizationId: string, id: string): WebhookRecord {
  const record = findWebhook(deps.db, organizationId, id);
  if (record === null) throw new NotFoundError(`webhook registration ${id}`);
  return record;
}

/**
 * Registers a webhook. The secret (32 random bytes) is answered by the creation call only; an
 * idempotent replay (same requestId and body) answers it again, since a client whose first answer
 * was lost has no other way to learn it.
 */
export function createWebhook(
  deps: WebhookDeps,
  organizationId: string,
  body: CreateWebhookRegistrationRequest,
): { registration: CreatedWebhookRegistration; replayed: boolean } {
  const refused = registrationUrlProblem(deps, organizationId, body.url);
  if (refused !== null) throw new ValidationError([{ field: "url", reason: refused }]);
  const at = deps.clocks.now(organizationId).toISOString();
  const create = () => {
    const count = countWebhooks(deps.db, organizationId);
    if (count >= MAX_WEBHOOKS_PER_ORGANIZATION) {
      throw new ConflictError(
        `this organization has ${count} webhook registrations, the most the sandbox keeps; delete one first`,
      );
    }
    deps.inboxes.ensureForRegistration(organizationId, body.url);
    const id = randomUUID();
    insertWebhook(deps.db, {
      id,
      organizationId,
      url: body.url,
      status: "active",
      eventTypes: body.eventTypes,
      description: body.description ?? null,
      secret: `whsec_${randomBytes(32).toString("base64url")}`,
      createdAt: at,
      updatedAt: at,
      disabledAt: null,
      disabledReason: null,
    });
    return id;
  };
  const outcome =
    body.requestId === undefined
      ? { resourceId: inTransaction(deps.db, create), replayed: false }
      : runIdempotent(
          deps.db,
          {
            organizationId,
            endpoint: CREATE_WEBHOOK_ENDPOINT,
            requestId: body.requestId,
            canonicalBody: {
              url: body.url,
              eventTypes: [...body.eventTypes].sort(),
              description: body.description ?? null,
            },
          },
          create,
          at,
        );
  const record = loadOwnRegistration(deps, organizationId, outcome.resourceId);
  return { registration: { ...registrationView(record), secret: record.secret }, replayed: outcome.replayed };
}

export function getWebhook(deps: WebhookDeps, organizationId: string, id: string): WebhookRegistration {
  return registrationView(loadOwnRegistration(deps, organizationId, id));
}

export function listWebhookPage(
  deps: WebhookDeps,
  organizationId: string,
  page: PageRequest,
): Page<WebhookRegistration> {
  const rows = listWebhooks(deps.db, organizationId, page.cursor, page.pageSize + 1);
  const { data, nextCursor } = pageFrom(rows, page.pageSize);
  return { data: data.map(registrationView), pageSize: page.pageSize, nextCursor };
}

/** Spec 3.5: disabling records when and why; re-activating clears both. */
export function setWebhookStatus(
  deps: WebhookDeps,
  organizationId: string,
  id: string,
  body: WebhookStatusUpdateRequest,
): WebhookRegistration {
  const record = loadOwnRegistration(deps, organizationId, id);
  const at = deps.clocks.now(organizationId).toISOString();
  const change =
    body.status === "disabled"
      ? {
          status: "disabled",
          // Disabling an already disabled registration keeps its original disabledAt.
          disabledAt: record.status === "disabled" ? (record.disabledAt ?? at) : at,
          disabledReason:
            body.disabledReason ?? (record.status === "disabled" ? record.disabledReason : null),
        }
      : { status: "active", disabledAt: null, disabledReason: null };
  updateWebhookStatus(deps.db, id, change, at);
  return registrationView(loadOwnRegistration(deps, organizationId, id));
}

/** What an edit of a registration may change (the console's edit, docs/spec-gaps.md). */
export interface WebhookEdit {
  url?: string | undefined;
  eventTypes?: EventType[] | undefined;
  description?: string | null | undefined;
}

/**
 * Changes a registration's URL, event types or description (what is left out stays). The URL
 * policy applies as at registration. The secret and the status stay; deliveries already queued
 * go to the new URL, since every attempt reads the registration's URL when it is made.
 */
export function editWebhook(
  deps: WebhookDeps,
  organizationId: string,
  id: string,
  edit: WebhookEdit,
): WebhookRegistration {
  const record = loadOwnRegistration(deps, organizationId, id);
  if (edit.url !== undefined) {
    const refused = registrationUrlProblem(deps, organizationId, edit.url);
    if (refused !== null) throw new ValidationError([{ field: "url", reason: refused }]);
    deps.inboxes.ensureForRegistration(organizationId, edit.url);
  }
  updateWebhookTarget(
    deps.db,
    id,
    {
      url: edit.url ?? record.url,
      eventTypes: edit.eventTypes ?? record.eventTypes,
      description: edit.description === undefined ? record.description : edit.description,
    },
    deps.clocks.now(organizationId).toISOString(),
  );
  return registrationView(loadOwnRegistration(deps, organizationId, id));
}

/** Deletes a registration; its pending deliveries end `cancelled` at once (nothing will send them). */
export function removeWebhook(deps: WebhookDeps, organizationId: string, id: string): void {
  const deleted = inTransaction(deps.db, () => {
    const found = deleteWebhook(deps.db, organizationId, id);
    if (found) cancelPendingDeliveries(deps.db, id, "registration deleted", new Date().toISOString());
    return found;
  });
  if (!deleted) throw new NotFoundError(`webhook registration ${id}`);
}
