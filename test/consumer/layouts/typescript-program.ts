// A user's TypeScript program, copied to index.ts of both TypeScript layouts (ES module and
// CommonJS). Stack config: positions (JSON), webhookUrl.
import * as pulumi from "@pulumi/pulumi";
import { PortfolioWallet, WebhookRegistration, type PortfolioWalletArgs } from "@portfolio-wallet/pulumi";

const config = new pulumi.Config();

const treasury = new PortfolioWallet("treasury", {
  label: "consumer treasury",
  positions: config.requireObject<PortfolioWalletArgs["positions"]>("positions"),
});

const events = new WebhookRegistration("treasury-events", {
  url: config.require("webhookUrl"),
  eventTypes: ["portfolio_wallet.strategy.status_changed"],
});

export const walletId = treasury.walletId;
export const depositAddresses = treasury.depositAddressByChain;
export const blendedRateBps = treasury.blendedRateBps;
export const targetWeightsBps = treasury.targetWeightsBps;
export const webhookRegistrationId = events.registrationId;
export const webhookSecret = events.secret;
