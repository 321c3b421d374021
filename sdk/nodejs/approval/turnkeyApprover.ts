import { z } from "zod";
import { howToSet, type ApproverSettings } from "../stackSettings.ts";
import {
  ApprovalError,
  MissingFingerprintError,
  SigningActivityNotFoundError,
  SigningCredentialsError,
  SigningProviderConnectionError,
  SigningProviderError,
} from "./errors.ts";
import { validateApproverSettings } from "./validateApproverSettings.ts";

/**
 * The part of the signing provider's API the approver uses. `TurnkeyApiClient` from
 * `@turnkey/sdk-server` satisfies it; tests and a command line may hand in their own.
 */
export interface SigningActivityApi {
  getActivity(input: { activityId: string; organizationId: string }): Promise<unknown>;
  approveActivity(input: {
    fingerprint: string;
    organizationId: string;
    timestampMs: string;
  }): Promise<unknown>;
  rejectActivity(input: {
    fingerprint: string;
    organizationId: string;
    timestampMs: string;
  }): Promise<unknown>;
}

/** Options of `approveSigningActivity` and `rejectSigningActivity`. */
export interface ApprovalOptions {
  /**
   * How many distinct approvals the organization's policy needs, when the caller knows it. The
   * signing provider's activity does not say, so without it `approvalsStillNeeded` is undefined.
   */
  requiredApprovals?: number;
  /** Signing-provider API to use instead of the Turnkey SDK client built from the settings. */
  signingApi?: SigningActivityApi;
}

/** Activity statuses of the signing provider (Turnkey's `ACTIVITY_STATUS_*`); others may appear. */
export type SigningActivityStatus =
  | "ACTIVITY_STATUS_CREATED"
  | "ACTIVITY_STATUS_PENDING"
  | "ACTIVITY_STATUS_COMPLETED"
  | "ACTIVITY_STATUS_FAILED"
  | "ACTIVITY_STATUS_CONSENSUS_NEEDED"
  | "ACTIVITY_STATUS_REJECTED"
  | (string & {});

interface OutcomeBase {
  signingActivityId: string;
  /** The activity's status at the signing provider after this call. */
  activityStatus: SigningActivityStatus;
  /** Whether this call submitted a vote (false when the activity was already decided or already had this key's vote). */
  voted: boolean;
  /** Distinct keys that have approved the activity so far. */
  approvals: number;
}

/**
 * What became of the activity. `consensus_needed` is not a failure: the vote counted, and the
 * operation waits for more approvers. Unknown activities and refused credentials are errors
 * (`SigningActivityNotFoundError`, `SigningCredentialsError`), not outcomes.
 */
export type ApprovalOutcome =
  /** Consensus reached: the service proceeds with the withdrawal or strategy update on its own. */
  | (OutcomeBase & {
      kind: "completed";
      /** True when it was completed before this call. */ alreadyCompleted: boolean;
    })
  /** The vote was registered; more approvers must vote. */
  | (OutcomeBase & {
      kind: "consensus_needed";
      /** Approvals still missing, when `requiredApprovals` was given; otherwise undefined. */
      approvalsStillNeeded: number | undefined;
    })
  /** An approver rejected the activity; the operation fails. */
  | (OutcomeBase & { kind: "rejected"; alreadyRejected: boolean; reason: string | undefined })
  /** The provider could not carry the activity out. */
  | (OutcomeBase & { kind: "failed"; reason: string | undefined })
  /** The provider has not decided yet (created, pending or a status this code does not know); look again later. */
  | (OutcomeBase & { kind: "in_progress" });

/**
 * Approves a signing activity at the signing provider (spec 4.14): fetches the activity, reads its
 * fingerprint (throws `MissingFingerprintError` when it has none), submits an
 * `ACTIVITY_TYPE_APPROVE_ACTIVITY` vote signed with the customer's API key, and reports the
 * activity's resulting status. An activity that is already completed, rejected or failed, or that
 * already carries this key's approval, is reported without voting again.
 *
 * The private key only signs requests locally (X-Stamp header); it never leaves this process and
 * never appears in an error message.
 */
export async function approveSigningActivity(
  settings: ApproverSettings,
  signingActivityId: string,
  options: ApprovalOptions = {},
): Promise<ApprovalOutcome> {
  return decide("approve", settings, signingActivityId, options);
}

/**
 * Rejects a signing activity: the same steps as `approveSigningActivity` with an
 * `ACTIVITY_TYPE_REJECT_ACTIVITY` vote. A rejected activity makes the service fail the operation.
 */
export async function rejectSigningActivity(
  settings: ApproverSettings,
  signingActivityId: string,
  options: ApprovalOptions = {},
): Promise<ApprovalOutcome> {
  return decide("reject", settings, signingActivityId, options);
}

/** The fields of Turnkey's activity the approver reads; everything else passes through unread. */
const ActivitySchema = z.looseObject({
  id: z.string(),
  status: z.string(),
  fingerprint: z.string().nullish(),
  votes: z
    .array(
      z.looseObject({
        publicKey: z.string().nullish(),
        userId: z.string().nullish(),
        selection: z.string().nullish(),
      }),
    )
    .nullish(),
  failure: z.looseObject({ code: z.number().nullish(), message: z.string().nullish() }).nullish(),
});
type Activity = z.infer<typeof ActivitySchema>;
const ActivityResponseSchema = z.looseObject({ activity: ActivitySchema });

const TERMINAL = new Set(["ACTIVITY_STATUS_COMPLETED", "ACTIVITY_STATUS_REJECTED", "ACTIVITY_STATUS_FAILED"]);
const OWN_SELECTION = { approve: "VOTE_SELECTION_APPROVED", reject: "VOTE_SELECTION_REJECTED" } as const;

/** gRPC status codes the signing provider uses in its error bodies. */
const PROVIDER_CODE = { notFound: 5, permissionDenied: 7, unauthenticated: 16 } as const;

async function decide(
  decision: "approve" | "reject",
  settings: ApproverSettings,
  signingActivityId: string,
  options: ApprovalOptions,
): Promise<ApprovalOutcome> {
  validateApproverSettings(settings, signingActivityId);
  const redact = redactorFor(settings.apiPrivateKey);
  const call = async (step: string, work: () => Promise<unknown>): Promise<Activity> => {
    let answer: unknown;
    try {
      answer = await work();
    } catch (error) {
      throw translateError(error, { step, signingActivityId, settings, redact });
    }
    const parsed = ActivityResponseSchema.safeParse(answer);
    if (!parsed.success)
      throw new SigningProviderError({
        signingActivityId,
        step,
        providerCode: undefined,
        providerMessage: "its answer holds no readable activity (expected { activity: { id, status, ... } })",
      });
    return parsed.data.activity;
  };

  const api = options.signingApi ?? (await turnkeyClientFor(settings));
  const organizationId = settings.organizationId;
  const ownKey = settings.apiPublicKey.toLowerCase();
  const before = await call("fetch the activity", () =>
    api.getActivity({ activityId: signingActivityId, organizationId }),
  );

  if (TERMINAL.has(before.status)) return outcomeOf(before, { voted: false, alreadyDecided: true, options });
  if (hasVoted(before, ownKey, OWN_SELECTION[decision]))
    return outcomeOf(before, { voted: false, alreadyDecided: false, options });

  const fingerprint = before.fingerprint;
  if (fingerprint === undefined || fingerprint === null || fingerprint === "")
    throw new MissingFingerprintError(signingActivityId, before.status);

  const vote = { fingerprint, organizationId, timestampMs: String(Date.now()) };
  let after =
    decision === "approve"
      ? await call("submit the approval", () => api.approveActivity(vote))
      : await call("submit the rejection", () => api.rejectActivity(vote));
  // The vote's answer may describe the vote itself rather than the voted-on activity: read the latter.
  if (after.id !== signingActivityId)
    after = await call("fetch the activity after voting", () =>
      api.getActivity({ activityId: signingActivityId, organizationId }),
    );
  return outcomeOf(after, { voted: true, alreadyDecided: false, options });
}

/**
 * A fresh SDK client per call: nothing holding the private key outlives the call. The SDK is
 * loaded here, on the first approval, not with this module: it takes over a second to load, and
 * most deployments (and every program that only imports the package) never approve anything.
 */
async function turnkeyClientFor(settings: ApproverSettings): Promise<SigningActivityApi> {
  const { Turnkey } = await import("@turnkey/sdk-server");
  return new Turnkey({
    apiBaseUrl: settings.apiBaseUrl.replace(/\/+$/, ""),
    apiPublicKey: settings.apiPublicKey,
    apiPrivateKey: settings.apiPrivateKey,
    defaultOrganizationId: settings.organizationId,
  }).apiClient();
}

function hasVoted(activity: Activity, ownKey: string, selection: string): boolean {
  return (activity.votes ?? []).some(
    (vote) => vote.publicKey?.toLowerCase() === ownKey && vote.selection === selection,
  );
}

/** Distinct approving keys: the same key voting twice counts once. */
function countApprovals(activity: Activity): number {
  const approvers = new Set<string>();
  for (const vote of activity.votes ?? []) {
    if (vote.selection !== "VOTE_SELECTION_APPROVED") continue;
    approvers.add(vote.publicKey?.toLowerCase() ?? vote.userId ?? JSON.stringify(vote));
  }
  return approvers.size;
}

function outcomeOf(
  activity: Activity,
  context: { voted: boolean; alreadyDecided: boolean; options: ApprovalOptions },
): ApprovalOutcome {
  const base: OutcomeBase = {
    signingActivityId: activity.id,
    activityStatus: activity.status,
    voted: context.voted,
    approvals: countApprovals(activity),
  };
  const reason = activity.failure?.message ?? undefined;
  switch (activity.status) {
    case "ACTIVITY_STATUS_COMPLETED":
      return { ...base, kind: "completed", alreadyCompleted: context.alreadyDecided };
    case "ACTIVITY_STATUS_CONSENSUS_NEEDED": {
      const required = context.options.requiredApprovals;
      const approvalsStillNeeded =
        required === undefined ? undefined : Math.max(0, required - base.approvals);
      return { ...base, kind: "consensus_needed", approvalsStillNeeded };
    }
    case "ACTIVITY_STATUS_REJECTED":
      return { ...base, kind: "rejected", alreadyRejected: context.alreadyDecided, reason };
    case "ACTIVITY_STATUS_FAILED":
      return { ...base, kind: "failed", reason };
    default:
      return { ...base, kind: "in_progress" };
  }
}

/**
 * Removes the private key from any text that came out of the SDK or the crypto library, in the
 * forms it may take there: hex (either case) and base64url (the JWK `d` the stamper builds).
 */
function redactorFor(privateKeyHex: string): (text: string) => string {
  const hex = privateKeyHex.trim();
  if (hex === "") return (text) => text;
  const base64url = Buffer.from(hex.padStart(64, "0"), "hex").toString("base64url");
  const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\-]/g, "\\$&");
  // Hex in any letter case; base64url is case-sensitive.
  const patterns = [new RegExp(escape(hex), "gi"), new RegExp(escape(base64url), "g")];
  return (text) => patterns.reduce((result, pattern) => result.replace(pattern, "[redacted]"), text);
}

interface ErrorContext {
  step: string;
  signingActivityId: string;
  settings: ApproverSettings;
  redact: (text: string) => string;
}

const CREDENTIALS_HINT =
  `Check that the API key pair is registered as an approver of the organization and that the public key ` +
  `matches the private key; the public key is read from portfolio-wallet:turnkeyApiPublicKey ` +
  `(${howToSet("turnkeyApiPublicKey")}) and the private key from portfolio-wallet:turnkeyApiPrivateKey.`;

/**
 * The one place that turns what the Turnkey SDK throws into an ApprovalError. The SDK's error
 * classes are not reliable across copies, so they are recognised by shape: `TurnkeyRequestError`
 * carries the provider's numeric `code`; node-fetch's `FetchError` has `type: "system"`.
 * The original error is not kept as `cause`, since its text was not redacted.
 */
function translateError(error: unknown, context: ErrorContext): ApprovalError {
  if (ApprovalError.isInstance(error)) return error;
  const { step, signingActivityId, settings, redact } = context;
  const rawMessage = error instanceof Error ? error.message : String(error);
  const message = redact(rawMessage).replace(/\.$/, "");
  const code: unknown = error instanceof Error ? (error as { code?: unknown }).code : undefined;
  const providerCode = typeof code === "number" ? code : undefined;
  // The SDK throws `Error("<status> <statusText>")` when an error answer is not JSON.
  const bareStatus = providerCode === undefined ? /^(\d{3}) /.exec(rawMessage)?.[1] : undefined;

  if (
    providerCode === PROVIDER_CODE.unauthenticated ||
    providerCode === PROVIDER_CODE.permissionDenied ||
    bareStatus === "401" ||
    bareStatus === "403"
  )
    return new SigningCredentialsError({
      signingActivityId,
      providerCode,
      providerMessage: message,
      hint: CREDENTIALS_HINT,
    });
  if (providerCode === PROVIDER_CODE.notFound)
    return new SigningActivityNotFoundError(signingActivityId, settings.organizationId, message);
  if (providerCode === undefined && isConnectionFailure(error))
    return new SigningProviderConnectionError({
      signingActivityId,
      step,
      apiBaseUrl: settings.apiBaseUrl,
      reason: message,
      hint: `Check portfolio-wallet:turnkeyApiBaseUrl (${howToSet("turnkeyApiBaseUrl")}) and the network, then try again.`,
    });
  return new SigningProviderError({ signingActivityId, step, providerCode, providerMessage: message });
}

function isConnectionFailure(error: unknown): boolean {
  if (!(error instanceof Error)) return false;
  const shaped = error as { name?: unknown; type?: unknown; cause?: unknown };
  return (
    (shaped.name === "FetchError" && shaped.type === "system") ||
    (error instanceof TypeError && error.message === "fetch failed")
  );
}
