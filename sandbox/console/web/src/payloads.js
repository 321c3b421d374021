// @ts-check
// The payloads the views read, typed from the contract's schemas (`z.infer` types only: nothing of
// zod reaches the bundle). One place for the views to name them, so a change of the contract's
// shape is a type error in the page that reads it.

/** @typedef {import("../../../../sdk/contract/index.ts").PortfolioWallet} PortfolioWallet */
/** @typedef {import("../../../../sdk/contract/index.ts").WalletList} WalletList */
/** @typedef {import("../../../../sdk/contract/index.ts").StrategyCatalogEntry} StrategyCatalogEntry */
/** @typedef {import("../../../../sdk/contract/index.ts").StrategiesResponse} StrategiesResponse */
/** @typedef {import("../../../../sdk/contract/index.ts").WebhookRegistration} WebhookRegistration */
/** @typedef {import("../../../../sdk/contract/index.ts").Deposit} Deposit */

export {};
