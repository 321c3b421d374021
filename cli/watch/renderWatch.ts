import type { WatchReport } from "./marketWatch.ts";

/** The stack's watch issue is found by this line, as the drift issue by its own. */
export const watchMarker = (stack: string) => `<!-- portfolio-wallet-watch stack=${stack} -->`;

/** The watch as text (markdown with `markdown`): the headline, then each wallet's findings and notes. */
export function renderWatch(report: WatchReport, markdown: boolean): string {
  const lines: string[] = [];
  if (markdown && report.stack !== null) lines.push(watchMarker(report.stack), "");
  lines.push(markdown ? `### ${report.headline}` : report.headline);
  lines.push(
    "",
    `Market movement, not drift: nothing here was changed by anyone, and \`pulumi up\` changes none of it. ` +
      `From the service's own figures at ${report.checkedAt}; bands: drift ±${report.bands.driftBps} bps, ` +
      `rate drop ${report.bands.rateDropBps} bps.`,
  );
  for (const wallet of report.wallets) {
    if (wallet.findings.length === 0 && wallet.notes.length === 0) continue;
    lines.push("");
    lines.push(
      markdown
        ? `#### ${wallet.kind} \`${wallet.name}\` (wallet ${wallet.walletId})`
        : `${wallet.kind} ${wallet.name} (wallet ${wallet.walletId})`,
    );
    for (const finding of wallet.findings)
      lines.push(`- ${markdown ? "⚠️ " : ""}${finding.kind}: ${finding.message}`);
    for (const note of wallet.notes) lines.push(`- ${markdown ? "ℹ️ " : ""}${note}`);
  }
  return `${lines.join("\n")}\n`;
}
