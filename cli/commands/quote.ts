import { Command } from "commander";
import { writeAllocationFile } from "../../sdk/nodejs/allocationFile.ts";
import {
  isInstantlyWithdrawable,
  type QuoteOption,
  type QuoteRequest,
} from "../../sdk/nodejs/contract/index.ts";
import { basisPoints, collect, liquidityConstraint, wholeNumber } from "../flagValues.ts";
import { printResult, table } from "../output.ts";
import { globalOptionsOf, withServiceClient } from "../serviceSettings.ts";

interface QuoteFlags {
  minApyBps?: number;
  instantMinBps?: number;
  liquidity?: { maxProcessingTime: string; minWeightBps: number }[];
  excludeType?: string[];
  exclude?: string[];
  write?: string;
  option?: number;
}

/** The share of an option withdrawable at once, from the processing times its positions carry. */
function instantShareBps(option: QuoteOption): number | null {
  let share = 0;
  for (const position of option.strategyConfig.positions) {
    if (position.maxProcessingTime === undefined) return null;
    if (isInstantlyWithdrawable(position.maxProcessingTime)) share += position.targetWeightBps;
  }
  return share;
}

function weightsText(option: QuoteOption): string {
  return [...option.strategyConfig.positions]
    .sort((a, b) => b.targetWeightBps - a.targetWeightBps)
    .map((position) => `${position.positionKey} ${position.targetWeightBps}`)
    .join(", ");
}

/** The option `--write` takes: the one chosen with --option, else the first that meets every constraint. */
function chosenOption(
  options: QuoteOption[],
  chosen: number | undefined,
): { option: QuoteOption; index: number } {
  if (chosen !== undefined) {
    const option = options[chosen - 1];
    if (option === undefined)
      throw new Error(`--option ${chosen}: the quote has ${options.length} option(s)`);
    return { option, index: chosen - 1 };
  }
  const index = options.findIndex((option) => option.constraintsSatisfied);
  if (index < 0) {
    throw new Error(
      "no option meets every constraint, so none is written by default; compare the options and pick one with --option <n>",
    );
  }
  return { option: options[index]!, index };
}

/** `portfolio-wallet quote`: Pareto-optimal allocations for constraints (spec 4.1), and an allocation file. */
export function quoteCommand(): Command {
  return new Command("quote")
    .description("Quote allocations that meet an APY and liquidity constraints (read-only).")
    .option("--min-apy-bps <bps>", "minimum blended APY in basis points", wholeNumber)
    .option("--instant-min-bps <bps>", "at least this share (bps) withdrawable at once (PT0H)", basisPoints)
    .option(
      "--liquidity <duration=bps>",
      "at least <bps> withdrawable within <duration>, such as PT24H=5000 (repeatable)",
      liquidityConstraint,
    )
    .option(
      "--exclude-type <strategyType>",
      "leave out a strategy type, such as deltaNeutralStrategy (repeatable)",
      collect,
    )
    .option(
      "--exclude <positionKey|asset>",
      "leave out a yield source by positionKey or asset (repeatable)",
      collect,
    )
    .option("--write <file>", "write the chosen option as an allocation file (see loadAllocation)")
    .option(
      "--option <n>",
      "the option to write, 1-based (default: the first that meets every constraint)",
      wholeNumber,
    )
    .action(async (flags: QuoteFlags, command: Command) => {
      const options = globalOptionsOf(command);
      const request: QuoteRequest = {
        ...(flags.minApyBps !== undefined ? { minApyTargetBps: flags.minApyBps } : {}),
        ...((flags.liquidity ?? []).length > 0 || flags.instantMinBps !== undefined
          ? {
              liquidityConstraints: [
                ...(flags.instantMinBps !== undefined
                  ? [{ maxProcessingTime: "PT0H", minWeightBps: flags.instantMinBps }]
                  : []),
                ...(flags.liquidity ?? []),
              ],
            }
          : {}),
        ...(flags.excludeType ? { yieldSourceTypeExclusions: flags.excludeType } : {}),
        ...(flags.exclude ? { yieldSourceExclusions: flags.exclude } : {}),
      };
      const quote = await withServiceClient(options, (client) => client.quotes.create(request));
      const written =
        flags.write === undefined
          ? undefined
          : (() => {
              const { option, index } = chosenOption(quote, flags.option);
              writeAllocationFile(flags.write, option.strategyConfig.positions, {
                option: index + 1,
                optimizedFor: option.optimizedFor ?? null,
                blendedRateBps: option.blendedRateBps,
                constraintsSatisfied: option.constraintsSatisfied,
                request,
                quotedAt: new Date().toISOString(),
              });
              return { file: flags.write, option: index + 1 };
            })();
      printResult(options.json === true, { request, options: quote, written: written ?? null }, () => {
        const rows = quote.map((option, index) => ({ option, index }));
        const lines = [
          table(rows, [
            { title: "#", value: (r) => r.index + 1, right: true },
            { title: "for", value: (r) => r.option.optimizedFor ?? "-" },
            { title: "meets constraints", value: (r) => (r.option.constraintsSatisfied ? "yes" : "no") },
            { title: "blended rate bps", value: (r) => r.option.blendedRateBps, right: true },
            { title: "at once bps", value: (r) => instantShareBps(r.option), right: true },
            { title: "weights (bps)", value: (r) => weightsText(r.option) },
          ]),
        ];
        if (written) lines.push("", `wrote option ${written.option} to ${written.file}`);
        return lines.join("\n");
      });
    });
}
