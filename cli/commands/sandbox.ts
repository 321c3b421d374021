import { Command } from "commander";
import { startSandbox } from "../../sandbox/index.ts";
import { loadCatalogFile } from "../../sandbox/domain/catalog.ts";
import {
  DEFAULT_DATA_DIR,
  DEFAULT_PORT,
  DEFAULT_REBALANCE_DELAY_MS,
  DEFAULT_TOKENS,
  parsePolicies,
  parseTokens,
} from "../../sandbox/options.ts";
import { wholeNumber } from "../flagValues.ts";

interface SandboxFlags {
  port: number;
  data: string;
  catalog?: string;
  rebalanceDelayMs: number;
}

/** `portfolio-wallet sandbox`: the local sandbox of the service, until SIGINT or SIGTERM. */
export function sandboxCommand(): Command {
  return new Command("sandbox")
    .description("Run the local sandbox of the Portfolio Wallet Yield Service on 127.0.0.1.")
    .option("--port <port>", "TCP port on 127.0.0.1; 0 picks a free one", wholeNumber, DEFAULT_PORT)
    .option("--data <dir>", 'directory of the SQLite data, or ":memory:" to keep nothing', DEFAULT_DATA_DIR)
    .option("--catalog <file.json>", "replace the yield-source catalog with this file at start-up")
    .option(
      "--rebalance-delay-ms <ms>",
      "how long a strategy update stays processing, in sandbox-clock ms",
      wholeNumber,
      DEFAULT_REBALANCE_DELAY_MS,
    )
    .addHelpText(
      "after",
      `
Environment:
  SANDBOX_TOKENS    API tokens and their organizations, "token=org,token2=org2"
                    (default: ${Object.entries(DEFAULT_TOKENS)
                      .map(([token, org]) => `${token}=${org}`)
                      .join(",")})
  SANDBOX_POLICIES  approval policies per organization, JSON:
                    '{"org":{"strategyUpdateApprovals":1,"withdrawalApprovals":2}}'`,
    )
    .action(async (flags: SandboxFlags) => {
      const env = process.env;
      const sandbox = await startSandbox({
        port: flags.port,
        dataDir: flags.data,
        tokens: env["SANDBOX_TOKENS"] === undefined ? DEFAULT_TOKENS : parseTokens(env["SANDBOX_TOKENS"]),
        ...(env["SANDBOX_POLICIES"] === undefined
          ? {}
          : { policies: parsePolicies(env["SANDBOX_POLICIES"]) }),
        ...(flags.catalog === undefined
          ? {}
          : { catalog: loadCatalogFile(flags.catalog, new Date().toISOString()) }),
        rebalanceDelayMs: flags.rebalanceDelayMs,
      });
      console.log(`listening on ${sandbox.url}`);
      await new Promise<void>((resolve) => {
        const stop = () => void sandbox.close().then(resolve);
        process.once("SIGINT", stop);
        process.once("SIGTERM", stop);
      });
    });
}
