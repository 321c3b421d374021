// The service contract, written once: the client, the sandbox and the provider all import these.
export * from "./common.ts";
export * from "./money.ts";
export * from "./duration.ts";
export * from "./errors.ts";
export * from "./allocation.ts";
export * from "./allocationMetrics.ts";
export * from "./moneyImpact.ts";
export * from "./catalog.ts";
export * from "./quote.ts";
export * from "./wallet.ts";
export * from "./strategy.ts";
export * from "./withdrawal.ts";
export * from "./deposit.ts";
export * from "./yieldMetrics.ts";
export * from "./events.ts";
export * from "./webhook.ts";
export * from "./operations.ts";
