import { readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { Command } from "commander";
import { formatDollars } from "../../sdk/nodejs/contract/money.ts";
import { listWalletsById } from "../../sdk/nodejs/client/walletsById.ts";
import {
  allocationFieldsOf,
  carriesAllocation,
  resourceKindOfType,
  RESOURCE_DESCRIPTORS,
  type AllocationKind,
  type UncheckedOutputs,
} from "../../sdk/nodejs/resources/resourceTypes.ts";
import { urnParts } from "../../sdk/nodejs/resources/urn.ts";
import { readStackExport, type StackExport } from "../report/approvalReview.ts";
import { forGitHub } from "../report/renderMarkdown.ts";
import { runPulumi } from "../pulumiCli.ts";
import { cliStackConfig, globalOptionsOf, withServiceClient } from "../serviceSettings.ts";
import { WATCH_ISSUE } from "../drift/driftIssue.ts";
import { watchWallets, type WatchedWallet, type WatchReport } from "../watch/marketWatch.ts";
import { renderWatch } from "../watch/renderWatch.ts";
import { resolveWatchBands } from "../watch/watchSettings.ts";
import { checkIssueCommand } from "./checkIssue.ts";

/** Exit codes of `watch`, as `drift`'s: 2 when something is outside its band. */
export const WATCH_EXIT = { within: 0, error: 1, outside: 2 } as const;

interface WatchFlags {
  cwd?: string;
  state?: string;
  markdown?: boolean;
  output?: string;
  driftBandBps?: string;
  instantMinBps?: string;
  instantMinUsd?: string;
  rateDropBps?: string;
}

const isRates = (value: unknown): value is Record<string, number> =>
  typeof value === "object" &&
  value !== null &&
  Object.values(value).length > 0 &&
  Object.values(value).every((rate) => typeof rate === "number");

/** The stack's wallets from its state: one per wallet id (a PortfolioWallet before a WalletStrategy). */
function watchedWallets(state: StackExport): WatchedWallet[] {
  const byId = new Map<string, WatchedWallet>();
  for (const [urn, outputs] of state.resources) {
    const { type, name } = urnParts(urn);
    const kind = resourceKindOfType(type);
    const fields = allocationFieldsOf(kind);
    if (!carriesAllocation(kind) || fields === undefined) continue;
    const walletId = outputs[fields.walletId];
    if (typeof walletId !== "string" || byId.has(walletId)) continue;
    const rates = (outputs as UncheckedOutputs<AllocationKind>).appliedRatesBps;
    byId.set(walletId, {
      name,
      kind: RESOURCE_DESCRIPTORS[kind].type,
      walletId,
      appliedRatesBps: isRates(rates) ? rates : null,
    });
  }
  return [...byId.values()].sort((a, b) => a.name.localeCompare(b.name));
}

/**
 * `portfolio-wallet watch`: the market's effect on the stack's wallets against the treasury's
 * bands, from the service's own figures (GETs only), never config drift (docs/cli.md, "Market
 * watch"). The wallets are the stack's state (`pulumi stack export`, which runs no program).
 */
export function watchCommand(): Command {
  return new Command("watch")
    .description(
      "Watch the market's effect on the stack's wallets: positions off their band, too little withdrawable, " +
        "rates fallen since the allocation was set. Only reads. Exit 0: within bands, 2: outside, 1: error.",
    )
    .option("--cwd <dir>", "the Pulumi project directory (default: the working directory)")
    .option(
      "--state <file>",
      "read the stack's wallets from this `pulumi stack export` instead of running it",
    )
    .option("--markdown", "print the report as markdown (an issue body)")
    .option("--output <file>", "write the report to a file instead of stdout")
    .option(
      "--drift-band-bps <bps>",
      "a position is outside its band beyond this drift (else stack config portfolio-wallet:watchDriftBps, default 500)",
    )
    .option(
      "--instant-min-bps <bps>",
      "the least share withdrawable at once (else portfolio-wallet:watchInstantMinBps, default 0: off)",
    )
    .option(
      "--instant-min-usd <usd>",
      "the least USD withdrawable at once (else portfolio-wallet:watchInstantMinUsd, default 0: off)",
    )
    .option(
      "--rate-drop-bps <bps>",
      "a rate fallen more than this below its rate at apply (else portfolio-wallet:watchRateDropBps, default 100)",
    )
    .action(async (flags: WatchFlags, command: Command) => {
      const options = globalOptionsOf(command);
      const projectDir = path.resolve(flags.cwd ?? ".");
      // Read first, so that a bad band stops the command before it asks anything.
      const bands = resolveWatchBands(
        {
          driftBps: flags.driftBandBps,
          instantMinBps: flags.instantMinBps,
          instantMinUsd: flags.instantMinUsd,
          rateDropBps: flags.rateDropBps,
        },
        cliStackConfig(options, projectDir),
      );
      const stateText =
        flags.state !== undefined
          ? readFileSync(flags.state, "utf8")
          : (
              await runPulumi(
                [
                  "stack",
                  "export",
                  "--non-interactive",
                  ...(options.stack ? ["--stack", options.stack] : []),
                ],
                projectDir,
              )
            ).stdout;
      const state = readStackExport(JSON.parse(stateText));
      const wallets = watchedWallets(state);
      const firstUrn = state.resources.keys().next().value;
      const stack =
        firstUrn === undefined
          ? (options.stack ?? null)
          : `${urnParts(firstUrn).project}/${urnParts(firstUrn).stack}`;
      const checkedAt = new Date().toISOString();
      const { answers, catalog } = await withServiceClient(
        options,
        async (client) => ({
          catalog: (await client.catalog.listStrategies()).strategies,
          answers: wallets.length === 0 ? new Map() : await listWalletsById(client),
        }),
        projectDir,
      );
      const report = watchWallets({
        stack,
        checkedAt,
        bands,
        wallets,
        answers,
        catalog,
        dollars: formatDollars,
      });
      const rendered = options.json
        ? `${JSON.stringify(report, null, 2)}\n`
        : flags.markdown
          ? forGitHub(renderWatch(report, true))
          : renderWatch(report, false);
      if (flags.output !== undefined) writeFileSync(flags.output, rendered);
      else process.stdout.write(rendered);
      process.exitCode = report.outside ? WATCH_EXIT.outside : WATCH_EXIT.within;
    });
}

/** `portfolio-wallet watch-issue`: the stack's one market-watch issue, as `drift-issue` keeps the drift issue. */
export function watchIssueCommand(): Command {
  return checkIssueCommand({
    name: "watch-issue",
    description:
      "Decide the market-watch issue of a stack: open, update, reopen, close or nothing (for a workflow).",
    subject: WATCH_ISSUE,
    reportFlag: "--watch <file>",
    reportHelp: "the output of `portfolio-wallet --json watch`",
    readReport: (json, file) => {
      const report = json as WatchReport;
      if (typeof report?.outside !== "boolean" || !Array.isArray(report.wallets)) {
        throw new Error(`--watch ${file} is not the output of \`portfolio-wallet --json watch\``);
      }
      return {
        found: report.outside,
        checkedAt: report.checkedAt,
        markdown: forGitHub(renderWatch(report, true)),
      };
    },
  });
}
