// A user's program, plain JavaScript. Stack config: positions (JSON), webhookUrl.
"use strict";
const pulumi = require("@pulumi/pulumi");
const { PortfolioWallet, WebhookRegistration } = require("@portfolio-wallet/pulumi");

const config = new pulumi.Config();

const treasury = new PortfolioWallet("treasury", {
  label: "consumer treasury",
  positions: config.requireObject("positions"),
});

const events = new WebhookRegistration("treasury-events", {
  url: config.require("webhookUrl"),
  eventTypes: ["portfolio_wallet.strategy.status_changed"],
});

exports.walletId = treasury.walletId;
exports.depositAddresses = treasury.depositAddressByChain;
exports.blendedRateBps = treasury.blendedRateBps;
exports.targetWeightsBps = treasury.targetWeightsBps;
exports.webhookRegistrationId = events.registrationId;
exports.webhookSecret = events.secret;
