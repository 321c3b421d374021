import { ErrorBodySchema, type ApiOperation, type OperationResponse } from "../../sdk/contract/index.ts";
import {
  ActivityResponseSchema,
  ApproveActivityBodySchema,
  GetActivityBodySchema,
  RejectActivityBodySchema,
  TurnkeyErrorSchema,
} from "./turnkeySchemas.ts";
import { MAX_SIGNING_BODY_BYTES } from "./providerRoutes.ts";
import { STAMP_TIMESTAMP_WINDOW_MS } from "./stamp.ts";

/**
 * The signing provider's endpoints the sandbox serves (Turnkey's, under `/public/v1`), as an
 * operation table for the sandbox's OpenAPI document. The real service's customers call Turnkey
 * itself; these stand in for it (docs/approvals.md).
 */

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

export const SIGNING_PROVIDER_OPERATIONS: readonly ApiOperation[] = [
  {
    operationId: "signingGetActivity",
    method: "post",
    path: "/public/v1/query/get_activity",
    tag: SIGNING_TAG,
    summary: "Read a signing activity and its fingerprint (spec 4.14, step 3)",
    security: [STAMP_AUTH],
    body: { schema: GetActivityBodySchema, required: true },
    responses: { ...activity, ...ERRORS },
  },
  {
    operationId: "signingApproveActivity",
    method: "post",
    path: "/public/v1/submit/approve_activity",
    tag: SIGNING_TAG,
    summary: "Approve a signing activity by its fingerprint (spec 4.14, step 3)",
    security: [STAMP_AUTH],
    body: { schema: ApproveActivityBodySchema, required: true },
    responses: { ...activity, ...ERRORS },
  },
  {
    operationId: "signingRejectActivity",
    method: "post",
    path: "/public/v1/submit/reject_activity",
    tag: SIGNING_TAG,
    summary: "Reject a signing activity by its fingerprint",
    security: [STAMP_AUTH],
    body: { schema: RejectActivityBodySchema, required: true },
    responses: { ...activity, ...ERRORS },
  },
];
