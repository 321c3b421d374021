import { z } from "zod";

/**
 * The bodies and answers of the signing provider's endpoints, in Turnkey's shapes (what
 * `@turnkey/sdk-server` sends and reads): what the routes parse and what the sandbox's OpenAPI
 * document shows, written once.
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
