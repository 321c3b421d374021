import { z } from "zod";
import {
  ConfigureInboxRequestSchema,
  INBOX_PATH_PREFIX,
  InboxDeliveryListSchema,
  InboxDeliveryQuerySchema,
  InboxDeliverySchema,
  InboxNameSchema,
  UuidSchema,
  WebhookInboxListSchema,
  WebhookInboxSchema,
  operationTable,
  type ApiOperation,
} from "../../sdk/nodejs/contract/index.ts";
import { bearerOperation, ERRORS, error } from "../console/consoleOperations.ts";

export const INBOX_TAG = "Sandbox webhook inboxes";

const NOT_FOUND = {
  "404": error("`not_found`: the caller's organization has no inbox of that name"),
} as const;

const InboxPath = z.object({ name: InboxNameSchema.meta({ description: "The inbox's name" }) });

/** An inbox operation: authenticated as the service's API, on the caller's organization's inboxes only. */
const inbox = bearerOperation(INBOX_TAG);

/**
 * The webhook inboxes' API (docs/sandbox.md "Webhook inboxes"): sandbox-only, for tests and
 * pipelines asserting on the events their changes caused. Not admin calls: a pipeline holding its
 * API token only (a CI sandbox's admin API is off) reads what its registrations received.
 */
export const INBOX_OPERATIONS = operationTable({
  sandboxListInboxes: inbox({
    method: "get",
    path: INBOX_PATH_PREFIX,
    summary: "The caller's organization's webhook inboxes, by name",
    responses: { "200": { description: "The inboxes", schema: WebhookInboxListSchema }, ...ERRORS },
  }),
  sandboxConfigureInbox: inbox({
    method: "put",
    path: `${INBOX_PATH_PREFIX}/{name}`,
    summary:
      "Make an inbox, or change what it answers: a status code (200 to 599) after a delay; fields left out stay (200 after 0 ms for a new inbox)",
    pathParams: InboxPath,
    body: { schema: ConfigureInboxRequestSchema, required: true },
    responses: {
      "200": { description: "The inbox", schema: WebhookInboxSchema },
      ...ERRORS,
      "400": error("`validation_failed` naming every bad field, or `malformed_json`"),
      "409": error("`conflict`: the organization has as many inboxes as the sandbox keeps"),
    },
  }),
  sandboxGetInbox: inbox({
    method: "get",
    path: `${INBOX_PATH_PREFIX}/{name}`,
    summary: "An inbox: its URL to register, its answer, how many deliveries it keeps",
    pathParams: InboxPath,
    responses: { "200": { description: "The inbox", schema: WebhookInboxSchema }, ...ERRORS, ...NOT_FOUND },
  }),
  sandboxDeleteInbox: inbox({
    method: "delete",
    path: `${INBOX_PATH_PREFIX}/{name}`,
    summary: "Delete an inbox and what it received; registrations to it then fail and retry",
    pathParams: InboxPath,
    responses: { "204": { description: "Deleted" }, ...ERRORS, ...NOT_FOUND },
  }),
  sandboxInboxDeliveries: inbox({
    method: "get",
    path: `${INBOX_PATH_PREFIX}/{name}/deliveries`,
    summary:
      "What the inbox received, newest first: each attempt's headers, body, signature check and the answer given",
    pathParams: InboxPath,
    query: InboxDeliveryQuerySchema,
    responses: {
      "200": { description: "The deliveries", schema: InboxDeliveryListSchema },
      ...ERRORS,
      ...NOT_FOUND,
    },
  }),
  sandboxClearInbox: inbox({
    method: "delete",
    path: `${INBOX_PATH_PREFIX}/{name}/deliveries`,
    summary: "Forget what the inbox received (its answer stays)",
    pathParams: InboxPath,
    responses: { "204": { description: "Cleared" }, ...ERRORS, ...NOT_FOUND },
  }),
  sandboxInboxDelivery: inbox({
    method: "get",
    path: `${INBOX_PATH_PREFIX}/{name}/deliveries/{id}`,
    summary: "One delivery the inbox received",
    pathParams: InboxPath.extend({ id: UuidSchema.meta({ description: "The inbox delivery's id" }) }),
    responses: {
      "200": { description: "The delivery", schema: InboxDeliverySchema },
      ...ERRORS,
      "404": error("`not_found`: no such inbox, or no such delivery in it"),
    },
  }),
});

export const INBOX_OPERATION_LIST: readonly ApiOperation[] = Object.values(INBOX_OPERATIONS);
