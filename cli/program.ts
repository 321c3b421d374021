import { Command, CommanderError } from "commander";
import { sandboxCommand } from "./commands/sandbox.ts";
import { packageVersion } from "./packageVersion.ts";

/** The `portfolio-wallet` command and its subcommands. */
export function createProgram(): Command {
  return new Command("portfolio-wallet")
    .description("Tools for the Portfolio Wallet Yield Service and its Pulumi provider.")
    .version(packageVersion(), "-v, --version")
    .showHelpAfterError("(run with --help for usage)")
    .addCommand(sandboxCommand());
}

/**
 * Runs the command line and returns the exit code: 0 on success, 2 for a usage error (unknown
 * command or flag, bad flag value), 1 for a failure of the command itself, reported as one line.
 */
export async function runCli(argv: readonly string[]): Promise<number> {
  const program = createProgram();
  // Usage errors throw instead of exiting, in every subcommand, so this function decides the code.
  for (const command of [program, ...program.commands]) command.exitOverride();
  try {
    await program.parseAsync([...argv]);
    return 0;
  } catch (error) {
    if (error instanceof CommanderError) {
      // Commander has printed the message (or the help or version) already.
      return error.exitCode === 0 ? 0 : 2;
    }
    console.error(`portfolio-wallet: ${error instanceof Error ? error.message : String(error)}`);
    return 1;
  }
}
