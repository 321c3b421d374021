#!/usr/bin/env node
import { providerProcess } from "../providerProcess.ts";
import { serveResourceProvider } from "./grpcServer.ts";
import { packageSchema } from "./packageSchema.ts";

/**
 * `pulumi-resource-portfolio-wallet`: the native provider plugin. The engine starts it with its
 * own address as the first argument and reads the port of this process's gRPC server from the
 * first line it prints. Programs in any Pulumi language use it through the SDKs generated from the
 * package schema; see docs/languages.md.
 */
async function main(args: string[]): Promise<void> {
  if (args.includes("--version")) {
    console.log(packageSchema.version);
    return;
  }
  // The engine's address comes last, after any logging and tracing flags it passes.
  const engineAddress = args.at(-1);
  if (engineAddress === undefined || engineAddress.startsWith("-")) {
    console.error(
      "pulumi-resource-portfolio-wallet is a Pulumi provider plugin: the Pulumi engine starts it. " +
        "See docs/languages.md for how to make the engine find it.",
    );
    process.exitCode = 2;
    return;
  }
  // Messages for the person running Pulumi (a retry's wait, say) go back through the engine.
  providerProcess.attachToEngine(engineAddress);
  const { port } = await serveResourceProvider(JSON.stringify(packageSchema), packageSchema.version);
  // The engine reads the port from the first line; print it as plain digits.
  process.stdout.write(`${port}\n`);
}

await main(process.argv.slice(2));
