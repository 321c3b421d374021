import type { SigningActivityRecord } from "../store/signingActivityStore.ts";
import type { ApproverKeyRecord, VoteRecord } from "../store/signingProviderStore.ts";
import { API_KEY_STAMP_SCHEME } from "./stamp.ts";

/** Turnkey's timestamp: seconds and nanoseconds since the epoch, both as strings. */
export function turnkeyTimestamp(iso: string): { seconds: string; nanos: string } {
  const ms = Date.parse(iso);
  return { seconds: String(Math.floor(ms / 1000)), nanos: String((ms % 1000) * 1_000_000) };
}

/** Turnkey's user object for an approver key (an API-only user). */
function userOf(userId: string, key: ApproverKeyRecord | undefined, fallbackAt: string) {
  const at = turnkeyTimestamp(key?.createdAt ?? fallbackAt);
  return {
    userId,
    userName: key?.userName ?? "removed approver",
    authenticators: [],
    apiKeys: [],
    userTags: [],
    oauthProviders: [],
    mfaPolicies: [],
    createdAt: at,
    updatedAt: at,
  };
}

const CONSENSUS_NEEDED = "ACTIVITY_STATUS_CONSENSUS_NEEDED";

/**
 * A sandbox signing activity in the shape of Turnkey's `v1Activity`, as `get_activity`,
 * `approve_activity` and `reject_activity` answer it. The operation awaiting approval is described
 * as a raw payload to sign (a JSON text naming the kind and id of the operation), so an approver
 * can see what it approves. `canApprove` and `canReject` are from the point of view of `callerKey`.
 */
export function turnkeyActivityView(
  activity: SigningActivityRecord,
  votes: readonly VoteRecord[],
  keys: readonly ApproverKeyRecord[],
  callerKey: string,
) {
  const callerHasVoted = votes.some((vote) => vote.publicKey === callerKey);
  const votable = activity.status === CONSENSUS_NEEDED && !callerHasVoted;
  const failed =
    activity.status === "ACTIVITY_STATUS_REJECTED" || activity.status === "ACTIVITY_STATUS_FAILED";
  return {
    id: activity.id,
    organizationId: activity.organizationId,
    status: activity.status,
    type: "ACTIVITY_TYPE_SIGN_RAW_PAYLOAD_V2",
    intent: {
      signRawPayloadIntentV2: {
        signWith: activity.organizationId,
        payload: JSON.stringify({ kind: activity.kind, id: activity.subjectId }),
        encoding: "PAYLOAD_ENCODING_TEXT_UTF8",
        hashFunction: "HASH_FUNCTION_SHA256",
      },
    },
    result: {},
    votes: votes.map((vote) => ({
      id: vote.id,
      userId: vote.userId,
      user: userOf(
        vote.userId,
        keys.find((key) => key.publicKey === vote.publicKey),
        vote.createdAt,
      ),
      activityId: vote.activityId,
      selection: vote.selection,
      message: vote.message,
      publicKey: vote.publicKey,
      signature: vote.signature,
      scheme: API_KEY_STAMP_SCHEME,
      createdAt: turnkeyTimestamp(vote.createdAt),
    })),
    fingerprint: activity.fingerprint,
    canApprove: votable,
    canReject: votable,
    createdAt: turnkeyTimestamp(activity.createdAt),
    updatedAt: turnkeyTimestamp(activity.updatedAt),
    ...(failed
      ? { failure: { code: 9, message: activity.failureReason ?? activity.status, details: [] } }
      : {}),
  };
}
