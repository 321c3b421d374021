#!/usr/bin/env node
// `portfolio-wallet`: the package's command-line tool (package.json `bin`). Run from the repo as
// `node cli/main.ts <command>`, or from an installed package as `npx portfolio-wallet <command>`.
import { unsupportedNodeMessage } from "../sdk/nodejs/client/core/nodeVersion.ts";

// Checked before the commands load: on an older Node.js they fail while linking (`No such built-in
// module: node:sqlite`), before any code of theirs could say why.
const unsupported = unsupportedNodeMessage("portfolio-wallet (@portfolio-wallet/pulumi)");
if (unsupported !== undefined) {
  console.error(unsupported);
  process.exitCode = 1;
} else {
  const { runCli } = await import("./program.ts");
  process.exitCode = await runCli(process.argv);
}
