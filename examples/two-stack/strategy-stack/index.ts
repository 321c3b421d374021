// Stack 2 of the two-stack example: reads the wallet id from stack 1 and manages its allocation.
import * as pulumi from "@pulumi/pulumi";
import { WalletStrategy } from "@portfolio-wallet/pulumi";

const config = new pulumi.Config();
const wallets = new pulumi.StackReference(config.require("walletStack"));

const strategy = new WalletStrategy("operating-cash-allocation", {
  walletId: wallets.requireOutput("walletId").apply((id) => String(id)),
  positions: [
    { positionKey: "syrupUsdc", targetWeightBps: 7000 },
    { positionKey: "tbills", targetWeightBps: 3000 },
  ],
});

export const blendedRateBps = strategy.blendedRateBps;
export const strategyChangeStatus = strategy.strategyChangeStatus;
// Deposit addresses flow through unchanged, e.g. for a payments stack.
export const ethereumDepositAddress = wallets
  .requireOutput("depositAddresses")
  .apply((addresses) => (addresses as Record<string, string>)["ethereum"]);
