import * as pulumi from "@pulumi/pulumi";
import { loadAllocation, WalletStrategy } from "@portfolio-wallet/pulumi";

const config = new pulumi.Config();
const wallets = new pulumi.StackReference(config.require("walletStack"));
const allocation = new WalletStrategy("allocation", {
  walletId: wallets.requireOutput("walletId").apply((id) => String(id)),
  positions: loadAllocation("allocation.json"),
});

export const strategyChangeStatus = allocation.strategyChangeStatus;
export const signingActivityId = allocation.strategyChange.apply(
  (change) => change?.signingActivityId ?? null,
);
