"use strict";
const pulumi = require("@pulumi/pulumi");

const config = new pulumi.Config();
const wallet = new pulumi.CustomResource("portfolio-wallet:index:PortfolioWallet", "treasury", {
  positions: config.requireObject("positions"),
  walletId: undefined,
  creationRequestId: undefined,
  strategyChange: undefined,
});

exports.walletId = wallet.walletId;
exports.creationRequestId = wallet.creationRequestId;
exports.strategyChange = wallet.strategyChange;
