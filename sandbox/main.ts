// `npm run sandbox`: starts the sandbox from command-line flags and environment variables.
import { parseArgs } from "node:util";
import { startSandbox } from "./index.ts";
import { loadCatalogFile } from "./domain/catalog.ts";
import { DEFAULT_DATA_DIR, DEFAULT_PORT, DEFAULT_TOKENS, parsePolicies, parseTokens } from "./options.ts";

const USAGE = `usage: node sandbox/main.ts [--port 8787] [--data .sandbox-data|:memory:] [--catalog file.json] [--rebalance-delay-ms 300]
env: SANDBOX_TOKENS="token=org,token2=org2"  SANDBOX_POLICIES='{"org":{"strategyUpdateApprovals":1}}'`;

function integerFlag(name: string, value: string | undefined, fallback: number): number {
  if (value === undefined) return fallback;
  const parsed = Number(value);
  if (!Number.isInteger(parsed) || parsed < 0)
    throw new Error(`--${name} must be a whole number >= 0 (got ${value})`);
  return parsed;
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      port: { type: "string" },
      data: { type: "string" },
      catalog: { type: "string" },
      "rebalance-delay-ms": { type: "string" },
      help: { type: "boolean", short: "h" },
    },
    strict: true,
  });
  if (values.help === true) {
    console.log(USAGE);
    return;
  }
  const env = process.env;
  const sandbox = await startSandbox({
    port: integerFlag("port", values.port, DEFAULT_PORT),
    dataDir: values.data ?? DEFAULT_DATA_DIR,
    tokens: env.SANDBOX_TOKENS === undefined ? DEFAULT_TOKENS : parseTokens(env.SANDBOX_TOKENS),
    ...(env.SANDBOX_POLICIES === undefined ? {} : { policies: parsePolicies(env.SANDBOX_POLICIES) }),
    ...(values.catalog === undefined
      ? {}
      : { catalog: loadCatalogFile(values.catalog, new Date().toISOString()) }),
    rebalanceDelayMs: integerFlag("rebalance-delay-ms", values["rebalance-delay-ms"], 300),
  });
  console.log(`sandbox listening on ${sandbox.url}`);
  const stop = () => {
    void sandbox.close().then(() => process.exit(0));
  };
  process.once("SIGINT", stop);
  process.once("SIGTERM", stop);
}

main().catch((error: unknown) => {
  console.error(`sandbox: ${error instanceof Error ? error.message : String(error)}`);
  console.error(USAGE);
  process.exit(1);
});
