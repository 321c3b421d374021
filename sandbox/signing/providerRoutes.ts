import { Hono, type Context, type MiddlewareHandler } from "hono";
import type { z } from "zod";
import {
  describeFieldProblems,
  fieldProblemsOf,
  safeParseInContractWording,
} from "../../sdk/nodejs/contract/index.ts";
import type { SandboxContext } from "../http/context.ts";
import { NotFoundError } from "../domain/errors.ts";
import { castVote } from "../domain/signingVotes.ts";
import { toTurnkeyErrorResponse, TurnkeyHttpError } from "../http/errors.ts";
import { refuseBodiesOver } from "../http/transportMiddleware.ts";
import { findSigningActivity, type SigningActivityRecord } from "../store/signingActivityStore.ts";
import {
  findApproverKey,
  isRegisteredApproverKey,
  listApproverKeys,
  listVotes,
  type ApproverKeyRecord,
  type VoteSelection,
} from "../store/signingProviderStore.ts";
import { turnkeyActivityView } from "./activityView.ts";
import type {
  ApproveActivityBodySchema,
  RejectActivityBodySchema,
} from "../../sdk/nodejs/contract/signingProvider.ts";
import {
  OrganizationSchema,
  MAX_SIGNING_BODY_BYTES,
  SIGNING_PROVIDER_OPERATIONS_BY_ID,
  SIGNING_PROVIDER_PREFIX,
} from "../../sdk/nodejs/contract/signingProvider.ts";
import type { SandboxEnv } from "../http/env.ts";
import { ok, registerOperations } from "../http/operationRoutes.ts";
import {
  activityTimestampProblem,
  parseStamp,
  STAMP_DOES_NOT_VERIFY,
  STAMP_HEADER,
  StampError,
  verifyStamp,
  type ApiKeyStamp,
} from "./stamp.ts";

/** What the stamp check hands to the handlers: the verified caller and the body it signed. */
type StampedVariables = {
  signer: ApproverKeyRecord;
  /** The body exactly as received and verified. */
  stampedText: string;
  stampedBody: unknown;
  stampSignature: string;
};
type SigningEnv = { Bindings: SandboxEnv["Bindings"]; Variables: SandboxEnv["Variables"] & StampedVariables };

function parseOr400<S extends z.ZodType>(schema: S, value: unknown): z.infer<S> {
  const result = safeParseInContractWording(schema, value);
  if (!result.success)
    throw new TurnkeyHttpError(
      "invalidArgument",
      `invalid request: ${describeFieldProblems(fieldProblemsOf(result.error))}`,
    );
  return result.data;
}

/**
 * Verifies the `X-Stamp` of every request before anything else reads the request: an ECDSA
 * P-256/SHA-256 signature, DER hex, over the raw body bytes, by an API key registered for the
 * organization the body names. What can be checked without the body comes first: the header's
 * shape, and that some organization registered its key. Only then is the body read, at most
 * MAX_SIGNING_BODY_BYTES of it, so a caller without a registered key never makes the sandbox read,
 * decode or parse a large body. The raw bytes are verified before JSON parsing, since re-serialized
 * JSON need not match what was signed. Every refusal of a well-formed stamp is the same 401 with
 * code 16 (STAMP_DOES_NOT_VERIFY), so a caller cannot tell an unknown organization from an
 * unregistered key or a key of another organization.
 */
function stampCheck(ctx: SandboxContext): MiddlewareHandler<SigningEnv> {
  const refuse = (message: string) =>
    new TurnkeyHttpError("unauthenticated", `could not verify the request's stamp: ${message}`);
  const limitBody = refuseBodiesOver<SigningEnv>(
    MAX_SIGNING_BODY_BYTES,
    `the request body is larger than ${MAX_SIGNING_BODY_BYTES} bytes, the most the signing provider reads`,
  );
  return async (c, next) => {
    let stamp: ApiKeyStamp;
    try {
      stamp = parseStamp(c.req.header(STAMP_HEADER));
    } catch (error) {
      if (error instanceof StampError) throw refuse(error.message);
      throw error;
    }
    if (!isRegisteredApproverKey(ctx.db, stamp.publicKey)) throw refuse(STAMP_DOES_NOT_VERIFY);
    await limitBody(c, async () => {
      const raw = new Uint8Array(await c.req.arrayBuffer());
      const text = new TextDecoder().decode(raw);
      const organizationId = organizationIdIn(text);
      const signer =
        organizationId === undefined ? null : findApproverKey(ctx.db, organizationId, stamp.publicKey);
      try {
        verifyStamp(stamp, raw, () => signer !== null);
      } catch (error) {
        if (error instanceof StampError) throw refuse(error.message);
        throw error;
      }
      if (signer === null) throw new Error("a verified stamp must belong to a registered API key");
      c.set("signer", signer);
      c.set("stampedText", text);
      c.set("stampedBody", JSON.parse(text) as unknown);
      c.set("stampSignature", stamp.signature);
      await next();
    });
  };
}

/** The body's organizationId, read leniently: the stamp is checked before the body is validated. */
function organizationIdIn(text: string): string | undefined {
  try {
    const parsed = OrganizationSchema.safeParse(JSON.parse(text));
    return parsed.success ? parsed.data.organizationId : undefined;
  } catch {
    return undefined;
  }
}

/**
 * The signing provider's endpoints the Turnkey SDK calls for approvals, so that `@turnkey/sdk-server`
 * runs against the sandbox unchanged: get_activity, approve_activity and reject_activity, from the
 * contract's table (SIGNING_PROVIDER_OPERATIONS_BY_ID). Answers and errors have Turnkey's shapes
 * (`{ activity }`, `{ code, message, details }`). Mount it at `/`: its paths are the table's.
 */
export function signingProviderRoutes(ctx: SandboxContext): Hono<SigningEnv> {
  const routes = new Hono<SigningEnv>();
  routes.onError((error, c) => toTurnkeyErrorResponse(c, error));
  routes.use(`${SIGNING_PROVIDER_PREFIX}/*`, stampCheck(ctx));

  const answer = (activity: SigningActivityRecord, signer: ApproverKeyRecord) => ({
    activity: turnkeyActivityView(
      activity,
      listVotes(ctx.db, activity.id),
      listApproverKeys(ctx.db, activity.organizationId),
      signer.publicKey,
    ),
  });

  const vote =
    (selection: VoteSelection) =>
    (
      { body }: { body: z.output<typeof ApproveActivityBodySchema | typeof RejectActivityBodySchema> },
      _org: string,
      c: Context<SigningEnv>,
    ) => {
      const stale = activityTimestampProblem(body.timestampMs, Date.now());
      if (stale !== null)
        throw new TurnkeyHttpError("unauthenticated", `could not verify the request's stamp: ${stale}`);
      const signer = c.get("signer");
      const decided = castVote(ctx.approvals, {
        organizationId: body.organizationId,
        fingerprint: body.parameters.fingerprint,
        signer,
        selection,
        message: c.get("stampedText"),
        signature: c.get("stampSignature"),
      });
      return ok(answer(decided, signer));
    };

  registerOperations(
    routes,
    SIGNING_PROVIDER_OPERATIONS_BY_ID,
    {
      signingGetActivity: ({ body: { organizationId, activityId } }, _org, c) => {
        const activity = findSigningActivity(ctx.db, organizationId, activityId);
        if (activity === null)
          throw new NotFoundError(`activity ${activityId} in organization ${organizationId}`);
        return ok(answer(activity, c.get("signer")));
      },
      signingApproveActivity: vote("VOTE_SELECTION_APPROVED"),
      signingRejectActivity: vote("VOTE_SELECTION_REJECTED"),
    },
    // The body was read and its stamp verified by stampCheck; a bad one is refused in Turnkey's shape.
    { readBody: (c, schema) => parseOr400(schema, c.get("stampedBody")) },
  );
  return routes;
}
