export {
  approveSigningActivity,
  rejectSigningActivity,
  type ApprovalOptions,
  type ApprovalOutcome,
  type SigningActivityApi,
  type SigningActivityStatus,
} from "./turnkeyApprover.ts";
export { validateApproverSettings } from "./validateApproverSettings.ts";
export {
  ApprovalError,
  InvalidApproverSettingsError,
  MissingFingerprintError,
  SigningActivityNotFoundError,
  SigningCredentialsError,
  SigningProviderConnectionError,
  SigningProviderError,
} from "./errors.ts";
export type { ApproverSettings } from "../stackSettings.ts";
