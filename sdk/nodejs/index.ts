/**
 * @portfolio-wallet/pulumi: the Pulumi provider for the Portfolio Wallet Yield Service.
 *
 * - Resources: PortfolioWallet, WalletStrategy, WebhookRegistration.
 * - Read-only functions: getStrategies, getYieldSources, getQuote, getWallet, getYieldMetrics.
 * - The typed client for non-declarative work: PortfolioWalletClient.
 * - The service contract (zod schemas and types), approvals, and webhook verification.
 */
// First, before anything that fails on an older Node.js with an error that does not say so.
import "./client/core/requireSupportedNode.ts";
export {
  PortfolioWallet,
  PORTFOLIO_WALLET_TYPE,
  type OnDelete,
  type PortfolioWalletArgs,
} from "./resources/portfolioWallet.ts";
export type { StrategyChangeState } from "./resources/strategyChangeState.ts";
export { WalletStrategy, WALLET_STRATEGY_TYPE, type WalletStrategyArgs } from "./resources/walletStrategy.ts";
export {
  WebhookRegistration,
  WEBHOOK_REGISTRATION_TYPE,
  type WebhookRegistrationArgs,
} from "./resources/webhookRegistration.ts";
export * from "./functions/index.ts";
export {
  loadAllocation,
  writeAllocationFile,
  AllocationFileSchema,
  type AllocationFile,
  type AllocationPosition,
} from "./allocationFile.ts";
export * from "./client/index.ts";
export * as contract from "./contract/index.ts";
export * from "./approval/index.ts";
export * from "./webhooks/index.ts";
export { SettingsError, type SettingProblem } from "./stackSettings.ts";
