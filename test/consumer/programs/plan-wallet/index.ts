import * as pulumi from "@pulumi/pulumi";
import { loadAllocation, PortfolioWallet, WebhookRegistration } from "@portfolio-wallet/pulumi";

const config = new pulumi.Config();
const wallet = new PortfolioWallet("treasury", {
  label: "treasury",
  positions: loadAllocation("allocation.json"),
});
const events = new WebhookRegistration("events", {
  // Loopback only: the sandbox delivers events to this URL, and tests send nothing off the machine.
  url: "http://127.0.0.1:9/treasury",
  eventTypes: ["portfolio_wallet.strategy.status_changed"],
  enabled: config.getBoolean("webhookEnabled") ?? true,
});

export const walletId = wallet.walletId;
export const registrationId = events.registrationId;
