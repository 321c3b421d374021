// Fixture of test/e2e/lifecycle.waiting.engine.test.ts. Stack config (namespace `e2e`):
//   e2e:walletStack  fully qualified wallet stack, organization/portfolio-wallet-e2e-wallet/<stack>
//   e2e:positions    JSON array of { positionKey, targetWeightBps }
import * as pulumi from "@pulumi/pulumi";
import { WalletStrategy, type WalletStrategyArgs } from "@portfolio-wallet/pulumi";

const config = new pulumi.Config("e2e");
const wallets = new pulumi.StackReference(config.require("walletStack"));

const strategy = new WalletStrategy("allocation", {
  walletId: wallets.requireOutput("walletId").apply((id) => String(id)),
  positions: config.requireObject<WalletStrategyArgs["positions"]>("positions"),
});

export const walletId = strategy.walletId;
export const targetWeightsBps = strategy.targetWeightsBps;
export const strategyChangeStatus = strategy.strategyChangeStatus;
