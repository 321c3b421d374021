import { z } from "zod";
import {
  CreateWebhookRegistrationRequestSchema,
  DateTimeSchema,
  ErrorBodySchema,
  EventTypeSchema,
  PageQuerySchema,
  StatementPeriodSchema,
  StatementSchema,
  UuidSchema,
  WebhookRegistrationSchema,
  operationTable,
  type ApiOperation,
  type OperationResponse,
} from "../../sdk/nodejs/contract/index.ts";

import { BEARER_AUTH } from "../../sdk/nodejs/contract/operations.ts";

/**
 * The console's read API (consoleApi.ts) as an operation table, for the sandbox's second OpenAPI
 * document: sandbox-only reads, authenticated as the service's API, that the console page uses
 * and any script may too. The console's page and its static files are not API operations and are
 * not documented.
 */

/** The console's read API (consoleApi.ts): what the console shows that no endpoint of the service gives. */
export const CONSOLE_API_PREFIX = "/_console/api";

const limit = (defaultLimit: number, max: number) =>
  z.coerce
    .number({ error: `must be a whole number from 1 to ${max}` })
    .int(`must be a whole number from 1 to ${max}`)
    .min(1, `must be a whole number from 1 to ${max}`)
    .max(max, `must be a whole number from 1 to ${max}`)
    .default(defaultLimit);

export const ApprovalQuerySchema = z.object({
  status: z.enum(["pending", "all"], { error: "must be pending or all" }).default("pending"),
  limit: limit(50, 100),
});
export const LimitQuerySchema = z.object({ limit: limit(25, 100) });
export const DeliveryQuerySchema = z.object({
  status: z
    .enum(["pending", "succeeded", "failed", "cancelled"], {
      error: "must be pending, succeeded, failed or cancelled",
    })
    .optional(),
  registrationId: z.string().min(1).max(100).optional(),
  eventType: z.string().min(1).max(200).optional(),
  walletId: UuidSchema.optional(),
  limit: limit(50, 200),
});

export const CONSOLE_TAG = "Sandbox console";

export const error = (description: string): OperationResponse => ({ description, schema: ErrorBodySchema });
export const ERRORS = {
  "401": error("`unauthorized`: missing or invalid API token"),
  "400": error("`validation_failed` naming the bad parameter"),
} as const;
const NOT_FOUND = { "404": error("`not_found`: no wallet of that id in the caller's organization") } as const;

/** Records whose fields are the sandbox's own view for the console (docs/sandbox.md "Console API"). */
const DataList = z.looseObject({ data: z.array(z.looseObject({})) });
const WalletPath = z.object({ id: UuidSchema.meta({ description: "Portfolio wallet id" }) });
const DeliveryPath = z.object({ id: UuidSchema.meta({ description: "Webhook delivery id" }) });
const SessionSchema = z.looseObject({
  organizationId: z.string(),
  adminApi: z.enum(["open", "token", "off"]),
  now: DateTimeSchema,
  eventTypes: z.array(z.string()).meta({ description: "The webhook event types a registration may list" }),
});

/** A registration's id in a console path. */
const RegistrationPath = z.object({
  registrationId: UuidSchema.meta({ description: "Webhook registration id" }),
});
const WITH_BODY = {
  ...ERRORS,
  "400": error("`validation_failed` naming every bad field, or `malformed_json`"),
  "413": error("`payload_too_large`: a body over 1 MB"),
} as const;
const REGISTRATION_NOT_FOUND = {
  "404": error("`not_found`: no registration of that id in the caller's organization"),
} as const;

/** An edit of a registration: any of the fields a registration is made with, checked the same way. */
export const WebhookEditSchema = CreateWebhookRegistrationRequestSchema.pick({
  url: true,
  eventTypes: true,
  description: true,
}).partial();
export const TestEventRequestSchema = z.looseObject({
  eventType: EventTypeSchema.meta({
    description: "The type of the test event: one the registration subscribes to",
  }),
});

/**
 * What the console does to a webhook registration that the service's interface shows no operation
 * for (docs/spec-gaps.md): editing it, and sending it a test event. Registered from this table
 * (sandbox/http/operationRoutes.ts), so their inputs are parsed by these schemas before anything runs.
 */
export const CONSOLE_WEBHOOK_OPERATIONS = operationTable({
  consoleEditWebhookRegistration: {
    method: "patch",
    path: `${CONSOLE_API_PREFIX}/webhook-registrations/{registrationId}`,
    tag: CONSOLE_TAG,
    security: [BEARER_AUTH],
    summary: "Change a registration's URL, event types or description",
    description:
      "Fields left out stay as they are. The URL policy applies as at registration. The secret and status stay; deliveries already queued go to the new URL.",
    pathParams: RegistrationPath,
    body: { schema: WebhookEditSchema, required: true },
    responses: {
      "200": { description: "The registration as edited", schema: WebhookRegistrationSchema },
      ...WITH_BODY,
      ...REGISTRATION_NOT_FOUND,
    },
  },
  consoleSendTestEvent: {
    method: "post",
    path: `${CONSOLE_API_PREFIX}/webhook-registrations/{registrationId}/test-events`,
    tag: CONSOLE_TAG,
    security: [BEARER_AUTH],
    summary:
      "Send a registration a test event of a type it subscribes to: made-up ids, `test: true` in its body, signed and retried as every event",
    pathParams: RegistrationPath,
    body: { schema: TestEventRequestSchema, required: true },
    responses: {
      "201": { description: "The test event's delivery, pending", schema: z.looseObject({}) },
      ...WITH_BODY,
      ...REGISTRATION_NOT_FOUND,
      "409": error("`conflict`: the registration is disabled"),
    },
  },
});

export const RequestLogQuerySchema = z.object({
  method: z
    .enum(["GET", "POST", "PUT", "PATCH", "DELETE"], { error: "must be GET, POST, PUT, PATCH or DELETE" })
    .optional(),
  status: z
    .string()
    .regex(/^(?:[1-5]xx|[1-5]\d\d)$/, "must be a status code such as 404, or a class such as 4xx")
    .optional(),
  walletId: UuidSchema.optional(),
  requestId: UuidSchema.optional(),
  actionId: UuidSchema.optional().meta({
    description: "The console's action of this id, as its X-Sandbox-Console-Action-Id header sent it",
  }),
  limit: z.coerce
    .number({ error: "must be a whole number from 1 to 200" })
    .int("must be a whole number from 1 to 200")
    .min(1, "must be a whole number from 1 to 200")
    .max(200, "must be a whole number from 1 to 200")
    .default(50),
});

/** A step of an object's timeline (objectPages.ts): on the sandbox's clock or the wall clock, said. */
export const TimelineStepSchema = z.looseObject({
  at: DateTimeSchema,
  clock: z.enum(["sandbox", "wall"]),
  what: z.enum(["request", "state", "event", "vote"]),
  text: z.string(),
  status: z.string().nullable(),
  eventId: UuidSchema.optional(),
  eventType: z.string().optional(),
  deliveries: z.array(z.looseObject({ id: UuidSchema })).optional(),
  requestId: UuidSchema.optional(),
  dueAt: DateTimeSchema.optional(),
});
export const RelatedObjectSchema = z.looseObject({
  kind: z.string(),
  id: UuidSchema,
  walletId: UuidSchema.nullable(),
  relation: z.string(),
  exists: z.boolean(),
});
export const ObjectPageSchema = z.looseObject({
  kind: z.string(),
  id: UuidSchema,
  walletId: UuidSchema.nullable(),
  object: z.unknown(),
  madeBy: z.looseObject({ requestId: UuidSchema }).nullable(),
  timeline: z.array(TimelineStepSchema),
  related: z.array(RelatedObjectSchema),
});

/**
 * The request log (sandbox/domain/requestLog.ts): the organization's last requests, bodies
 * redacted, read by the console's Events page.
 */
export const CONSOLE_LOG_OPERATIONS = operationTable({
  consoleRequestLog: {
    method: "get",
    path: `${CONSOLE_API_PREFIX}/requests`,
    tag: CONSOLE_TAG,
    security: [BEARER_AUTH],
    summary:
      "The organization's last requests (at most 500 kept), newest first: method, path, status, time, request id, wallet; without bodies",
    query: RequestLogQuerySchema,
    responses: { "200": { description: "The requests", schema: DataList }, ...ERRORS },
  },
  consoleFindId: {
    method: "get",
    path: `${CONSOLE_API_PREFIX}/ids/{id}`,
    tag: CONSOLE_TAG,
    security: [BEARER_AUTH],
    summary:
      "What an id names in the caller's organization: a wallet, deposit, withdrawal, strategy update, signing activity, webhook registration or delivery, a logged request, or the object a client's requestId made",
    pathParams: z.object({ id: UuidSchema.meta({ description: "Any id the sandbox gives" }) }),
    responses: {
      "200": {
        description: "`{ kind, id, walletId }`: `walletId` names the wallet it belongs to, or is null",
        schema: z.looseObject({ kind: z.string(), id: z.string(), walletId: z.string().nullable() }),
      },
      ...ERRORS,
      "404": error("`not_found`: nothing of that id in the caller's organization"),
    },
  },
  consoleObjectPage: {
    method: "get",
    path: `${CONSOLE_API_PREFIX}/objects/{id}`,
    tag: CONSOLE_TAG,
    security: [BEARER_AUTH],
    summary:
      "An object's page: what an id names (as consoleFindId finds it), the object as the API answers it, the request that made it while the request log holds it, its timeline and the objects it relates to",
    pathParams: z.object({
      id: UuidSchema.meta({ description: "Any id the sandbox gives, or a client's requestId" }),
    }),
    responses: {
      "200": { description: "The object's page", schema: ObjectPageSchema },
      ...ERRORS,
      "404": error("`not_found`: nothing of that id in the caller's organization"),
    },
  },
  consoleLoggedRequest: {
    method: "get",
    path: `${CONSOLE_API_PREFIX}/requests/{requestId}`,
    tag: CONSOLE_TAG,
    security: [BEARER_AUTH],
    summary:
      "One logged request with its request and answer bodies, secrets redacted, cut at 4096 characters",
    pathParams: z.object({ requestId: UuidSchema.meta({ description: "The request's x-request-id" }) }),
    responses: {
      "200": { description: "The request", schema: z.looseObject({}) },
      ...ERRORS,
      "404": error("`not_found`: no request of that id in the caller's organization's log"),
    },
  },
});

/** Operations of one tag authenticated as the service's API (the console's, the webhook inboxes'). */
export const bearerOperation =
  (tag: string) =>
  <const O extends Omit<ApiOperation, "operationId" | "tag" | "security">>(operation: O) => ({
    tag,
    security: [BEARER_AUTH] as const,
    ...operation,
  });

/** A console read: its tag and security are every console operation's. */
const read = bearerOperation(CONSOLE_TAG);

/** The console's reads of wallets, approvals and deliveries (consoleApi.ts serves them). */
export const CONSOLE_READ_OPERATIONS = operationTable({
  consoleSession: read({
    method: "get",
    path: `${CONSOLE_API_PREFIX}/session`,
    summary:
      "The token's organization, whether the admin API is open, off or needs its token, and the sandbox clock",
    responses: { "200": { description: "The session", schema: SessionSchema }, "401": ERRORS["401"] },
  }),
  consoleSigningActivities: read({
    method: "get",
    path: `${CONSOLE_API_PREFIX}/signing-activities`,
    summary: "The organization's approval requests with what each would do and the votes so far",
    query: ApprovalQuerySchema,
    responses: { "200": { description: "The approval requests", schema: DataList }, ...ERRORS },
  }),
  consoleWalletStrategyUpdates: read({
    method: "get",
    path: `${CONSOLE_API_PREFIX}/wallets/{id}/strategy-updates`,
    summary: "A wallet's strategy updates, newest first",
    pathParams: WalletPath,
    query: LimitQuerySchema,
    responses: { "200": { description: "The strategy updates", schema: DataList }, ...ERRORS, ...NOT_FOUND },
  }),
  consoleWalletHistory: read({
    method: "get",
    path: `${CONSOLE_API_PREFIX}/wallets/{id}/history`,
    summary:
      "A wallet's balance, positions and generated yield over sandbox time, replayed from its ledger: one point per moment something was booked",
    pathParams: WalletPath,
    responses: {
      "200": {
        description:
          "`points: [{ at, balanceUsd, yieldGeneratedUsd, positions }]`, oldest first; `truncated` when the ledger is longer than the replay reads",
        schema: z.looseObject({ points: z.array(z.looseObject({})), truncated: z.boolean() }),
      },
      ...ERRORS,
      ...NOT_FOUND,
    },
  }),
  consoleWalletDeposits: read({
    method: "get",
    path: `${CONSOLE_API_PREFIX}/wallets/{id}/deposits`,
    summary:
      "A wallet's deposits, newest first, each with the amount its ledger routed to each leg's position",
    pathParams: WalletPath,
    query: PageQuerySchema,
    responses: {
      "200": {
        description:
          "A page of deposits as the public list answers them, each plus `legs: [{ legKey, status, amount }]` (`amount` null until the deposit completes; 0 for a skipped leg)",
        schema: DataList.extend({ pageSize: z.number().int(), nextCursor: z.string().nullable() }),
      },
      ...ERRORS,
      ...NOT_FOUND,
    },
  }),
  consoleWalletWithdrawals: read({
    method: "get",
    path: `${CONSOLE_API_PREFIX}/wallets/{id}/withdrawals`,
    summary: "A wallet's withdrawals with each payout leg's due and paid times, newest first",
    pathParams: WalletPath,
    query: PageQuerySchema,
    responses: {
      "200": {
        description: "A page of withdrawals",
        schema: DataList.extend({ pageSize: z.number().int(), nextCursor: z.string().nullable() }),
      },
      ...ERRORS,
      ...NOT_FOUND,
    },
  }),
  consoleWalletStatement: read({
    method: "get",
    path: `${CONSOLE_API_PREFIX}/wallets/{id}/statement`,
    summary:
      "A wallet's statement over the period (from, to]: opening balance, deposits, withdrawals, payouts, yield, closing balance and each movement, computed as the client's statements.retrieve computes it",
    pathParams: WalletPath,
    query: StatementPeriodSchema,
    responses: {
      "200": {
        description: "The statement, amounts in micro-units as decimal text",
        schema: StatementSchema,
      },
      ...ERRORS,
      ...NOT_FOUND,
    },
  }),
  consoleWebhookDeliveries: read({
    method: "get",
    path: `${CONSOLE_API_PREFIX}/webhook-deliveries`,
    summary:
      "The organization's recent webhook deliveries: event type, attempts, last status code, next retry",
    query: DeliveryQuerySchema,
    responses: { "200": { description: "The deliveries", schema: DataList }, ...ERRORS },
  }),
  consoleWebhookDelivery: read({
    method: "get",
    path: `${CONSOLE_API_PREFIX}/webhook-deliveries/{id}`,
    summary:
      "One webhook delivery with its event's body and the headers its attempts send (how the timestamp and signature are made)",
    pathParams: DeliveryPath,
    responses: {
      "200": { description: "The delivery, with `payload` and `headers`", schema: z.looseObject({}) },
      ...ERRORS,
      "404": error("`not_found`: no delivery of that id in the caller's organization"),
    },
  }),
  consoleRedeliverWebhook: read({
    method: "post",
    path: `${CONSOLE_API_PREFIX}/webhook-deliveries/{id}/redeliver`,
    summary:
      "Send a delivery's event to its registration again, as a new delivery (same event id and body); the registration must be active",
    pathParams: DeliveryPath,
    responses: {
      "201": { description: "The new delivery, pending", schema: z.looseObject({}) },
      ...ERRORS,
      "404": error("`not_found`: no delivery of that id in the caller's organization"),
      "409": error("`conflict`: the registration is disabled or deleted, or the event's body was pruned"),
    },
  }),
});

/** Every console operation, in the document's order. */
export const CONSOLE_OPERATIONS: readonly ApiOperation[] = [
  ...Object.values(CONSOLE_READ_OPERATIONS),
  ...Object.values(CONSOLE_WEBHOOK_OPERATIONS),
  ...Object.values(CONSOLE_LOG_OPERATIONS),
];
