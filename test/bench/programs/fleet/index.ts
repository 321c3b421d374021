// Benchmark program: `count` resources of `kind`, so the engine's own cost can be told from the
// provider's: `wallet` (PortfolioWallet), `noop` (a dynamic resource whose provider does nothing),
// and `padded` (the same no-op resource carrying `bench:padding` characters, stored in its inputs
// and outputs, so its state per resource is as large as a wallet's).
import * as pulumi from "@pulumi/pulumi";
import { PortfolioWallet } from "@portfolio-wallet/pulumi";

const config = new pulumi.Config("bench");
const count = config.requireNumber("count");
const kind = config.require("kind");
const padding = "x".repeat(config.getNumber("padding") ?? 0);

const noopProvider: pulumi.dynamic.ResourceProvider = {
  // Outputs repeat the inputs, as a real provider's do.
  async create(inputs) {
    return { id: "noop", outs: inputs };
  },
};

class Noop extends pulumi.dynamic.Resource {
  constructor(name: string, props: { index: number; padding?: string }) {
    super(noopProvider, name, props, undefined, "benchnoop", "Noop");
  }
}

for (let index = 0; index < count; index++) {
  if (kind === "wallet") {
    new PortfolioWallet(`wallet-${index}`, {
      label: `bench wallet ${index}`,
      positions: [
        { positionKey: "tbills", targetWeightBps: 6000 },
        { positionKey: "syrupUsdc", targetWeightBps: 4000 },
      ],
    });
  } else if (kind === "padded") {
    new Noop(`noop-${index}`, { index, padding });
  } else {
    new Noop(`noop-${index}`, { index });
  }
}
