// @ts-check
// The payloads the views read, named once. Types only (JSDoc, erased by the bundle: nothing of
// zod or of the sandbox's server code reaches the browser), so a change of a shape is a type
// error in the page that reads it.
// - The service's answers: the contract's schemas (`z.infer`).
// - The console API's answers (sandbox/console/consoleApi.ts) and the admin API's fault list: the
//   domain's own views, which their routes answer as they are.

/** @typedef {import("../../../../sdk/nodejs/contract/index.ts").PortfolioWallet} PortfolioWallet */
/** @typedef {import("../../../../sdk/nodejs/contract/index.ts").WalletList} WalletList */
/** @typedef {import("../../../../sdk/nodejs/contract/index.ts").StrategyCatalogEntry} StrategyCatalogEntry */
/** @typedef {import("../../../../sdk/nodejs/contract/index.ts").StrategiesResponse} StrategiesResponse */
/** @typedef {import("../../../../sdk/nodejs/contract/index.ts").WebhookRegistration} WebhookRegistration */
/** @typedef {import("../../../../sdk/nodejs/contract/index.ts").Deposit} Deposit */
/** @typedef {import("../../../../sdk/nodejs/contract/index.ts").StrategyUpdate} StrategyUpdate */
/** @typedef {import("../../../../sdk/nodejs/contract/index.ts").Statement} Statement */

/** @typedef {import("../../../domain/money/walletHistory.ts").WalletHistoryPoint} WalletHistoryPoint */
/** @typedef {import("../../../domain/approvalRequests.ts").ApprovalRequest} ApprovalRequest */
/** @typedef {import("../../../domain/events/deliveryHistory.ts").DeliveryView} DeliveryView */
/** @typedef {import("../../../domain/events/deliveryHistory.ts").DeliveryDetail} DeliveryDetail */
/** @typedef {import("../../../../sdk/nodejs/contract/index.ts").WebhookInbox} WebhookInbox */
/** @typedef {import("../../../../sdk/nodejs/contract/index.ts").InboxDelivery} InboxDelivery */
/** @typedef {import("../../../../sdk/nodejs/contract/index.ts").InboxAnswer} InboxAnswer */
/** @typedef {import("../../../domain/money/withdrawalTimeline.ts").WithdrawalTimeline} WithdrawalTimeline */
/** @typedef {import("../../../domain/money/depositLegs.ts").DepositWithLegs} DepositWithLegs */

/** @typedef {import("../../../store/snapshotFiles.ts").SnapshotFileEntry} SnapshotFileEntry */
/**
 * What GET /_sandbox/snapshots and GET /_sandbox/organization/exports list (admin API).
 * @typedef {{ hasSnapshotDirectory: boolean, files: SnapshotFileEntry[] }} SnapshotFileList
 */
/** @typedef {import("../../objectPages.ts").ObjectPage} ObjectPage */
/** @typedef {import("../../objectPages.ts").TimelineStep} TimelineStep */

/**
 * What GET /_sandbox/faults lists (admin API): HTTP faults and planned failures.
 * @typedef {import("../../../domain/faults.ts").HttpFault | import("../../../domain/faults.ts").PlannedFailure} ArmedFault
 */

export {};
