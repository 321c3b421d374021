import type { AllocationReport, WalletChange } from "./allocationReport.ts";
import {
  centsByLargestRemainder,
  durationInWords,
  formatDollars,
  type MoneyImpact,
} from "../../sdk/nodejs/contract/index.ts";
import { beforeAfter, bps, dollarsBeforeAfter, signedBps } from "./format.ts";

/**
 * The report as a pull-request comment: the headline first, warnings next, then one table per
 * wallet, and the rest folded. A comment holds at most 65,536 characters on GitHub; when the whole
 * report does not fit the budget, the folded details go first, then the per-wallet tables become one
 * row per wallet, and only as a last resort are rows left out (saying how many). The marker line,
 * the headline and the warnings are never cut.
 */

/** Default budget: GitHub's limit (65,536) less room for the comment action's own marker. */
export const DEFAULT_MAX_CHARS = 60_000;

/** The hidden first line a sticky-comment action can find and replace; it names stack and commit. */
export function reportMarker(report: AllocationReport): string {
  const fields = [
    `project=${report.project ?? "-"}`,
    `stack=${report.stack ?? "-"}`,
    `commit=${report.commit ?? "-"}`,
  ];
  return `<!-- portfolio-wallet-report ${fields.join(" ")} -->`;
}

const WORD_JOINER = "\u2060";

/**
 * The markdown as it is posted to GitHub (a pull-request comment, a drift issue): a sign stays on
 * the line of its amount. A browser may break a line between `−` and `$` (both are prefixes to a
 * number in Unicode's line breaking), and on a phone a reviewer then reads `tbills −` on one line
 * and `$1,000,000.00` on the next; an invisible word joiner between them forbids that. Applied
 * where the command writes the markdown, so that the text tests and docs read is the plain one.
 */
export function forGitHub(markdown: string): string {
  return markdown.replace(/([−+])\$/g, `$1${WORD_JOINER}$`);
}

/** Table cells never break the table: pipes and newlines in names are escaped. */
export const cell = (text: string) => text.replaceAll("|", "\\|").replaceAll("\n", " ");

/** A source's dollars as printed: whole cents, so that every column adds up to its printed total. */
interface PrintedSource {
  positionKey: string;
  nowMicros: bigint;
  afterMicros: bigint;
  /** after − now as printed, so that each row adds up too. */
  deltaMicros: bigint;
}

/**
 * A wallet's sources in cents: USD now and USD after each rounded by largest remainder, so that
 * each column adds up to the balance printed below it, and Δ the difference of the two printed.
 */
function printedSources(impact: MoneyImpact): PrintedSource[] {
  const now = centsByLargestRemainder(impact.sources.map((source) => source.nowMicros));
  const after = centsByLargestRemainder(impact.sources.map((source) => source.afterMicros));
  return impact.sources.map((source, index) => {
    const nowMicros = now[index] ?? 0n;
    const afterMicros = after[index] ?? 0n;
    return { positionKey: source.positionKey, nowMicros, afterMicros, deltaMicros: afterMicros - nowMicros };
  });
}

/**
 * What the yearly yield is, said once: under the report's headline (the coverage line) and after
 * `approve`'s line, not beside every figure.
 */
export const YEARLY_YIELD_ASSUMPTION =
  "Yearly yield: each source's dollars at its current catalog rate for a year, a projection at today's rates, " +
  "not a forecast (rates change, and the service may rebalance).";

function walletTitle(wallet: WalletChange): string {
  const id = wallet.walletId === null ? "" : ` (wallet ${wallet.walletId})`;
  return `${wallet.kind} \`${cell(wallet.name)}\`: ${wallet.action}${id}`;
}

function walletTable(wallet: WalletChange): string[] {
  if (wallet.afterUnknown) {
    return [`The target allocation is computed from other resources and is known only at \`up\`.`];
  }
  const impact = wallet.money.impact;
  // An unfunded wallet's dollars are all $0.00: the line under the table says so once.
  if (impact === null || !impact.funded) {
    return [
      "| source | before bps | after bps | Δ bps |",
      "|---|--:|--:|--:|",
      ...wallet.rows.map(
        (row) =>
          `| ${cell(row.positionKey)} | ${bps(row.beforeBps)} | ${bps(row.afterBps)} | ${signedBps(row.deltaBps)} |`,
      ),
      `| **sum** | **${bps(wallet.sumBeforeBps)}** | **${bps(wallet.sumAfterBps)}** | |`,
    ];
  }
  // The dollars beside the basis points; a source the wallet holds outside its targets shows "—" bps.
  const rows = new Map(wallet.rows.map((row) => [row.positionKey, row]));
  const sources = new Map(printedSources(impact).map((source) => [source.positionKey, source]));
  const keys = [...new Set([...rows.keys(), ...sources.keys()])].sort();
  return [
    "| source | before bps | after bps | Δ bps | USD now | USD after | Δ USD |",
    "|---|--:|--:|--:|--:|--:|--:|",
    ...keys.map((key) => {
      const row = rows.get(key);
      const source = sources.get(key);
      const usd = (micros: bigint | undefined) => (micros === undefined ? "—" : formatDollars(micros));
      return (
        `| ${cell(key)} | ${bps(row?.beforeBps ?? null)} | ${bps(row?.afterBps ?? null)} | ` +
        `${row === undefined ? "" : signedBps(row.deltaBps)} | ${usd(source?.nowMicros)} | ${usd(source?.afterMicros)} | ` +
        `${source === undefined ? "" : formatDollars(source.deltaMicros, { signed: true })} |`
      );
    }),
    `| **sum** | **${bps(wallet.sumBeforeBps)}** | **${bps(wallet.sumAfterBps)}** | | ` +
      `**${formatDollars(impact.balanceMicros)}** | **${formatDollars(impact.balanceMicros)}** | |`,
  ];
}

/** What the wallet's change does in dollars, in one paragraph; or why the report cannot say. */
export function moneyLine(wallet: WalletChange): string {
  const impact: MoneyImpact | null = wallet.money.impact;
  if (impact === null) return `Dollars: not shown, ${wallet.money.reason}.`;
  return impactLine(impact);
}

/** A change's money impact in one paragraph: the report's per-wallet line, and what `approve` shows. */
export function impactLine(impact: MoneyImpact): string {
  const pending =
    impact.pendingMicros > 0n
      ? ` ${formatDollars(impact.pendingMicros)} received and not yet allocated goes to the new target when allocated (not counted as moved).`
      : "";
  const missing =
    impact.keysMissingFromCatalog.length > 0
      ? ` Not in the catalog, so without rate or liquidity: ${impact.keysMissingFromCatalog.join(", ")}.`
      : "";
  if (!impact.funded) return `The wallet holds no money: this change moves $0.00.${pending}${missing}`;
  const within = impact.withdrawable.map((row) => {
    const words = durationInWords(row.within);
    return `${words === "at once" ? "withdrawable at once" : words} ${dollarsBeforeAfter(row.nowMicros, row.afterMicros)}`;
  });
  const changed = printedSources(impact)
    .filter((source) => source.deltaMicros !== 0n)
    .map((source) => `${source.positionKey} ${formatDollars(source.deltaMicros, { signed: true })}`);
  return (
    [
      `Moves ${formatDollars(impact.movedMicros)} of ${formatDollars(impact.balanceMicros)}` +
        (changed.length === 0 ? "" : `: ${changed.join(", ")}`),
      `yearly yield ${dollarsBeforeAfter(impact.yearlyYield.nowMicros, impact.yearlyYield.afterMicros)}`,
      ...within,
      ...(impact.longestExit === null
        ? []
        : [`money leaving can take ${durationInWords(impact.longestExit, "up to")}`]),
    ].join(" · ") + `.${pending}${missing}`
  );
}

function walletFigures(wallet: WalletChange): string {
  return (
    `Blended rate ${beforeAfter(wallet.blendedRateBps.before, wallet.blendedRateBps.after, 1)} · ` +
    `withdrawable at once ${beforeAfter(wallet.instantShareBps.before, wallet.instantShareBps.after)}`
  );
}

/** The quote endpoint's better option beside the wallet: advice, never a failure. */
function betterQuoteLines(wallet: WalletChange): string[] {
  const option = wallet.betterQuote;
  if (option === null) return [];
  const weights = Object.entries(option.weights)
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([key, weight]) => `${key} ${weight}`)
    .join(", ");
  const liquidity = option.withdrawable
    .map((row) => `${durationInWords(row.within)} ${row.optionBps} bps (target ${row.targetBps})`)
    .join(", ");
  return [
    "",
    `💡 Advice: the quote endpoint offers **${weights}** at ${option.blendedRateBps.toFixed(1)} bps, ` +
      `withdrawable ${liquidity}: it earns at least as much as the new target at the same or better liquidity. ` +
      "Not a failure; nothing changes unless the code does.",
  ];
}

/**
 * Above the wallet's table: an allocation changed outside the stack (the table's before column is
 * then the service's), or the stack's own strategy update still waiting at the service.
 */
function allocationAtServiceLines(wallet: WalletChange): string[] {
  const check = wallet.atService;
  if (check === null || check.note === null) return [];
  return check.verdict === "changed outside"
    ? [`⚠️ **Changed outside the stack.** ${check.note} The before column is the service's.`, ""]
    : [`⏳ ${check.note}`, ""];
}

/** A resource that leaves the stack changes nothing at the service: the wallet keeps its allocation. */
function leavesTheStack(wallet: WalletChange): boolean {
  return wallet.op === "delete";
}

function detailedWallets(report: AllocationReport): string[] {
  return report.wallets.flatMap((wallet) =>
    leavesTheStack(wallet)
      ? [
          "",
          `#### ${walletTitle(wallet)}`,
          "",
          "No request changes its allocation: the wallet keeps it at the service.",
        ]
      : [
          "",
          `#### ${walletTitle(wallet)}`,
          "",
          ...allocationAtServiceLines(wallet),
          ...walletTable(wallet),
          "",
          walletFigures(wallet),
          "",
          moneyLine(wallet),
          ...betterQuoteLines(wallet),
        ],
  );
}

function compactRow(wallet: WalletChange): string {
  if (leavesTheStack(wallet))
    return `| ${cell(wallet.name)} | ${wallet.action} | keeps its allocation | | | |`;
  const moved = wallet.money.impact === null ? "—" : formatDollars(wallet.money.impact.movedMicros);
  const changes = wallet.afterUnknown
    ? "known at `up`"
    : wallet.rows
        .filter((row) => row.deltaBps !== 0 || wallet.op !== "update")
        .map((row) => `${row.positionKey} ${bps(row.beforeBps)}→${bps(row.afterBps)}`)
        .join(", ");
  return (
    `| ${cell(wallet.name)} | ${wallet.action} | ${cell(changes) || "—"} | ${moved} | ` +
    `${beforeAfter(wallet.blendedRateBps.before, wallet.blendedRateBps.after, 1)} | ` +
    `${beforeAfter(wallet.instantShareBps.before, wallet.instantShareBps.after)} |`
  );
}

function compactWallets(report: AllocationReport, rows: number): string[] {
  const shown = report.wallets.slice(0, rows);
  const left = report.wallets.length - shown.length;
  return [
    "",
    "| wallet | change | weights (bps, before→after) | moves | blended rate | withdrawable at once |",
    "|---|---|---|--:|---|---|",
    ...shown.map(compactRow),
    ...(left > 0
      ? [
          "",
          `… and ${left} more wallet${left === 1 ? "" : "s"}, left out to fit the comment; ` +
            "`portfolio-wallet report --format json` lists them all.",
        ]
      : []),
  ];
}

const counted = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;

/**
 * Under the dollar headline: how many wallets and positions are priced, which are not and why, when
 * the service's figures and the rates were read, and what the yearly yield assumes (said once).
 */
export function coverageLine(report: AllocationReport): string {
  const coverage = report.coverage;
  const priced =
    `${coverage.pricedWallets} of ${counted(coverage.wallets, "wallet")} priced` +
    (coverage.positions === 0
      ? ""
      : `, ${coverage.pricedPositions} of ${counted(coverage.positions, "position")} with a catalog rate`);
  // Wallets unpriced for the same reason are named together: "`ops`, `payroll` (no token was given)".
  const byReason = new Map<string, string[]>();
  for (const wallet of coverage.unpriced)
    byReason.set(wallet.reason, [...(byReason.get(wallet.reason) ?? []), `\`${cell(wallet.name)}\``]);
  const unpriced =
    byReason.size === 0
      ? ""
      : `; not priced: ${[...byReason].map(([reason, names]) => `${names.join(", ")} (${reason})`).join("; ")}`;
  const read =
    (coverage.figuresReadAt === null
      ? "The service's wallets were not read"
      : `Figures of the service's wallets read at ${coverage.figuresReadAt}`) +
    `; rates read at ${coverage.ratesReadAt}${coverage.ratesAsOf === null ? "" : ` (as of ${coverage.ratesAsOf})`}.`;
  return `${priced}${unpriced}. ${read} ${YEARLY_YIELD_ASSUMPTION}`;
}

const capitalized = (text: string) => `${text.charAt(0).toUpperCase()}${text.slice(1)}`;

function head(report: AllocationReport): string[] {
  const lines = [reportMarker(report), `### ${report.headline}`];
  // Under the thresholds the comment is posted only to replace an earlier one: this says why.
  if (!report.comment.post) lines.push("", `**Comment:** ${capitalized(report.comment.summary)}`);
  if (report.money.totals !== null || report.money.walletsWithoutDollars > 0)
    lines.push("", `**Dollars:** ${report.money.headline}`, "", `**Coverage:** ${coverageLine(report)}`);
  if (report.plan !== null) {
    lines.push(
      "",
      `**Plan:** \`sha256:${report.plan.sha256}\`. The merge job applies exactly this plan (\`pulumi up --plan\`); ` +
        "if the program, its config or another stack's outputs change what it would do, the plan is refused and the preview must run again.",
    );
  }
  if (report.warnings.length > 0) {
    lines.push("", "**Warnings**", "", ...report.warnings.map((warning) => `- ⚠️ ${warning.message}`));
  }
  if (report.approval !== null) lines.push("", `**Approval:** ${report.approval.note}`);
  return lines;
}

function details(report: AllocationReport): string[] {
  const others = report.otherChanges.map(
    (change) =>
      `- ${change.op}: ${cell(change.type.split(":").at(-1) ?? change.type)} \`${cell(change.name)}\``,
  );
  return [
    "",
    "<details><summary>Details</summary>",
    "",
    ...(others.length > 0 ? ["Other changes:", "", ...others, ""] : []),
    `- Unchanged resources: ${report.unchanged}.`,
    ...(report.comment.post ? [`- This comment was ${report.comment.summary}`] : []),
    `- Rates and liquidity limits from ${report.catalog.source}, read at ${report.catalog.readAt}` +
      `${report.catalog.ratesAsOf ? ` (rates as of ${report.catalog.ratesAsOf})` : ""}; ` +
      `${report.catalog.positionKeys} yield sources.`,
    "- Blended rate: Σ weight × current rate / 10000. Withdrawable at once: the weights of sources whose " +
      "catalog processing time is zero.",
    "- Dollars: USD now is each position's valueUsd at the service; USD after is the invested balance × target weight " +
      "/ 10000, split to the micro by largest remainder, and each column to the cent the same way, so that it adds up " +
      "to its total. Money received but not yet allocated is not counted as moved.",
    "",
    "</details>",
  ];
}

/** The report as markdown within `maxChars` characters. */
export function renderMarkdown(report: AllocationReport, maxChars = DEFAULT_MAX_CHARS): string {
  const text = (lines: string[]) => `${lines.join("\n")}\n`;
  const top = head(report);
  if (report.wallets.length === 0 && report.otherChanges.length === 0) {
    return text([
      ...top,
      "",
      "No allocation, wallet or webhook changes in this preview.",
      ...details(report),
    ]);
  }
  const candidates = [
    [...top, ...detailedWallets(report), ...details(report)],
    [...top, ...detailedWallets(report)],
    [...top, ...compactWallets(report, report.wallets.length), ...details(report)],
    [...top, ...compactWallets(report, report.wallets.length)],
  ];
  for (const lines of candidates) {
    const rendered = text(lines);
    if (rendered.length <= maxChars) return rendered;
  }
  // Only rows remain to cut: as many as fit, in the order of the preview.
  let low = 0;
  let high = report.wallets.length;
  while (low < high) {
    const middle = Math.ceil((low + high) / 2);
    if (text([...top, ...compactWallets(report, middle)]).length <= maxChars) low = middle;
    else high = middle - 1;
  }
  return text([...top, ...compactWallets(report, low)]);
}
