import type { StrategyChangeState as ProviderStrategyChangeState } from "../../provider/strategyChange/state.ts";

/**
 * The latest strategy change of a PortfolioWallet or WalletStrategy, as its `strategyChange`
 * output shows it: `requestId`, `status` (`pending_approval`, `processing`, `completed`, `failed`;
 * others may appear), `targetPositions`, `signingActivityId` and `signingActivityStatus` (approve
 * it at the signing provider), `approvalsStillNeeded` when known, `failureReason`, `revision` (how
 * many changes the resource has started), and `supersededFailure` (an earlier attempt at the same
 * target that failed while nobody watched). The provider implementation writes it into state.
 */
export type StrategyChangeState = ProviderStrategyChangeState;
