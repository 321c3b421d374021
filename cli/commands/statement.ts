import { writeFileSync } from "node:fs";
import { Command, Option } from "commander";
import { statementCsv, statementPeriodProblems } from "../../sdk/nodejs/contract/index.ts";
import { isoDateTime, uuid } from "../flagValues.ts";
import { globalOptionsOf, withServiceClient } from "../serviceSettings.ts";

interface StatementFlags {
  from: string;
  to: string;
  format?: "csv" | "json";
  output?: string;
}

/**
 * `portfolio-wallet statement`: a wallet's statement over a period, as CSV or JSON, to stdout or a
 * file (docs/cli.md "statement"). Made by the client's `statements.retrieve`, so it is what the
 * console downloads for the same wallet and period.
 */
export function statementCommand(): Command {
  return new Command("statement")
    .description(
      "A wallet's statement over a period: opening balance, deposits, withdrawals, payouts, yield, closing balance and each movement (read-only).",
    )
    .argument("<walletId>", "the wallet", uuid)
    .requiredOption(
      "--from <date-time>",
      "the period's start, excluded: ISO 8601 such as 2026-11-01T00:00:00Z",
      isoDateTime,
    )
    .requiredOption("--to <date-time>", "the period's end, included: after --from", isoDateTime)
    .addOption(
      new Option("--format <format>", "csv or json (default: csv; json with --json)").choices([
        "csv",
        "json",
      ]),
    )
    .option("--output <file>", "write the statement to this file instead of stdout")
    .action(async (walletId: string, flags: StatementFlags, command: Command) => {
      const options = globalOptionsOf(command);
      const problem = statementPeriodProblems(flags)[0];
      if (problem !== undefined) {
        // A usage error, as a bad date is: commander prints it and the exit code is 2.
        command.error(`error: option --${problem.field} ${problem.reason}`, {
          exitCode: 2,
          code: "commander.invalidArgument",
        });
      }
      const format = flags.format ?? (options.json === true ? "json" : "csv");
      const statement = await withServiceClient(options, (client) =>
        client.statements.retrieve(walletId, { from: flags.from, to: flags.to }),
      );
      const text = format === "json" ? `${JSON.stringify(statement, null, 2)}\n` : statementCsv(statement);
      if (flags.output === undefined) {
        process.stdout.write(text);
        return;
      }
      writeFileSync(flags.output, text);
      process.stderr.write(
        `wrote the statement of wallet ${walletId} for (${statement.period.from}, ${statement.period.to}] to ${flags.output} (${format}, ${statement.movements.length} movements)\n`,
      );
    });
}
