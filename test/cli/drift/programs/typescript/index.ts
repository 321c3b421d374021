// A user's TypeScript program for the drift check (test/cli/drift/driftEveryProgram.engine.test.ts), copied
// to index.ts of both TypeScript layouts of test/consumer/layouts (ES module and CommonJS). Every
// program of test/cli/drift/programs declares the same treasury from the same stack config:
// tbillsBps and syrupUsdcBps.
import * as pulumi from "@pulumi/pulumi";
import { PortfolioWallet, WebhookRegistration } from "@portfolio-wallet/pulumi";

const config = new pulumi.Config();

const treasury = new PortfolioWallet("treasury", {
  label: "treasury",
  positions: [
    { positionKey: "tbills", targetWeightBps: config.requireNumber("tbillsBps") },
    { positionKey: "syrupUsdc", targetWeightBps: config.requireNumber("syrupUsdcBps") },
  ],
});

const events = new WebhookRegistration("events", {
  // On the machine only: the sandbox delivers events to this URL (in the drift test, a sandbox's
  // webhook inbox), and tests send nothing off it.
  url: config.get("webhookUrl") ?? "http://127.0.0.1:9/treasury",
  eventTypes: ["portfolio_wallet.strategy.status_changed"],
  enabled: true,
});

export const walletId = treasury.walletId;
export const registrationId = events.registrationId;
export const strategyChangeStatus = treasury.strategyChangeStatus;
