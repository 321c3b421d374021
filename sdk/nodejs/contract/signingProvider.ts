import { z } from "zod";
import { ErrorBodySchema } from "./errors.ts";
import { operationTable, type ApiOperation, type OperationResponse } from "./operation.ts";

/**
 * The signing provider's endpoints the sandbox serves (Turnkey's, under `/public/v1`): their
 * bodies and answers in Turnkey's shapes (what `@turnkey/sdk-server` sends and reads), the limits
 * the sandbox applies, and their operation table. The real service's customers call Turnkey itself;
 * these stand in for it (docs/approvals.md). Here, below the sandbox, because the published OpenAPI
 * document lists them (`serviceDocument.ts`). Kept out of the contract's index: they are not the
 * service's own shapes.
 */

export const OrganizationSchema = z.looseObject({ organizationId: z.string().min(1, "must not be empty") });

export const GetActivityBodySchema = z.looseObject({
  organizationId: z.string().min(1, "must not be empty"),
  activityId: z.string().min(1, "must not be empty"),
});

export const APPROVE_ACTIVITY = "ACTIVITY_TYPE_APPROVE_ACTIVITY";
export const REJECT_ACTIVITY = "ACTIVITY_TYPE_REJECT_ACTIVITY";

/** The body of approve_activity or reject_activity, whose `type` names which. */
export const voteBodySchema = (type: typeof APPROVE_ACTIVITY | typeof REJECT_ACTIVITY) =>
  z.looseObject({
    type: z.literal(type, `must be ${type}`),
    timestampMs: z.string().regex(/^\d{1,16}$/, "must be a millisecond timestamp as a string of digits"),
    organizationId: z.string().min(1, "must not be empty"),
    parameters: z.looseObject({ fingerprint: z.string().min(1, "must not be empty") }),
  });
export const ApproveActivityBodySchema = voteBodySchema(APPROVE_ACTIVITY);
export const RejectActivityBodySchema = voteBodySchema(REJECT_ACTIVITY);

/** Turnkey's timestamp: seconds and nanoseconds since the epoch, both strings. */
const TurnkeyTimestampSchema = z.looseObject({ seconds: z.string(), nanos: z.string() });

/** `{ activity }`: a signing activity as Turnkey's v1Activity (see activityView.ts). */
export const ActivityResponseSchema = z.looseObject({
  activity: z.looseObject({
    id: z.string(),
    organizationId: z.string(),
    status: z.string(),
    type: z.string(),
    intent: z.looseObject({}),
    result: z.looseObject({}),
    votes: z.array(
      z.looseObject({
        id: z.string(),
        userId: z.string(),
        activityId: z.string(),
        selection: z.string(),
        message: z.string(),
        publicKey: z.string(),
        signature: z.string(),
        scheme: z.string(),
        createdAt: TurnkeyTimestampSchema,
      }),
    ),
    fingerprint: z.string(),
    canApprove: z.boolean(),
    canReject: z.boolean(),
    createdAt: TurnkeyTimestampSchema,
    updatedAt: TurnkeyTimestampSchema,
    failure: z.looseObject({ code: z.number(), message: z.string() }).optional(),
  }),
});

/** Turnkey's error body: a gRPC status code, a message and details. */
export const TurnkeyErrorSchema = z.looseObject({
  code: z.number().int(),
  message: z.string(),
  details: z.array(z.unknown()),
});

/**
 * The largest body the signing provider reads: 4 KB. Its bodies are a few hundred bytes; a larger
 * one is refused with 413 before it is read (the app-wide 1 MB limit is for the service's API).
 */
export const MAX_SIGNING_BODY_BYTES = 4 * 1024;

/**
 * How far an activity's `timestampMs` may be from the sandbox host's real clock, either way: 5
 * minutes. Turnkey refuses activity requests whose timestamp is stale, so a captured approval
 * cannot be replayed later; the sandbox does the same with this window (docs/approvals.md).
 * Queries (get_activity) carry no timestamp, at Turnkey as here.
 */
export const STAMP_TIMESTAMP_WINDOW_MS = 5 * 60 * 1000;

/** Turnkey authenticates a request by the X-Stamp header: a signature over the body by an API key. */
export const STAMP_AUTH = "turnkeyApiKeyStamp";
export const SIGNING_TAG = "Signing provider (sandbox stand-in)";

const error = (description: string): OperationResponse => ({ description, schema: TurnkeyErrorSchema });
const ERRORS = {
  "400": error(
    "code 3 (invalid argument) or 9 (failed precondition): a bad body, or an activity that takes no more votes",
  ),
  "401": error(
    `code 16 (unauthenticated): the stamp is missing or malformed, does not verify (one answer for an unregistered key, a key of another organization and a signature that does not match the body), or stamps an activity whose timestampMs is more than ${STAMP_TIMESTAMP_WINDOW_MS / 60_000} minutes from now`,
  ),
  "404": error("code 5 (not found): no such activity in the organization"),
  "413": {
    description: `A body over ${MAX_SIGNING_BODY_BYTES / 1024} KB, the signing provider's limit, refused unread once the stamp's key is known (the service's error body)`,
    schema: ErrorBodySchema,
  },
  "500": error("code 13 (internal)"),
} as const;
const activity = { "200": { description: "The activity", schema: ActivityResponseSchema } } as const;

/** Where the signing provider's API lives, as the Turnkey SDK calls it (`apiBaseUrl` + this). */
export const SIGNING_PROVIDER_PREFIX = "/public/v1";

/** The signing provider's operations; the sandbox serves them from this table (sandbox/signing/providerRoutes.ts). */
export const SIGNING_PROVIDER_OPERATIONS_BY_ID = operationTable({
  signingGetActivity: {
    method: "post",
    path: `${SIGNING_PROVIDER_PREFIX}/query/get_activity`,
    tag: SIGNING_TAG,
    summary: "Read a signing activity and its fingerprint (spec 4.14, step 3)",
    security: [STAMP_AUTH],
    body: { schema: GetActivityBodySchema, required: true },
    responses: { ...activity, ...ERRORS },
  },
  signingApproveActivity: {
    method: "post",
    path: `${SIGNING_PROVIDER_PREFIX}/submit/approve_activity`,
    tag: SIGNING_TAG,
    summary: "Approve a signing activity by its fingerprint (spec 4.14, step 3)",
    security: [STAMP_AUTH],
    body: { schema: ApproveActivityBodySchema, required: true },
    responses: { ...activity, ...ERRORS },
  },
  signingRejectActivity: {
    method: "post",
    path: `${SIGNING_PROVIDER_PREFIX}/submit/reject_activity`,
    tag: SIGNING_TAG,
    summary: "Reject a signing activity by its fingerprint",
    security: [STAMP_AUTH],
    body: { schema: RejectActivityBodySchema, required: true },
    responses: { ...activity, ...ERRORS },
  },
});

/** The signing provider's operations, as the published document lists them. */
export const SIGNING_PROVIDER_OPERATIONS: readonly ApiOperation[] = Object.values(
  SIGNING_PROVIDER_OPERATIONS_BY_ID,
);
