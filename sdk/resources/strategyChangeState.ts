/**
 * The latest strategy change of a PortfolioWallet or WalletStrategy, as its `strategyChange`
 * output shows it. The provider implementation writes it into state (provider/strategyChange/),
 * where it lets a later `up` reuse the same requestId for the same pending change and pick a
 * fresh one otherwise.
 */
export interface StrategyChangeState {
  /** How many strategy changes this resource has started; folded into the requestId. */
  revision: number;
  requestId: string;
  /** `pending_approval`, `processing`, `completed` or `failed`; other statuses may appear. */
  status: string;
  /** The allocation the change asks for, sorted by positionKey. */
  targetPositions: { positionKey: string; targetWeightBps: number }[];
  /** The approval activity at the signing provider, while or after the change waits for approval. */
  signingActivityId: string | null;
  signingActivityStatus: string | null;
  /** Approvals still missing at the signing provider, when known. */
  approvalsStillNeeded: number | null;
  failureReason: string | null;
  /**
   * An earlier update of the same target that had failed (for example rejected at the signing
   * provider while it waited for approval), found when this change was requested again.
   */
  supersededFailure: { requestId: string; failureReason: string | null } | null;
}
