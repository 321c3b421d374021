export {
  approveSigningActivity,
  rejectSigningActivity,
  type ApprovalOptions,
  type ApprovalOutcome,
  type SigningActivityApi,
  type SigningActivityStatus,
} from "./turnkeyApprover.ts";
export { validateApproverSettings } from "./settings.ts";
export {
  ApprovalError,
  InvalidApproverSettingsError,
  MissingFingerprintError,
  SigningActivityNotFoundError,
  SigningCredentialsError,
  SigningProviderConnectionError,
  SigningProviderError,
} from "./errors.ts";
export type { ApproverSettings } from "../settings.ts";
