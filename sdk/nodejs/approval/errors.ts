import { PortfolioWalletError } from "../client/core/errors.ts";

/**
 * Base of every error the approver throws. It extends the client's base, so
 * `PortfolioWalletError.isInstance(e)` catches approval errors too, and `isInstance` works across
 * two copies of the package (the brand is a `Symbol.for` symbol, see sdk/nodejs/client/core/errors.ts).
 *
 * No message or field of these errors ever holds the API private key: messages from the signing
 * provider's SDK are redacted before they are used (see `redactorFor` in turnkeyApprover.ts).
 */
export class ApprovalError extends PortfolioWalletError {
  static override readonly brandName: string = "ApprovalError";
  /** The signing activity the approver was working on, when known. */
  readonly signingActivityId: string | undefined;

  constructor(message: string, signingActivityId: string | undefined) {
    super(message);
    this.signingActivityId = signingActivityId;
  }
}

/**
 * The approver settings are unusable before any request is sent: a missing value, a URL that is
 * not http(s), a key that is not P-256 hex, or a public key that does not belong to the private key.
 */
export class InvalidApproverSettingsError extends ApprovalError {
  static override readonly brandName: string = "InvalidApproverSettingsError";
  /** Every problem found, one line each (all of them, not just the first). */
  readonly problems: readonly string[];

  constructor(problems: readonly string[], signingActivityId: string | undefined) {
    super(`The Turnkey approver settings are invalid: ${problems.join("; ")}.`, signingActivityId);
    this.problems = Object.freeze([...problems]);
  }
}

/**
 * The signing provider refused the API key: the stamp did not verify, the key is not registered
 * for the organization, or it may not vote (provider codes UNAUTHENTICATED and PERMISSION_DENIED).
 */
export class SigningCredentialsError extends ApprovalError {
  static override readonly brandName: string = "SigningCredentialsError";
  /** The provider's gRPC-style status code (16 unauthenticated, 7 permission denied). */
  readonly providerCode: number | undefined;

  constructor(init: {
    signingActivityId: string;
    providerCode: number | undefined;
    providerMessage: string;
    hint: string;
  }) {
    super(
      `The signing provider refused the approver's API key while handling activity ${init.signingActivityId}: ` +
        `${init.providerMessage}. ${init.hint}`,
      init.signingActivityId,
    );
    this.providerCode = init.providerCode;
  }
}

/** The signing provider knows no activity with this id in the organization (provider code NOT_FOUND). */
export class SigningActivityNotFoundError extends ApprovalError {
  static override readonly brandName: string = "SigningActivityNotFoundError";

  constructor(signingActivityId: string, organizationId: string, providerMessage: string) {
    super(
      `The signing provider has no activity ${signingActivityId} in organization ${organizationId} (${providerMessage}). ` +
        `Check the signingActivityId of the pending withdrawal or strategy update, and that the Turnkey organization id ` +
        `is the one the service created the activity in.`,
      signingActivityId,
    );
  }
}

/**
 * The activity came back without a fingerprint, so there is nothing to approve. Raised on the
 * client side before any vote is sent (spec 4.14 step 3).
 */
export class MissingFingerprintError extends ApprovalError {
  static override readonly brandName: string = "MissingFingerprintError";

  constructor(signingActivityId: string, activityStatus: string | undefined) {
    super(
      `Signing activity ${signingActivityId} (status ${activityStatus ?? "unknown"}) has no fingerprint, so it cannot ` +
        `be approved or rejected. Fetch it again later; if it stays without one, report it to the service.`,
      signingActivityId,
    );
  }
}

/** Any other refusal or unreadable answer from the signing provider. */
export class SigningProviderError extends ApprovalError {
  static override readonly brandName: string = "SigningProviderError";
  /** The provider's gRPC-style status code, when its error body carried one. */
  readonly providerCode: number | undefined;

  constructor(init: {
    signingActivityId: string;
    step: string;
    providerCode: number | undefined;
    providerMessage: string;
  }) {
    const code = init.providerCode === undefined ? "" : ` (code ${init.providerCode})`;
    super(
      `The signing provider failed to ${init.step} for activity ${init.signingActivityId}${code}: ${init.providerMessage}.`,
      init.signingActivityId,
    );
    this.providerCode = init.providerCode;
  }
}

/** The signing provider could not be reached (DNS, refused connection, TLS). Safe to try again. */
export class SigningProviderConnectionError extends ApprovalError {
  static override readonly brandName: string = "SigningProviderConnectionError";

  constructor(init: {
    signingActivityId: string;
    step: string;
    apiBaseUrl: string;
    reason: string;
    hint: string;
  }) {
    super(
      `Could not reach the signing provider at ${init.apiBaseUrl} to ${init.step} for activity ` +
        `${init.signingActivityId}: ${init.reason}. ${init.hint}`,
      init.signingActivityId,
    );
  }
}
