// The README's main job: `pulumi up` of the quickstart stack (Pulumi.yaml at the top level)
// through the real Pulumi engine, against the embedded sandbox unless a base URL is configured.
//
//   npm run quickstart             # up (again: a no-op update)
//   npm run quickstart -- destroy  # tear the stack down
//
// The embedded sandbox keeps its SQLite data in .sandbox-data/ and the stack state lives in
// .pulumi-state/ (both gitignored), so a second run finds the same wallet.
import { parseArgs } from "node:util";
import path from "node:path";
import { LocalWorkspace } from "@pulumi/pulumi/automation/index.js";
import { startSandbox } from "../sandbox/index.ts";
import { pulumiCommand, pulumiEnv, repoRoot } from "./pulumiEnv.ts";

const STACK_NAME = "quickstart";
const SANDBOX_TOKEN = "sandbox-token";

const { positionals } = parseArgs({ allowPositionals: true });
const action = positionals[0] ?? "up";
if (action !== "up" && action !== "destroy") {
  console.error(`unknown action "${action}": use "up" (default) or "destroy"`);
  process.exit(2);
}

const envVars = pulumiEnv();
const stack = await LocalWorkspace.createOrSelectStack(
  { stackName: STACK_NAME, workDir: repoRoot },
  { pulumiCommand: await pulumiCommand(), envVars },
);

// A base URL set in the stack config or the environment means a real (or separately run) service.
const configuredBaseUrl =
  (await stack.getAllConfig())["portfolio-wallet:baseUrl"]?.value ?? process.env["PORTFOLIO_WALLET_BASE_URL"];
const embedded = configuredBaseUrl
  ? undefined
  : await startSandbox({ port: 0, dataDir: path.join(repoRoot, ".sandbox-data") });
if (embedded) {
  console.log(`embedded sandbox listening on ${embedded.url} (data in .sandbox-data/)`);
  // The sandbox's port changes per run; only the provider configuration follows it, never an input.
  await stack.setConfig("portfolio-wallet:baseUrl", { value: embedded.url });
  await stack.setConfig("portfolio-wallet:apiToken", { value: SANDBOX_TOKEN, secret: true });
}

const stream = { onOutput: (text: string) => process.stdout.write(text) };
try {
  if (action === "destroy") {
    await stack.destroy(stream);
    console.log(`\nstack "${STACK_NAME}" destroyed`);
  } else {
    const result = await stack.up(stream);
    const outputs = result.outputs;
    console.log("\nQuickstart outputs:");
    console.log(`  wallet id:          ${outputs["walletId"]?.value}`);
    console.log(`  blended rate (bps): ${outputs["blendedRateBps"]?.value}`);
    console.log("  deposit addresses:");
    for (const [chain, address] of Object.entries((outputs["depositAddresses"]?.value ?? {}) as Record<string, string>)) {
      console.log(`    ${chain.padEnd(10)} ${address}`);
    }
  }
} finally {
  await embedded?.close();
}
