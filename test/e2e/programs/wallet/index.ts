// Fixture of test/e2e/lifecycle.waiting.engine.test.ts. Stack config (namespace `e2e`):
//   e2e:positions  JSON array of { positionKey, targetWeightBps } (required)
//   e2e:label      wallet label (default "e2e treasury")
//   e2e:onDelete   "fail-if-funded" | "retain" (default: the provider's)
//   e2e:webhook    "false" to leave the webhook registration out (default true)
import * as pulumi from "@pulumi/pulumi";
import { PortfolioWallet, WebhookRegistration, type PortfolioWalletArgs } from "@portfolio-wallet/pulumi";

const config = new pulumi.Config("e2e");
const onDelete = config.get("onDelete") as PortfolioWalletArgs["onDelete"];

const wallet = new PortfolioWallet("treasury", {
  label: config.get("label") ?? "e2e treasury",
  positions: config.requireObject<PortfolioWalletArgs["positions"]>("positions"),
  ...(onDelete !== undefined ? { onDelete } : {}),
});

const webhook =
  config.getBoolean("webhook") === false
    ? undefined
    : new WebhookRegistration("treasury-events", {
        url: "https://example.com/hooks/e2e",
        description: "e2e treasury events",
        eventTypes: ["portfolio_wallet.strategy.status_changed"],
      });

export const walletId = wallet.walletId;
export const depositAddresses = wallet.depositAddressByChain;
export const blendedRateBps = wallet.blendedRateBps;
export const targetWeightsBps = wallet.targetWeightsBps;
export const strategyChangeStatus = wallet.strategyChangeStatus;
export const signingActivityId = wallet.strategyChange.apply((change) => change?.signingActivityId ?? null);
export const creationRequestId = wallet.creationRequestId;
export const webhookRegistrationId = webhook?.registrationId;
