import { driftMarker } from "./renderDrift.ts";

/**
 * What a scheduled drift check does to the repository's issues, decided once and purely (as the
 * pull-request report's sticky comment is keyed by its marker): one issue per stack, found again
 * by the marker line its body starts with, never by its title (people edit titles).
 *
 * - drift, no issue of the stack yet: open one;
 * - drift, an open issue: update its body with the new report;
 * - drift, only closed issues: reopen the newest and update it (drift came back; no second issue);
 * - no drift, an open issue: close it, saying the drift is gone;
 * - no drift, no open issue: nothing.
 *
 * Should several open issues carry the marker (made by hand), the oldest is kept up to date and
 * closed with the rest when the drift is gone: none is ever added.
 */

export interface ExistingIssue {
  number: number;
  state: "open" | "closed";
  body: string;
}

export type IssueAction =
  | { action: "open"; title: string; body: string }
  | { action: "update"; number: number; body: string }
  | { action: "reopen"; number: number; body: string }
  | { action: "close"; numbers: number[]; comment: string }
  | { action: "none" };

export function issueTitle(stack: string): string {
  return `Drift: ${stack}`;
}

/** The issues of one stack among the repository's (their body begins with its marker). */
function issuesOf(stack: string, issues: readonly ExistingIssue[]): ExistingIssue[] {
  const marker = driftMarker(stack);
  return issues
    .filter((issue) => issue.body.trimStart().startsWith(marker))
    .sort((a, b) => a.number - b.number);
}

/**
 * The one action for `stack`, given whether the check found drift, its markdown report (whose
 * first line is the marker) and every issue that may be the stack's.
 */
export function driftIssueAction(params: {
  stack: string;
  drift: boolean;
  report: string;
  checkedAt: string;
  issues: readonly ExistingIssue[];
}): IssueAction {
  const mine = issuesOf(params.stack, params.issues);
  const open = mine.filter((issue) => issue.state === "open");
  if (!params.drift) {
    return open.length === 0
      ? { action: "none" }
      : {
          action: "close",
          numbers: open.map((issue) => issue.number),
          comment: `No drift at ${params.checkedAt}: closing. The next check reopens this issue if drift comes back.`,
        };
  }
  // The report's own marker names the engine's stack (`prod`); the issue's names the workflow's.
  const report = params.report.replace(/^\s*<!-- portfolio-wallet-drift [^\n]*-->\n/, "");
  const body = `${driftMarker(params.stack)}\n${report}`;
  if (open[0] !== undefined) return { action: "update", number: open[0].number, body };
  const newestClosed = mine.at(-1);
  if (newestClosed !== undefined) return { action: "reopen", number: newestClosed.number, body };
  return { action: "open", title: issueTitle(params.stack), body };
}
