// Benchmark program: `count` resources of `kind` (wallet: PortfolioWallet; noop: a dynamic
// resource whose provider does nothing), so the engine's own cost can be told from the provider's.
import * as pulumi from "@pulumi/pulumi";
import { PortfolioWallet } from "@portfolio-wallet/pulumi";

const config = new pulumi.Config("bench");
const count = config.requireNumber("count");
const kind = config.require("kind");

const noopProvider: pulumi.dynamic.ResourceProvider = {
  async create() {
    return { id: "noop", outs: {} };
  },
};

class Noop extends pulumi.dynamic.Resource {
  constructor(name: string, index: number) {
    super(noopProvider, name, { index }, undefined, "benchnoop", "Noop");
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
  } else {
    new Noop(`noop-${index}`, index);
  }
}
