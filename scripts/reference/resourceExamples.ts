// What each resource kind's reference page shows beyond its schema: its example and its import id.
// Keyed by kind, so a new kind is a compile error here until its page has an example.
import type { ResourceKind } from "../../sdk/nodejs/resources/resourceTypes.ts";
import type { ExampleValue } from "./exampleValues.ts";

export interface ResourceExample {
  /** The example's arguments. `ref` values are variables of the program. */
  args: Record<string, ExampleValue>;
  /** The example resource's name. */
  resourceName: string;
  /** The program variable the example binds the resource to. */
  variable: string;
  /**
   * The output the example exports, so that the variable it binds is used: Go refuses a program
   * with a variable declared and not used, and a user pasting the example wants to see a value.
   */
  exportedOutput: string;
  /** What `pulumi import` takes as the id, or null for a kind that cannot be imported. */
  importId: { id: string; what: string } | null;
}

export const RESOURCE_EXAMPLES: Record<ResourceKind, ResourceExample> = {
  portfolioWallet: {
    args: {
      label: "treasury",
      positions: [
        { positionKey: "tbills", targetWeightBps: 6000 },
        { positionKey: "syrupUsdc", targetWeightBps: 4000 },
      ],
    },
    resourceName: "treasury",
    variable: "treasury",
    exportedOutput: "walletId",
    importId: { id: "<walletId>", what: "the wallet's id" },
  },
  walletStrategy: {
    args: {
      walletId: { ref: "walletId" },
      positions: [
        { positionKey: "tbills", targetWeightBps: 3000 },
        { positionKey: "resolvRlp", targetWeightBps: 7000 },
      ],
    },
    resourceName: "treasury-allocation",
    variable: "allocation",
    exportedOutput: "strategyChangeStatus",
    importId: { id: "<walletId>/strategy", what: "the wallet's id followed by `/strategy`" },
  },
  webhookRegistration: {
    args: {
      url: "https://hooks.example.com/portfolio",
      eventTypes: ["portfolio_wallet.strategy.status_changed"],
    },
    resourceName: "treasury-events",
    variable: "events",
    exportedOutput: "registrationId",
    importId: { id: "<registrationId>", what: "the webhook registration's id" },
  },
};
