import { table } from "../output.ts";
import { centsByLargestRemainder, formatDollars } from "../../sdk/nodejs/contract/index.ts";
import { bps, signedBps } from "../report/format.ts";
import { cell } from "../report/renderMarkdown.ts";
import { RESOURCE_DESCRIPTORS, RESOURCE_KINDS } from "../../sdk/nodejs/resources/resourceTypes.ts";
import type { DriftReport, ResourceDrift } from "./driftReport.ts";
import { DRIFT_SUBJECT, type DriftSubject } from "./refreshSteps.ts";

/**
 * The drift report in the pull-request report's shape: a hidden marker, the headline, then per
 * resource what drifted, with a table per yield source for an allocation (code | service | Δ).
 * Markdown for an issue, plain text for a terminal.
 */

/** The hidden first line of the markdown: names the stack, so an issue can be found again. */
export function driftMarker(stack: string): string {
  return `<!-- portfolio-wallet-drift stack=${stack} -->`;
}

const MARKET_NOTE =
  "Market movement (balances, accrued yield, rates) is not drift and is not shown: read it with `portfolio-wallet wallets show`.";

/** What the id beside a resource's name is the id of, per subject of the drift check. */
const ID_NOUN: Record<DriftSubject, string> = { allocation: "wallet", webhook: "registration" };

function title(resource: ResourceDrift): string {
  const kind = RESOURCE_KINDS.find((candidate) => RESOURCE_DESCRIPTORS[candidate].type === resource.kind)!;
  const id = resource.id === null ? "" : ` (${ID_NOUN[DRIFT_SUBJECT[kind]]} ${resource.id})`;
  return `${resource.kind} \`${cell(resource.name)}\`${id}`;
}

/**
 * A source's dollars beside its basis points: at the code's weights, at the service, and the gap.
 * Each column is rounded to the cent by largest remainder, so that it adds up to the balance printed
 * under it, and the gap is the difference of the two printed.
 */
function dollarCells(resource: ResourceDrift, positionKey: string): string[] {
  if (resource.dollars?.available !== true) return [];
  const sources = resource.dollars.sources;
  const index = sources.findIndex((source) => source.positionKey === positionKey);
  if (index === -1) return ["$0.00", "$0.00", "$0.00"];
  const code = centsByLargestRemainder(sources.map((source) => BigInt(source.codeMicros)))[index] ?? 0n;
  const service = centsByLargestRemainder(sources.map((source) => BigInt(source.serviceMicros)))[index] ?? 0n;
  return [formatDollars(code), formatDollars(service), formatDollars(service - code, { signed: true })];
}

/**
 * In words: how much money sits where the code does not put it, or why the dollars are not shown.
 * Null when the resource has no allocation finding.
 */
function dollarLine(resource: ResourceDrift): string | null {
  // A report from before dollars were added (drift-issue reads saved JSON) has none.
  const money = resource.dollars ?? null;
  if (money === null) return null;
  if (!money.available) return `Dollars not shown: ${money.reason}.`;
  return (
    `${formatDollars(BigInt(money.misplacedMicros))} of the wallet's ${formatDollars(BigInt(money.balanceMicros))} sits where the code ` +
    "does not put it (the service's valueUsd per source against the balance at the code's weights): what a reviewed update after `pulumi refresh` moves back."
  );
}

function sourceTable(resource: ResourceDrift): string[] {
  if (resource.sources.length === 0) return [];
  const sum = (pick: (row: ResourceDrift["sources"][number]) => number | null) =>
    resource.sources.reduce((total, row) => total + (pick(row) ?? 0), 0);
  const money = resource.dollars?.available === true ? resource.dollars : null;
  const withDollars = money !== null;
  const balance = money === null ? "" : formatDollars(BigInt(money.balanceMicros));
  return [
    "",
    `| source | code bps | service bps | Δ bps |${withDollars ? " code USD | service USD | Δ USD |" : ""}`,
    `|---|--:|--:|--:|${withDollars ? "--:|--:|--:|" : ""}`,
    ...resource.sources.map((row) =>
      [
        "",
        cell(row.positionKey),
        bps(row.codeBps),
        bps(row.serviceBps),
        signedBps(row.deltaBps),
        ...dollarCells(resource, row.positionKey),
        "",
      ]
        .join(" | ")
        .trim(),
    ),
    `| **sum** | **${sum((row) => row.codeBps)}** | **${sum((row) => row.serviceBps)}** | |${withDollars ? ` **${balance}** | **${balance}** | |` : ""}`,
  ];
}

function approvalLines(report: DriftReport): string[] {
  return report.awaitingApproval.map(
    (entry) =>
      `- \`${cell(entry.name)}\`: the code's strategy update is ${entry.status}` +
      `${entry.signingActivityId ? ` (signing activity ${entry.signingActivityId})` : ""}; ` +
      "the wallet keeps its previous allocation until it is approved. Not drift.",
  );
}

export function renderDriftMarkdown(report: DriftReport): string {
  const lines = [driftMarker(report.stack ?? "-"), `### ${report.headline}`];
  if ((report.misplacedMicros ?? null) !== null)
    lines.push("", `**Dollars:** ${misplacedSummary(report.misplacedMicros!)}`);
  for (const resource of report.resources) {
    lines.push("", `#### ${title(resource)}`, "");
    lines.push(...resource.findings.map((finding) => `- ⚠️ ${finding.message}`));
    const money = dollarLine(resource);
    if (money !== null) lines.push(`- 💵 ${money}`);
    lines.push(...sourceTable(resource));
  }
  if (report.awaitingApproval.length > 0)
    lines.push("", "**Awaiting approval**", "", ...approvalLines(report));
  lines.push(
    "",
    "<details><summary>Details</summary>",
    "",
    `- Checked at ${report.checkedAt} with \`pulumi refresh --preview-only\` (nothing was written to the state or the service).`,
    `- Resources without drift: ${report.inSync}.`,
    `- ${MARKET_NOTE}`,
    "",
    "</details>",
  );
  return `${lines.join("\n")}\n`;
}

function misplacedSummary(micros: string): string {
  return `${formatDollars(BigInt(micros))} sits where the code does not put it, at the service's own figures.`;
}

export function renderDriftText(report: DriftReport): string {
  const lines = [report.headline];
  if ((report.misplacedMicros ?? null) !== null) lines.push(misplacedSummary(report.misplacedMicros!));
  if (report.resources.length > 0) {
    lines.push(
      "",
      table(
        report.resources.flatMap((resource) => resource.findings.map((finding) => ({ resource, finding }))),
        [
          { title: "resource", value: ({ resource }) => `${resource.kind} ${resource.name}` },
          { title: "id", value: ({ resource }) => resource.id },
          { title: "drift", value: ({ finding }) => finding.kind },
        ],
      ),
    );
    for (const resource of report.resources) {
      lines.push("", `${resource.kind} ${resource.name}:`, ...resource.findings.map((f) => `  ${f.message}`));
      const money = dollarLine(resource);
      if (money !== null) lines.push(`  ${money}`);
      if (resource.sources.length > 0) {
        const usd = (index: number) => (row: ResourceDrift["sources"][number]) =>
          dollarCells(resource, row.positionKey)[index] ?? "";
        lines.push(
          "",
          table(resource.sources, [
            { title: "source", value: (row) => row.positionKey },
            { title: "code bps", value: (row) => bps(row.codeBps), right: true },
            { title: "service bps", value: (row) => bps(row.serviceBps), right: true },
            { title: "Δ bps", value: (row) => signedBps(row.deltaBps), right: true },
            ...(resource.dollars?.available === true
              ? [
                  { title: "code USD", value: usd(0), right: true },
                  { title: "service USD", value: usd(1), right: true },
                  { title: "Δ USD", value: usd(2), right: true },
                ]
              : []),
          ]),
        );
      }
    }
  }
  if (report.awaitingApproval.length > 0) {
    lines.push(
      "",
      "Awaiting approval (not drift):",
      ...approvalLines(report).map((line) => `  ${line.slice(2)}`),
    );
  }
  lines.push("", `Resources without drift: ${report.inSync}. ${MARKET_NOTE}`);
  return `${lines.join("\n")}\n`;
}
