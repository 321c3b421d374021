#!/usr/bin/env node
// `portfolio-wallet`: the package's command-line tool (package.json `bin`). Run from the repo as
// `node cli/main.ts <command>`, or from an installed package as `npx portfolio-wallet <command>`.
import { runCli } from "./program.ts";

process.exitCode = await runCli(process.argv);
