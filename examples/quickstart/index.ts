// Quickstart: one portfolio wallet plus a webhook registration, against the embedded sandbox
// (or any service set with `portfolio-wallet:baseUrl`). Run it with `npm run quickstart`.
import * as pulumi from "@pulumi/pulumi";
import { PortfolioWallet, WebhookRegistration, getQuote } from "@portfolio-wallet/pulumi";

const config = new pulumi.Config();

// A quote is read-only: it shows which allocations meet "at least 6% APY with 30% instantly
// withdrawable". Its first option's positions could be passed to the wallet as they are.
const quote = getQuote({
  minApyTargetBps: 600,
  liquidityConstraints: [{ maxProcessingTime: "PT0H", minWeightBps: 3000 }],
});

const treasury = new PortfolioWallet("treasury", {
  label: "Quickstart treasury",
  // Weights in basis points; they must sum to exactly 10000. Edit them and run `pulumi preview`
  // to see the allocation diff a pull request would show.
  positions: [
    { positionKey: "tbills", targetWeightBps: 5000 },
    { positionKey: "syrupUsdc", targetWeightBps: 3000 },
    { positionKey: "resolvRlp", targetWeightBps: 2000 },
  ],
});

const events = new WebhookRegistration("treasury-events", {
  url: config.get("webhookUrl") ?? "https://example.com/hooks/portfolio-wallet",
  description: "Treasury balance and strategy events",
  eventTypes: [
    "portfolio_wallet.balance.updated",
    "portfolio_wallet.deposit.status_changed",
    "portfolio_wallet.strategy.status_changed",
  ],
});

export const walletId = treasury.walletId;
export const depositAddresses = treasury.depositAddressByChain;
export const blendedRateBps = treasury.blendedRateBps;
export const strategyChangeStatus = treasury.strategyChangeStatus;
export const webhookRegistrationId = events.registrationId;
export const webhookSecret = events.secret;
export const bestQuoteBlendedRateBps = quote.then((options) => options[0]?.blendedRateBps ?? null);
