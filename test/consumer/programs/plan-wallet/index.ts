import * as pulumi from "@pulumi/pulumi";
import { loadAllocation, PortfolioWallet, WebhookRegistration } from "@portfolio-wallet/pulumi";

const config = new pulumi.Config();
const wallet = new PortfolioWallet("treasury", {
  label: "treasury",
  positions: loadAllocation("allocation.json"),
});
const events = new WebhookRegistration("events", {
  url: "https://hooks.example.com/treasury",
  eventTypes: ["portfolio_wallet.strategy.status_changed"],
  enabled: config.getBoolean("webhookEnabled") ?? true,
});

export const walletId = wallet.walletId;
export const registrationId = events.registrationId;
