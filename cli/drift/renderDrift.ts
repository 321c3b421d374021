import { table } from "../output.ts";
import { bps, signedBps } from "../report/format.ts";
import { cell } from "../report/renderMarkdown.ts";
import type { DriftReport, ResourceDrift } from "./driftReport.ts";

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

function title(resource: ResourceDrift): string {
  const id =
    resource.id === null
      ? ""
      : ` (${resource.kind === "WebhookRegistration" ? "registration" : "wallet"} ${resource.id})`;
  return `${resource.kind} \`${cell(resource.name)}\`${id}`;
}

function sourceTable(resource: ResourceDrift): string[] {
  if (resource.sources.length === 0) return [];
  const sum = (pick: (row: ResourceDrift["sources"][number]) => number | null) =>
    resource.sources.reduce((total, row) => total + (pick(row) ?? 0), 0);
  return [
    "",
    "| source | code bps | service bps | Δ bps |",
    "|---|--:|--:|--:|",
    ...resource.sources.map(
      (row) =>
        `| ${cell(row.positionKey)} | ${bps(row.codeBps)} | ${bps(row.serviceBps)} | ${signedBps(row.deltaBps)} |`,
    ),
    `| **sum** | **${sum((row) => row.codeBps)}** | **${sum((row) => row.serviceBps)}** | |`,
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
  for (const resource of report.resources) {
    lines.push("", `#### ${title(resource)}`, "");
    lines.push(...resource.findings.map((finding) => `- ⚠️ ${finding.message}`));
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

export function renderDriftText(report: DriftReport): string {
  const lines = [report.headline];
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
      if (resource.sources.length > 0) {
        lines.push(
          "",
          table(resource.sources, [
            { title: "source", value: (row) => row.positionKey },
            { title: "code bps", value: (row) => bps(row.codeBps), right: true },
            { title: "service bps", value: (row) => bps(row.serviceBps), right: true },
            { title: "Δ bps", value: (row) => signedBps(row.deltaBps), right: true },
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
