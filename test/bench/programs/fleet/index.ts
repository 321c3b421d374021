// Benchmark program: `count` resources of `kind`, so the engine's own cost can be told from the
// provider's: `wallet` (PortfolioWallet), `native` (the same wallet through the native plugin), `noop` (a dynamic resource whose provider does nothing),
// `padded` (the same no-op resource carrying `bench:padding` characters, stored in its inputs and
// outputs, so its state per resource is as large as a wallet's), and `serviced` (padded, and its
// create sends the service the same wallet creation a PortfolioWallet's create sends: the floor
// for any provider of this service, since that request cannot be avoided).
import * as pulumi from "@pulumi/pulumi";
import { PortfolioWallet } from "@portfolio-wallet/pulumi";

const config = new pulumi.Config("bench");
const count = config.requireNumber("count");
const kind = config.require("kind");
const padding = "x".repeat(config.getNumber("padding") ?? 0);
/** The wallets' target allocation (`bench:positions`, JSON), so a test can change every wallet's strategy. */
const positions = config.getObject<{ positionKey: string; targetWeightBps: number }[]>("positions") ?? [
  { positionKey: "tbills", targetWeightBps: 6000 },
  { positionKey: "syrupUsdc", targetWeightBps: 4000 },
];

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

// The service's address and token come from the environment the bench gives the engine (and so
// the dynamic-provider process), never from inputs, so they stay out of state.
const servicedProvider: pulumi.dynamic.ResourceProvider = {
  async create(inputs) {
    const response = await fetch(`${process.env["BENCH_SERVICE_URL"]}/v2/portfolio-wallets`, {
      method: "POST",
      headers: {
        authorization: `Bearer ${process.env["BENCH_SERVICE_TOKEN"]}`,
        "content-type": "application/json",
      },
      body: JSON.stringify({
        requestId: crypto.randomUUID(),
        label: `bench serviced ${inputs.index}`,
        positions: [
          { positionKey: "tbills", targetWeightBps: 6000 },
          { positionKey: "syrupUsdc", targetWeightBps: 4000 },
        ],
      }),
    });
    const wallet = (await response.json()) as { id?: string };
    if (response.status !== 201 || wallet.id === undefined) {
      throw new Error(`wallet creation answered ${response.status}`);
    }
    return { id: wallet.id, outs: inputs };
  },
};

class Serviced extends pulumi.dynamic.Resource {
  constructor(name: string, props: { index: number; padding: string }) {
    super(servicedProvider, name, props, undefined, "benchserviced", "Serviced");
  }
}

/** What a generated SDK registers: a custom resource of the native plugin's type token. */
class NativeWallet extends pulumi.CustomResource {
  constructor(name: string, props: Record<string, unknown>) {
    super("portfolio-wallet:index:PortfolioWallet", name, props);
  }
}

for (let index = 0; index < count; index++) {
  if (kind === "wallet") {
    new PortfolioWallet(`wallet-${index}`, { label: `bench wallet ${index}`, positions });
  } else if (kind === "native") {
    new NativeWallet(`native-${index}`, { label: `bench native wallet ${index}`, positions });
  } else if (kind === "serviced") {
    new Serviced(`serviced-${index}`, { index, padding });
  } else if (kind === "padded") {
    new Noop(`noop-${index}`, { index, padding });
  } else {
    new Noop(`noop-${index}`, { index });
  }
}
