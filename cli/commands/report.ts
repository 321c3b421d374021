import { readFileSync, writeFileSync } from "node:fs";
import { Command, Option } from "commander";
import {
  StrategiesResponseSchema,
  blendedRateBps,
  keysMissingFromCatalog,
  liquidityBounds,
  weightsByKeyOf,
  withdrawableShareBps,
  type StrategyCatalogEntry,
} from "../../sdk/nodejs/contract/index.ts";
import type { PortfolioWalletClient } from "../../sdk/nodejs/client/index.ts";
import { describeFieldProblems, fieldProblemsOf } from "../../sdk/nodejs/contract/index.ts";
import { buildAllocationReport, targetKey, type ReportContext } from "../report/allocationReport.ts";
import { planPreviewMismatches, readPlan, type SavedPlan } from "../report/planFile.ts";
import { readPreview, type PreviewFacts } from "../report/previewSteps.ts";
import { DEFAULT_MAX_CHARS, forGitHub, renderMarkdown } from "../report/renderMarkdown.ts";
import { wholeNumber } from "../flagValues.ts";
import { listWalletsById } from "../../sdk/nodejs/client/walletsById.ts";
import { SETTINGS } from "../../sdk/nodejs/stackSettings.ts";
import {
  cliStackConfig,
  globalOptionsOf,
  withServiceClient,
  type GlobalOptions,
} from "../serviceSettings.ts";
import { COMMENT_THRESHOLD_SETTINGS, resolveCommentThresholds } from "../report/commentThresholds.ts";

interface ReportFlags {
  preview: string;
  plan?: string;
  format: "markdown" | "json";
  commit?: string;
  catalog?: string;
  maxChars: number;
  output?: string;
  jsonOutput?: string;
  commentUsdMoved?: string;
  commentWeightBps?: string;
  commentWithdrawableLostUsd?: string;
}

/** Amounts are exact micros (bigint) in the report; JSON carries them as decimal strings. */
const jsonMicros = (_key: string, value: unknown) => (typeof value === "bigint" ? value.toString() : value);

async function readAll(stream: NodeJS.ReadableStream): Promise<string> {
  let text = "";
  for await (const chunk of stream) text += chunk.toString();
  return text;
}

function catalogFromFile(file: string): StrategyCatalogEntry[] {
  let json: unknown;
  try {
    json = JSON.parse(readFileSync(file, "utf8"));
  } catch (error) {
    throw new Error(`--catalog ${file}: ${(error as Error).message}`, { cause: error });
  }
  // The file of `GET /v2/portfolio-wallets/strategies`, or just its array.
  const parsed = StrategiesResponseSchema.safeParse(Array.isArray(json) ? { strategies: json } : json);
  if (!parsed.success) {
    throw new Error(
      `--catalog ${file} is not a strategy catalog: ${describeFieldProblems(fieldProblemsOf(parsed.error))}`,
    );
  }
  return parsed.data.strategies;
}

/**
 * The catalog, the wallets' positions (for the dollars) and the balances of wallets the preview
 * deletes: from the service (read-only), or the catalog from a file when working offline (then the
 * report shows basis points only and balances stay unknown, and it says so).
 */
export async function serviceFacts(
  options: GlobalOptions,
  catalogFile: string | undefined,
  walletIds: ReadonlySet<string>,
  targets: readonly Readonly<Record<string, number>>[],
  projectDir?: string,
): Promise<
  Pick<ReportContext, "catalog" | "catalogSource" | "catalogReadAt" | "balances" | "wallets" | "quotes">
> {
  const readAt = new Date().toISOString();
  if (catalogFile !== undefined) {
    return {
      catalog: catalogFromFile(catalogFile),
      catalogSource: `file ${catalogFile}`,
      catalogReadAt: readAt,
      balances: new Map(),
      wallets: {
        available: false,
        reason: `the report ran offline (--catalog ${catalogFile}), so the service's wallets were not read`,
      },
    };
  }
  return withServiceClient(
    options,
    async (client) => {
      const catalog = (await client.catalog.listStrategies()).strategies;
      // Every wallet of the token's organization, a hundred a request: a 1,000-wallet change costs ten
      // reads, not a thousand. Skipped when no step names a wallet.
      const byId = walletIds.size === 0 ? new Map() : await listWalletsById(client);
      const walletsReadAt = new Date().toISOString();
      const balances = new Map<string, number>();
      for (const walletId of walletIds) {
        const wallet = byId.get(walletId);
        if (wallet !== undefined)
          balances.set(walletId, wallet.totalBalanceUsd + wallet.pendingAllocationsUsd);
      }
      return {
        catalog,
        catalogSource: `the service at ${client.baseUrl}`,
        catalogReadAt: readAt,
        balances,
        wallets: { available: true, byId, readAt: walletsReadAt },
        quotes: await quotesFor(client, targets, catalog),
      };
    },
    projectDir,
  );
}

/**
 * The preview the report is of: the preview JSON, the saved plan, or both (then they must agree,
 * so that the report a reviewer reads and the plan the merge job applies cannot say different things).
 */
async function previewFacts(
  flags: ReportFlags,
  previewGiven: boolean,
): Promise<PreviewFacts & { plan: SavedPlan | null }> {
  const plan = flags.plan === undefined ? null : readPlan(readFileSync(flags.plan));
  if (plan !== null && !previewGiven) return { ...plan.facts, plan };
  const text = flags.preview === "-" ? await readAll(process.stdin) : readFileSync(flags.preview, "utf8");
  const preview = readPreview(text);
  if (plan !== null) {
    const mismatches = planPreviewMismatches(plan, preview);
    if (mismatches.length > 0) {
      throw new Error(
        `--plan ${flags.plan} and --preview ${flags.preview} are not of the same preview (${mismatches.join("; ")}). ` +
          "Save both with one run: pulumi preview --save-plan plan.json --json > preview.json",
      );
    }
  }
  return { ...preview, plan };
}

/** The most distinct targets the report asks the quote endpoint about: advice must not cost a request per wallet. */
const MAX_QUOTED_TARGETS = 20;

/**
 * The quote endpoint's options for each distinct new target, asked for at least the target's
 * blended rate and liquidity within each processing time of the catalog: an option it returns
 * may beat the target (the report checks that itself). Advice only: a failed quote is left out.
 */
async function quotesFor(
  client: PortfolioWalletClient,
  targets: readonly Readonly<Record<string, number>>[],
  catalog: readonly StrategyCatalogEntry[],
): Promise<Map<string, Record<string, number>[]>> {
  const distinct = new Map(targets.map((weights) => [targetKey(weights), weights]));
  const quotes = new Map<string, Record<string, number>[]>();
  for (const [key, weights] of [...distinct].slice(0, MAX_QUOTED_TARGETS)) {
    if (keysMissingFromCatalog(weights, catalog).length > 0) continue;
    const liquidityConstraints = liquidityBounds(catalog)
      .map((within) => ({
        maxProcessingTime: within,
        minWeightBps: withdrawableShareBps(weights, catalog, within),
      }))
      .filter((constraint) => constraint.minWeightBps > 0);
    try {
      const options = await client.quotes.create({
        minApyTargetBps: Math.floor(blendedRateBps(weights, catalog)),
        liquidityConstraints,
      });
      quotes.set(
        key,
        options.map((option) => weightsByKeyOf(option.strategyConfig.positions)),
      );
    } catch {
      // Advice is never worth failing the report for: without a quote there is simply none.
    }
  }
  return quotes;
}

/**
 * The pull-request report of a preview (and its plan, when one was saved), as JSON and as markdown
 * from one read of the service: what `report` prints, and what `restore` prints of the preview it
 * runs.
 */
export async function reportOfPreview(
  options: GlobalOptions,
  preview: PreviewFacts & { plan: SavedPlan | null },
  settings: {
    catalogFile: string | undefined;
    commit: string | undefined;
    commentThresholds: ReportContext["commentThresholds"];
    maxChars: number;
    /** The Pulumi project whose stack config holds the service's settings (default: the working directory). */
    projectDir?: string;
  },
): Promise<{ json: string; markdown: string }> {
  const walletIds = new Set(preview.steps.flatMap((step) => (step.walletId === null ? [] : [step.walletId])));
  const targets = preview.steps.flatMap((step) =>
    step.op === "delete" || step.after === null || step.after === "unknown" ? [] : [step.after],
  );
  const facts = await serviceFacts(options, settings.catalogFile, walletIds, targets, settings.projectDir);
  const report = buildAllocationReport(preview, {
    ...facts,
    commit: settings.commit ?? (process.env["GITHUB_SHA"] || null),
    // Whether an approver is configured, never what it is: the key's presence only.
    approverConfigured: preview.approverConfigured || Boolean(process.env[SETTINGS.turnkeyApiPrivateKey.env]),
    planSha256: preview.plan?.sha256 ?? null,
    commentThresholds: settings.commentThresholds,
  });
  return {
    json: `${JSON.stringify(report, jsonMicros, 2)}\n`,
    markdown: forGitHub(renderMarkdown(report, settings.maxChars)),
  };
}

/** `portfolio-wallet report`: a pull-request report of a `pulumi preview --json`. */
export function reportCommand(): Command {
  const { usdMoved, weightBps, withdrawableLostUsd } = COMMENT_THRESHOLD_SETTINGS;
  return new Command("report")
    .description(
      "Turn `pulumi preview --json` into a pull-request report of allocation changes (markdown or JSON).",
    )
    .option("--preview <file>", 'the preview JSON, or "-" for stdin', "-")
    .addOption(
      new Option("--format <format>", "markdown for a comment, json for bots")
        .choices(["markdown", "json"])
        .default("markdown"),
    )
    .option(
      "--plan <file>",
      "the plan of `pulumi preview --save-plan`: its digest goes into the report; with --preview, both must agree, alone it is the report's source",
    )
    .option("--commit <sha>", "the commit the preview is of, for the comment marker (default: $GITHUB_SHA)")
    .option(
      "--catalog <file>",
      "read rates and liquidity limits from this file instead of the service (offline)",
    )
    .option(
      "--max-chars <n>",
      "size budget of the markdown (GitHub allows 65536 per comment)",
      wholeNumber,
      DEFAULT_MAX_CHARS,
    )
    .option("--output <file>", "write the report to a file instead of stdout")
    .option(
      "--json-output <file>",
      "also write the same report as JSON to this file (one read of the service for both): what `report-check` holds the merge to",
    )
    .option(
      `${usdMoved.flag} <usd>`,
      `the change is worth a comment when it moves at least this many USD (else stack config ${usdMoved.configKey}, default ${usdMoved.default})`,
    )
    .option(
      `${weightBps.flag} <bps>`,
      `... or changes a weight by at least this many bps (else stack config ${weightBps.configKey}, default ${weightBps.default})`,
    )
    .option(
      `${withdrawableLostUsd.flag} <usd>`,
      `... or takes at least this many USD out of what is withdrawable at once (else stack config ${withdrawableLostUsd.configKey}, default ${withdrawableLostUsd.default})`,
    )
    .action(async (flags: ReportFlags, command: Command) => {
      const options = globalOptionsOf(command);
      // Read first, so that a bad threshold stops the command before it asks the service anything.
      const commentThresholds = resolveCommentThresholds(
        {
          usdMoved: flags.commentUsdMoved,
          weightBps: flags.commentWeightBps,
          withdrawableLostUsd: flags.commentWithdrawableLostUsd,
        },
        cliStackConfig(options),
      );
      const preview = await previewFacts(flags, command.getOptionValueSource("preview") !== "default");
      const { json, markdown } = await reportOfPreview(options, preview, {
        catalogFile: flags.catalog,
        commit: flags.commit,
        commentThresholds,
        maxChars: flags.maxChars,
      });
      const rendered = flags.format === "json" ? json : markdown;
      if (flags.jsonOutput !== undefined) writeFileSync(flags.jsonOutput, json);
      if (flags.output !== undefined) writeFileSync(flags.output, rendered);
      else process.stdout.write(rendered);
    });
}
