/**
 * A Pulumi program run with `pulumi.runtime.setMocks`, in a plain Node process as `pulumi up`
 * runs a program. It must not run inside vitest: vitest rewrites `import()` in the code it loads,
 * and Pulumi's closure serializer (which serializes every dynamic resource's provider into
 * `__provider`) cannot serialize the rewritten function. The test that spawns it
 * (program.test.ts, serialization.test.ts) reads the JSON report printed on the last line.
 *
 * Usage: node test/provider/programs/mockedProgram.ts <scenario>
 */
import * as pulumi from "@pulumi/pulumi";

/** A wallet made elsewhere, managed by the programs' WalletStrategy resources. */
const walletIdOfStrategies = "0d5e7a52-7f0e-4c1a-9d55-3c2a8b1f6e01";

interface Registration {
  type: string;
  name: string;
  urn: string;
  inputs: Record<string, unknown>;
  additionalSecretOutputs: string[];
}

const registrations: Registration[] = [];
const errors: string[] = [];
const consoleError = console.error.bind(console);
console.error = (...args: unknown[]) => {
  errors.push(args.map(String).join(" "));
};

await pulumi.runtime.setMocks(
  {
    newResource(args) {
      // What the provider would answer: the inputs, plus a wallet id for wallets.
      const state: Record<string, unknown> = { ...args.inputs };
      if (args.type.endsWith(":PortfolioWallet")) state["walletId"] = `${args.name}-wallet-id`;
      return { id: `${args.name}-id`, state };
    },
    call: (args) => args.inputs,
  },
  "portfolio-wallet",
  "test",
  false,
);

// The mock monitor hands newResource only type, name and inputs; wrap it to also see the options.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
const monitor = pulumi.runtime.getMonitor() as any;
const registerResource = monitor.registerResource.bind(monitor);
// eslint-disable-next-line @typescript-eslint/no-explicit-any
monitor.registerResource = (req: any, callback: (err: unknown, res: any) => void) => {
  registerResource(req, (err: unknown, res: { getUrn(): string } | undefined) => {
    if (res !== undefined) {
      registrations.push({
        type: req.getType(),
        name: req.getName(),
        urn: res.getUrn(),
        inputs: req.getObject().toJavaScript(),
        additionalSecretOutputs: req.getAdditionalsecretoutputsList(),
      });
    }
    callback(err, res);
  });
};

const { PortfolioWallet, WalletStrategy, WebhookRegistration } = await import("../../../sdk/nodejs/index.ts");

const positions = [
  { positionKey: "tbills", targetWeightBps: 6000 },
  { positionKey: "syrupUsdc", targetWeightBps: 4000 },
];

const scenario = process.argv[2];
// The resource classes turn stack traces off while they register: they must turn them back on.
Error.stackTraceLimit = 17;
const resources: pulumi.Resource[] = [];
switch (scenario ?? "") {
  case "all-kinds": {
    const wallet = new PortfolioWallet("treasury", { positions, label: "treasury" });
    const strategy = new WalletStrategy("other-wallet", { walletId: walletIdOfStrategies, positions });
    const webhook = new WebhookRegistration("events", {
      url: "https://hooks.example.com/portfolio",
      eventTypes: ["portfolio_wallet.strategy.status_changed"],
    });
    resources.push(wallet, strategy, webhook);
    break;
  }
  case "parented": {
    class Treasury extends pulumi.ComponentResource {
      constructor(name: string) {
        super("acme:treasury:Treasury", name);
        resources.push(new PortfolioWallet(`${name}-wallet`, { positions }, { parent: this }));
        this.registerOutputs({});
      }
    }
    resources.push(new Treasury("ops"));
    break;
  }
  case "wallet-and-strategy-on-one-wallet": {
    const wallet = new PortfolioWallet("treasury", { positions });
    resources.push(wallet, new WalletStrategy("treasury-strategy", { walletId: wallet.walletId, positions }));
    break;
  }
  case "two-strategies-on-one-wallet": {
    resources.push(
      new WalletStrategy("first", { walletId: walletIdOfStrategies, positions }),
      new WalletStrategy("second", { walletId: walletIdOfStrategies, positions }),
    );
    break;
  }
  default:
    consoleError(`unknown scenario ${scenario}`);
    process.exit(2);
}

// Wait until every resource is registered and its outputs resolved.
const resolve = (r: pulumi.Resource) => new Promise<string>((done) => r.urn.apply(done));
await Promise.all(resources.map(resolve));
// Outputs' apply callbacks (allocationOwnership's check) run after registration: let them run.
await new Promise((done) => setTimeout(done, 200));

const stackTraceLimitAfter = Error.stackTraceLimit;
process.stdout.write(
  `\n${JSON.stringify({ registrations, errors, hasErrors: pulumi.log.hasErrors(), stackTraceLimitAfter })}\n`,
);
