import * as pulumi from "@pulumi/pulumi";
import { PortfolioWallet, type PortfolioWalletArgs } from "@portfolio-wallet/pulumi";

const config = new pulumi.Config();
const wallet = new PortfolioWallet("treasury", {
  positions: config.requireObject<PortfolioWalletArgs["positions"]>("positions"),
});

export const walletId = wallet.walletId;
export const creationRequestId = wallet.creationRequestId;
export const strategyChange = wallet.strategyChange;
