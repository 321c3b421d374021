// The upgrade baseline's program on the dynamic resources (test/consumer/upgradeBaseline/README.md):
// a funded wallet, the allocation of a wallet made elsewhere, and a webhook.
import * as pulumi from "@pulumi/pulumi";
import { PortfolioWallet, WalletStrategy, WebhookRegistration } from "@portfolio-wallet/pulumi";

const config = new pulumi.Config();

const treasury = new PortfolioWallet("treasury", {
  label: "upgrade baseline treasury",
  positions: [
    { positionKey: "tbills", targetWeightBps: config.requireNumber("treasuryTbillsBps") },
    { positionKey: "syrupUsdc", targetWeightBps: config.requireNumber("treasurySyrupUsdcBps") },
  ],
});

const managedAllocation = new WalletStrategy("managed-allocation", {
  walletId: config.require("managedWalletId"),
  positions: [
    { positionKey: "tbills", targetWeightBps: config.requireNumber("managedTbillsBps") },
    { positionKey: "resolvRlp", targetWeightBps: config.requireNumber("managedResolvRlpBps") },
  ],
});

const events = new WebhookRegistration("treasury-events", {
  // Loopback only: the sandbox delivers events to this URL, and nothing leaves the machine.
  url: "http://127.0.0.1:9/upgrade-baseline",
  eventTypes: ["portfolio_wallet.strategy.status_changed"],
  description: "upgrade baseline",
});

export const walletId = treasury.walletId;
export const depositAddresses = treasury.depositAddressByChain;
export const targetWeightsBps = treasury.targetWeightsBps;
export const strategyChangeStatus = treasury.strategyChangeStatus;
export const managedTargetWeightsBps = managedAllocation.targetWeightsBps;
export const webhookRegistrationId = events.registrationId;
export const webhookSecret = events.secret;
