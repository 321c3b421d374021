import { Command, CommanderError } from "commander";
import { adoptCommand } from "./commands/adopt.ts";
import { approveCommand, rejectCommand } from "./commands/approval.ts";
import { driftCommand, driftIssueCommand } from "./commands/drift.ts";
import { depositsCommand, walletsCommand, withdrawalsCommand, yieldCommand } from "./commands/listings.ts";
import { openapiCommand } from "./commands/openapi.ts";
import { policyPackPathCommand } from "./commands/policyPack.ts";
import { quoteCommand } from "./commands/quote.ts";
import { reportCommand } from "./commands/report.ts";
import { reportCheckCommand } from "./commands/reportCheck.ts";
import { restoreCommand } from "./commands/restore.ts";
import { sandboxCommand } from "./commands/sandbox.ts";
import { statementCommand } from "./commands/statement.ts";
import { watchCommand, watchIssueCommand } from "./commands/watch.ts";
import { withdrawCommand } from "./commands/withdraw.ts";
import { CLIENT_VERSION } from "../sdk/nodejs/client/internal/version.ts";

/** The `portfolio-wallet` command and its subcommands. */
export function createProgram(): Command {
  return new Command("portfolio-wallet")
    .description(
      "Treasury operations on the Portfolio Wallet Yield Service, pull-request reports of allocation changes, and a local sandbox.",
    )
    .version(CLIENT_VERSION, "-v, --version")
    .option(
      "--base-url <url>",
      "the service (else PORTFOLIO_WALLET_BASE_URL, else stack config portfolio-wallet:baseUrl)",
    )
    .option(
      "--api-token <token>",
      "API token (else PORTFOLIO_WALLET_API_TOKEN, else stack config portfolio-wallet:apiToken; prefer those: flags show in process lists)",
    )
    .option("--stack <name>", "read settings from this stack's config (default: the selected stack, if any)")
    .option("--json", "print results as JSON, for scripts")
    .showHelpAfterError("(run with --help for usage)")
    .addCommand(quoteCommand())
    .addCommand(approveCommand())
    .addCommand(rejectCommand())
    .addCommand(withdrawCommand())
    .addCommand(walletsCommand())
    .addCommand(depositsCommand())
    .addCommand(withdrawalsCommand())
    .addCommand(yieldCommand())
    .addCommand(statementCommand())
    .addCommand(reportCommand())
    .addCommand(reportCheckCommand())
    .addCommand(driftCommand())
    .addCommand(driftIssueCommand())
    .addCommand(restoreCommand())
    .addCommand(adoptCommand())
    .addCommand(watchCommand())
    .addCommand(watchIssueCommand())
    .addCommand(sandboxCommand())
    .addCommand(openapiCommand())
    .addCommand(policyPackPathCommand());
}

/** Commands whose exit code 2 is a result, not a usage error. */
const EXIT_2_IS_A_RESULT = new Set(["drift", "adopt", "watch"]);

function allCommands(command: Command): Command[] {
  return [command, ...command.commands.flatMap(allCommands)];
}

/**
 * Runs the command line and returns the exit code: 0 on success, 2 for a usage error (unknown
 * command or flag, bad flag value; 1 for `drift`, `adopt` and `watch`, whose 2 is a result), 1 when the command failed,
 * reported as one line on stderr.
 */
export async function runCli(argv: readonly string[]): Promise<number> {
  const program = createProgram();
  // Usage errors throw instead of exiting, in every (sub)command, so this function decides the code.
  let usageErrorCode = 2;
  for (const command of allCommands(program)) {
    command.exitOverride((error) => {
      // `drift` exits 2 for drift (as `terraform plan -detailed-exitcode`), `adopt` for what is left
      // to change by hand, `watch` for a band left, so their usage errors are 1.
      if (EXIT_2_IS_A_RESULT.has(command.name())) usageErrorCode = 1;
      throw error;
    });
  }
  try {
    await program.parseAsync([...argv]);
    // A command that ran but did not get what was asked (a rejected approval, a failed withdrawal)
    // has set process.exitCode after printing why.
    return Number(process.exitCode ?? 0);
  } catch (error) {
    if (error instanceof CommanderError) {
      // Commander has printed the message (or the help or version) already.
      return error.exitCode === 0 ? 0 : usageErrorCode;
    }
    console.error(`portfolio-wallet: ${error instanceof Error ? error.message : String(error)}`);
    return 1;
  }
}
