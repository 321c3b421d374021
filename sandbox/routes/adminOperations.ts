import { z } from "zod";
import {
  DateTimeSchema,
  DepositSchema,
  ErrorBodySchema,
  StrategyUpdateSchema,
  UuidSchema,
  YieldSourceSchema,
  operationTable,
  type ApiOperation,
  type OperationResponse,
} from "../../sdk/nodejs/contract/index.ts";
import { BEARER_AUTH } from "../../sdk/nodejs/contract/operations.ts";
import { HttpFaultRequestSchema } from "../domain/faults.ts";
import { SimulateDepositSchema } from "../domain/money/deposits.ts";
import {
  AdvanceSchema,
  DeliveryQuerySchema,
  LedgerQuerySchema,
  LegFaultSchema,
  PolicySchema,
  RateLimitSchema,
  RateSchema,
  RegisterKeySchema,
  RejectSchema,
  SnapshotFileSchema,
  StrategyFaultSchema,
} from "./adminRequestSchemas.ts";

/**
 * The sandbox-only admin API (`/_sandbox/...`, docs/sandbox.md) as an operation table, for the
 * sandbox's second OpenAPI document. Its schemas live beside its routes: no client of the service
 * uses them. Answers whose shape is the sandbox's internal bookkeeping (the ledger audit, request
 * counts) are documented as JSON objects.
 */

/** The admin token header, when the sandbox was started with one (docs/sandbox.md "Admin token"). */
export const ADMIN_TOKEN_AUTH = "sandboxAdminToken";

export const ADMIN_TAG = "Sandbox admin";
export const DOCUMENTS_TAG = "Documents";

const error = (description: string): OperationResponse => ({ description, schema: ErrorBodySchema });
const ADMIN_ERRORS = {
  "401": error("`unauthorized`: missing or invalid API token"),
  "403": error(
    "`forbidden`: the admin API is off, the admin token is missing or wrong, or it is scoped to another organization than the API token's",
  ),
} as const;
const WITH_BODY = {
  ...ADMIN_ERRORS,
  "400": error("`validation_failed` naming every bad field, or `malformed_json`"),
  "413": error("`payload_too_large`: a body over 1 MB"),
} as const;
const NOT_FOUND = { "404": error("`not_found`: nothing of that id in the caller's organization") } as const;
const INVALID = { "400": error("`validation_failed` naming the bad parameter") } as const;

/** A JSON object whose fields are the sandbox's own bookkeeping. */
const JsonObject = z.looseObject({});
const ClockSchema = z.looseObject({
  now: DateTimeSchema.meta({ description: "The caller's organization's time" }),
  offsetMs: z.number().meta({
    description:
      "How far the organization's time is ahead of the wall clock (of a manual clock's start), in ms",
  }),
  organizationLeadMs: z
    .number()
    .meta({ description: "How far the organization's clock is ahead of the shared one, in ms" }),
  sharedNow: DateTimeSchema.meta({
    description: "The shared clock every organization's time counts from",
  }),
  scope: z
    .enum(["organization", "sandbox"])
    .optional()
    .meta({ description: "On an advance: whose clock moved, the caller's organization's or every one's" }),
});
const PolicyAnswerSchema = z.looseObject({
  strategyUpdateApprovals: z.number().int(),
  withdrawalApprovals: z.number().int(),
});
const ApproverKeySchema = z.looseObject({
  organizationId: z.string(),
  publicKey: z.string(),
  userId: z.string(),
  userName: z.string(),
  createdAt: DateTimeSchema,
});
const RateLimitAnswerSchema = z.looseObject({
  requestsPerSecond: z.number().nullable(),
  burst: z.number().int().optional(),
});
const SnapshotAnswerSchema = z.looseObject({
  file: z.string(),
  savedAt: DateTimeSchema.meta({ description: "The shared clock's time when the snapshot was saved" }),
});
const SandboxStateCountsSchema = z.object({
  organizations: z.number().int().meta({ description: "Organizations with wallets" }),
  wallets: z.number().int(),
});
const RestoreAnswerSchema = SnapshotAnswerSchema.extend({
  replaced: SandboxStateCountsSchema.meta({
    description: "What the sandbox held before the restore, every organization's: gone now",
  }),
  restored: SandboxStateCountsSchema.meta({ description: "What it holds after, the snapshot's" }),
});
const FileNamePath = z.object({ file: SnapshotFileSchema.shape.file });
const SnapshotFileListSchema = z.object({
  hasSnapshotDirectory: z.boolean().meta({
    description:
      "False for a sandbox keeping its data in memory without --snapshot-dir: it can save, export, list and read no file",
  }),
  files: z.array(
    z.object({
      file: z.string().meta({ description: "The file's name (never its path)" }),
      savedAt: DateTimeSchema.meta({ description: "The shared clock's time when it was written" }),
      bytes: z.number().int(),
    }),
  ),
});
const SnapshotFileContentSchema = z.object({
  file: z.string(),
  savedAt: DateTimeSchema,
  bytes: z.number().int(),
  contentBase64: z.string().meta({
    description: "The file's bytes, base64: a SQLite database, to keep as it is (`base64 -d`)",
  }),
});
const OrganizationFileAnswerSchema = z.looseObject({
  file: z.string(),
  organizationId: z.string(),
  wallets: z.number().int(),
  ledgerEntries: z.number().int(),
});
const SANDBOX_WIDE = {
  "403": error(
    "`forbidden`: as for every admin call, or the admin token sent is scoped to one organization (a snapshot holds every organization's state)",
  ),
} as const;
const SigningActivitySchema = z.looseObject({ id: z.string(), status: z.string() });
const DataList = z.looseObject({ data: z.array(JsonObject) });

/** Both security alternatives: the bearer token with the admin token, or alone when no admin token is set. */
const adminSecurity = [BEARER_AUTH, ADMIN_TOKEN_AUTH] as const;
const ActivityPath = z.object({ activityId: UuidSchema.meta({ description: "Signing activity id" }) });

/** An admin operation: its tag and security are every admin operation's. */
const admin = <const O extends Omit<ApiOperation, "operationId" | "tag" | "security">>(operation: O) => ({
  tag: ADMIN_TAG,
  security: adminSecurity,
  ...operation,
});

/**
 * Every admin operation, in the document's order. Registered from this table
 * (`sandbox/routes/adminRoutes.ts` joins the handlers of admin.ts, moneyAdmin.ts, snapshotAdmin.ts
 * and signing/adminRoutes.ts), so each route and its document entry are one declaration.
 */
export const ADMIN_OPERATIONS_BY_ID = operationTable({
  sandboxGetAdminScope: admin({
    method: "get",
    path: "/_sandbox/admin-scope",
    summary: "What the admin token sent may act on: the whole sandbox, or the caller's organization only",
    responses: {
      "200": {
        description:
          "`scope`: `sandbox` (the sandbox's admin token, or an admin API open to API tokens) or `organization` (an admin token scoped to `organizationId`, which refuses calls that act on every organization)",
        schema: z.looseObject({ organizationId: z.string(), scope: z.enum(["sandbox", "organization"]) }),
      },
      ...ADMIN_ERRORS,
    },
  }),
  sandboxGetPolicy: admin({
    method: "get",
    path: "/_sandbox/policy",
    summary: "The caller's approval policy",
    responses: { "200": { description: "The policy", schema: PolicyAnswerSchema }, ...ADMIN_ERRORS },
  }),
  sandboxSetPolicy: admin({
    method: "put",
    path: "/_sandbox/policy",
    summary: "Set how many approvals withdrawals and strategy updates need",
    body: { schema: PolicySchema, required: true },
    responses: { "200": { description: "The policy", schema: PolicyAnswerSchema }, ...WITH_BODY },
  }),
  sandboxSetRate: admin({
    method: "put",
    path: "/_sandbox/catalog/{positionKey}/rate",
    summary:
      "Change a yield source's current rate in the caller's organization's view of the catalog; with scope sandbox, in every organization's (the sandbox's admin token only)",
    pathParams: z.object({ positionKey: z.string().min(1) }),
    body: { schema: RateSchema, required: true },
    responses: {
      "200": {
        description:
          "The catalog entry as the caller's organization now sees it, and `scope`: whose view changed (`organization` or `sandbox`)",
        schema: YieldSourceSchema.extend({ scope: z.enum(["organization", "sandbox"]) }),
      },
      ...WITH_BODY,
      ...NOT_FOUND,
    },
  }),
  sandboxGetClock: admin({
    method: "get",
    path: "/_sandbox/clock",
    summary: "The caller's organization's clock",
    responses: { "200": { description: "Now and the offsets", schema: ClockSchema }, ...ADMIN_ERRORS },
  }),
  sandboxAdvanceClock: admin({
    method: "post",
    path: "/_sandbox/clock/advance",
    summary:
      "Move the caller's organization's clock forward; with scope sandbox, every organization's (the sandbox's admin token only)",
    body: { schema: AdvanceSchema, required: true },
    responses: { "200": { description: "Now and the offsets", schema: ClockSchema }, ...WITH_BODY },
  }),
  sandboxListFaults: admin({
    method: "get",
    path: "/_sandbox/faults",
    summary: "The caller's armed faults: HTTP faults, and planned leg and strategy-update failures",
    responses: {
      "200": {
        description:
          "`faults`: the HTTP faults with every field they were armed with; `planned`: `{ id, kind: withdrawal-leg | strategy-update, walletId, legKey?, reason }`",
        schema: z.looseObject({ faults: z.array(JsonObject), planned: z.array(JsonObject) }),
      },
      ...ADMIN_ERRORS,
    },
  }),
  sandboxAddFault: admin({
    method: "post",
    path: "/_sandbox/faults",
    summary: "Arm an HTTP fault: a status, a delay or a dropped connection",
    body: { schema: HttpFaultRequestSchema, required: true },
    responses: {
      "201": { description: "The armed fault", schema: JsonObject },
      ...WITH_BODY,
      "409": error("`conflict`: the most faults the sandbox keeps are armed"),
    },
  }),
  sandboxClearFaults: admin({
    method: "delete",
    path: "/_sandbox/faults",
    summary: "Disarm every fault of the caller",
    responses: { "204": { description: "Cleared" }, ...ADMIN_ERRORS },
  }),
  sandboxDisarmFault: admin({
    method: "delete",
    path: "/_sandbox/faults/{id}",
    summary:
      "Disarm one fault of the caller (an HTTP fault or a planned failure), by the id GET /_sandbox/faults lists",
    responses: { "204": { description: "Disarmed" }, ...ADMIN_ERRORS, ...NOT_FOUND },
  }),
  sandboxFailNextStrategyUpdate: admin({
    method: "post",
    path: "/_sandbox/faults/strategy-update",
    summary: "Make a wallet's next strategy update fail",
    body: { schema: StrategyFaultSchema, required: true },
    responses: { "201": { description: "Planned", schema: JsonObject }, ...WITH_BODY, ...NOT_FOUND },
  }),
  sandboxFailNextWithdrawalLeg: admin({
    method: "post",
    path: "/_sandbox/faults/withdrawal-leg",
    summary: "Make a payout leg of a wallet's next withdrawal fail",
    body: { schema: LegFaultSchema, required: true },
    responses: { "201": { description: "Planned", schema: JsonObject }, ...WITH_BODY, ...NOT_FOUND },
  }),
  sandboxGetRequestCounts: admin({
    method: "get",
    path: "/_sandbox/request-counts",
    summary: "API requests counted by method and route",
    responses: {
      "200": {
        description: "The counts",
        schema: z.looseObject({
          counts: z.record(z.string(), z.number()),
          inFlight: z.object({
            now: z.number().int().meta({ description: "The organization's API requests in flight now" }),
            peak: z
              .number()
              .int()
              .meta({ description: "The most in flight at once since the counts were reset" }),
          }),
          rateLimited: z.number().int().meta({
            description: "Requests refused by the emulated rate limit (429) since the counts were reset",
          }),
        }),
      },
      ...ADMIN_ERRORS,
    },
  }),
  sandboxGetRateLimit: admin({
    method: "get",
    path: "/_sandbox/rate-limit",
    summary: "The caller's organization's emulated rate limit",
    responses: {
      "200": { description: "The limit; `requestsPerSecond: null` for none", schema: RateLimitAnswerSchema },
      ...ADMIN_ERRORS,
    },
  }),
  sandboxSetRateLimit: admin({
    method: "put",
    path: "/_sandbox/rate-limit",
    summary:
      "Set the caller's organization's emulated rate limit (requests per second, in bursts of burst; null: none)",
    body: { schema: RateLimitSchema, required: true },
    responses: { "200": { description: "The limit", schema: RateLimitAnswerSchema }, ...WITH_BODY },
  }),
  sandboxResetRequestCounts: admin({
    method: "delete",
    path: "/_sandbox/request-counts",
    summary: "Reset the request counts",
    responses: { "204": { description: "Reset" }, ...ADMIN_ERRORS },
  }),
  sandboxSaveSnapshot: admin({
    method: "post",
    path: "/_sandbox/snapshot/save",
    summary:
      "Save the whole sandbox to a new file on its host, consistent while requests run (SQLite's online backup; the sandbox's admin token only)",
    body: { schema: SnapshotFileSchema, required: true },
    responses: {
      "201": { description: "Saved", schema: SnapshotAnswerSchema },
      ...WITH_BODY,
      ...SANDBOX_WIDE,
    },
  }),
  sandboxRestoreSnapshot: admin({
    method: "post",
    path: "/_sandbox/snapshot/restore",
    summary:
      "Replace the whole sandbox's state by a snapshot file's, once requests in flight have ended (the sandbox's admin token only)",
    body: { schema: SnapshotFileSchema, required: true },
    responses: {
      "200": {
        description:
          "Restored; `savedAt` is when the snapshot was saved, `replaced` and `restored` what the sandbox held before and after",
        schema: RestoreAnswerSchema,
      },
      ...WITH_BODY,
      ...SANDBOX_WIDE,
    },
  }),
  sandboxListSnapshots: admin({
    method: "get",
    path: "/_sandbox/snapshots",
    summary:
      "The whole-sandbox snapshots of the snapshot directory, newest first, by file name (the sandbox's admin token only)",
    responses: {
      "200": { description: "The snapshots", schema: SnapshotFileListSchema },
      ...ADMIN_ERRORS,
      ...SANDBOX_WIDE,
    },
  }),
  sandboxReadSnapshot: admin({
    method: "get",
    path: "/_sandbox/snapshots/{file}",
    summary:
      "A whole-sandbox snapshot file's bytes, checked as a restore checks it, to keep elsewhere (the sandbox's admin token only)",
    pathParams: FileNamePath,
    responses: {
      "200": { description: "The file", schema: SnapshotFileContentSchema },
      "400": error("`validation_failed`: not a file name, or a file that is no whole-sandbox snapshot"),
      ...ADMIN_ERRORS,
      ...SANDBOX_WIDE,
      "404": error("`not_found`: no such file in the snapshot directory"),
    },
  }),
  sandboxListOrganizationExports: admin({
    method: "get",
    path: "/_sandbox/organization/exports",
    summary: "The caller's organization's exports (its folder of the snapshot directory), newest first",
    responses: { "200": { description: "The exports", schema: SnapshotFileListSchema }, ...ADMIN_ERRORS },
  }),
  sandboxReadOrganizationExport: admin({
    method: "get",
    path: "/_sandbox/organization/exports/{file}",
    summary: "One of the caller's organization's export files, checked as an import checks it",
    pathParams: FileNamePath,
    responses: {
      "200": { description: "The file", schema: SnapshotFileContentSchema },
      "400": error("`validation_failed`: not a file name, or a file that is no organization export"),
      ...ADMIN_ERRORS,
      "404": error("`not_found`: no such file in the organization's folder"),
    },
  }),
  sandboxExportOrganization: admin({
    method: "post",
    path: "/_sandbox/organization/export",
    summary:
      "Export the caller's organization's wallets, balances and history to a new file on the sandbox's host",
    body: { schema: SnapshotFileSchema, required: true },
    responses: { "201": { description: "Exported", schema: OrganizationFileAnswerSchema }, ...WITH_BODY },
  }),
  sandboxImportOrganization: admin({
    method: "post",
    path: "/_sandbox/organization/import",
    summary:
      "Import an organization export into the caller's organization, which must have no wallets yet; ids are kept",
    body: { schema: SnapshotFileSchema, required: true },
    responses: {
      "200": { description: "Imported", schema: OrganizationFileAnswerSchema },
      ...WITH_BODY,
      "409": error(
        "`conflict`: the organization already has wallets, or an id of the export already exists in this sandbox",
      ),
    },
  }),
  sandboxGetSigningActivity: admin({
    method: "get",
    path: "/_sandbox/signing-activities/{activityId}",
    summary: "A signing activity",
    pathParams: ActivityPath,
    responses: {
      "200": { description: "The activity", schema: SigningActivitySchema },
      ...ADMIN_ERRORS,
      ...INVALID,
      ...NOT_FOUND,
    },
  }),
  sandboxApproveSigningActivity: admin({
    method: "post",
    path: "/_sandbox/signing-activities/{activityId}/approve",
    summary: "Approve a signing activity without a signing key",
    pathParams: ActivityPath,
    responses: {
      "200": { description: "The activity", schema: SigningActivitySchema },
      ...ADMIN_ERRORS,
      ...INVALID,
      ...NOT_FOUND,
      "409": error("`conflict`: the activity is already decided"),
    },
  }),
  sandboxRejectSigningActivity: admin({
    method: "post",
    path: "/_sandbox/signing-activities/{activityId}/reject",
    summary: "Reject a signing activity without a signing key",
    pathParams: ActivityPath,
    body: { schema: RejectSchema, required: false },
    responses: {
      "200": { description: "The activity", schema: SigningActivitySchema },
      ...WITH_BODY,
      ...NOT_FOUND,
      "409": error("`conflict`: the activity is already decided"),
    },
  }),
  sandboxGetStrategyUpdate: admin({
    method: "get",
    path: "/_sandbox/strategy-updates/{updateId}",
    summary: "A strategy update as stored, without settling due work",
    pathParams: z.object({ updateId: UuidSchema }),
    responses: {
      "200": { description: "The strategy update", schema: StrategyUpdateSchema },
      ...ADMIN_ERRORS,
      ...INVALID,
      ...NOT_FOUND,
    },
  }),
  sandboxSimulateDeposit: admin({
    method: "post",
    path: "/_sandbox/deposits",
    summary: "Simulate an on-chain transfer to a deposit address",
    body: { schema: SimulateDepositSchema, required: true },
    responses: {
      "201": { description: "The detected deposit", schema: DepositSchema },
      "200": { description: "The same transaction again: the original deposit", schema: DepositSchema },
      ...WITH_BODY,
      ...NOT_FOUND,
      "409": error("`idempotency_conflict`: the txHash was credited with another address or amount"),
    },
  }),
  sandboxLedgerSummary: admin({
    method: "get",
    path: "/_sandbox/ledger",
    summary: "The ledger audit: money in, out and held, per wallet",
    responses: { "200": { description: "The audit", schema: JsonObject }, ...ADMIN_ERRORS },
  }),
  sandboxLedgerEntries: admin({
    method: "get",
    path: "/_sandbox/ledger/entries",
    summary: "Recent ledger entries, newest first",
    query: LedgerQuerySchema,
    responses: { "200": { description: "The entries", schema: DataList }, ...ADMIN_ERRORS, ...INVALID },
  }),
  sandboxWebhookDeliveries: admin({
    method: "get",
    path: "/_sandbox/webhook-deliveries",
    summary: "Webhook delivery records",
    query: DeliveryQuerySchema,
    responses: { "200": { description: "The deliveries", schema: DataList }, ...ADMIN_ERRORS, ...INVALID },
  }),
  sandboxListApproverKeys: admin({
    method: "get",
    path: "/_sandbox/signing/api-keys",
    summary: "The API public keys that may approve the caller's signing activities",
    responses: {
      "200": { description: "The keys", schema: z.looseObject({ data: z.array(ApproverKeySchema) }) },
      ...ADMIN_ERRORS,
    },
  }),
  sandboxRegisterApproverKey: admin({
    method: "post",
    path: "/_sandbox/signing/api-keys",
    summary: "Register an API public key (compressed P-256) as an approver",
    body: { schema: RegisterKeySchema, required: true },
    responses: {
      "201": { description: "The registered key", schema: ApproverKeySchema },
      "200": { description: "Already registered: the key", schema: ApproverKeySchema },
      ...WITH_BODY,
    },
  }),
  sandboxDeleteApproverKey: admin({
    method: "delete",
    path: "/_sandbox/signing/api-keys/{publicKey}",
    summary: "Remove an approver key",
    pathParams: z.object({ publicKey: z.string().min(1) }),
    responses: { "204": { description: "Removed" }, ...ADMIN_ERRORS, ...INVALID, ...NOT_FOUND },
  }),
});

/** The same operations as a list, in the table's order (what the document lists). */
export const ADMIN_OPERATIONS: readonly ApiOperation[] = Object.values(ADMIN_OPERATIONS_BY_ID);

/** The routes that serve the documents themselves: no credentials. */
export const DOCUMENT_OPERATIONS_BY_ID = operationTable({
  getServiceOpenApiDocument: {
    method: "get",
    path: "/openapi.json",
    tag: DOCUMENTS_TAG,
    summary: "The OpenAPI 3.1 document of the service and of the signing provider's endpoints",
    security: [],
    responses: { "200": { description: "The document", schema: JsonObject } },
  },
  getSandboxAdminOpenApiDocument: {
    method: "get",
    path: "/openapi/sandbox-admin.json",
    tag: DOCUMENTS_TAG,
    summary: "This document: the sandbox's admin API",
    security: [],
    responses: { "200": { description: "The document", schema: JsonObject } },
  },
});

export const DOCUMENT_OPERATIONS: readonly ApiOperation[] = Object.values(DOCUMENT_OPERATIONS_BY_ID);
