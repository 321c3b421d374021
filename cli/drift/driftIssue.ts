import { watchMarker } from "../watch/renderWatch.ts";
import { driftMarker } from "./renderDrift.ts";

/**
 * What a scheduled check (drift, the market watch) does to the repository's issues, decided once
 * and purely (as the pull-request report's sticky comment is keyed by its marker): one issue per
 * stack and check, found again by the marker line its body starts with, never by its title (people
 * edit titles).
 *
 * - found, no issue of the stack yet: open one;
 * - found, an open issue: update its body with the new report;
 * - found, only closed issues: reopen the newest and update it (it came back; no second issue);
 * - nothing found, an open issue: close it, saying it is gone;
 * - nothing found, no open issue: nothing.
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

/**
 * What a kind of scheduled check keeps one issue per stack of: config drift, or the market
 * watch. Each has its own marker, so a stack has one issue of each, decided by the same rule.
 */
export interface IssueSubject {
  marker(stack: string): string;
  title(stack: string): string;
  /** The marker line the report itself starts with (it names the engine's stack). */
  reportMarker: RegExp;
  /** The closing comment when the check finds nothing. */
  closing(checkedAt: string): string;
}

export const DRIFT_ISSUE: IssueSubject = {
  marker: driftMarker,
  title: issueTitle,
  reportMarker: /^\s*<!-- portfolio-wallet-drift [^\n]*-->\n/,
  closing: (checkedAt) =>
    `No drift at ${checkedAt}: closing. The next check reopens this issue if drift comes back.`,
};

export const WATCH_ISSUE: IssueSubject = {
  marker: watchMarker,
  title: (stack) => `Market watch: ${stack}`,
  reportMarker: /^\s*<!-- portfolio-wallet-watch [^\n]*-->\n/,
  closing: (checkedAt) =>
    `Every wallet within its bands at ${checkedAt}: closing. The next check reopens this issue if a band is left again.`,
};

/** The issues of one stack among the repository's (their body begins with its marker). */
function issuesOf(subject: IssueSubject, stack: string, issues: readonly ExistingIssue[]): ExistingIssue[] {
  const marker = subject.marker(stack);
  return issues
    .filter((issue) => issue.body.trimStart().startsWith(marker))
    .sort((a, b) => a.number - b.number);
}

/**
 * The one action for `stack`, given whether the check found something, its markdown report (whose
 * first line is the marker) and every issue that may be the stack's.
 */
export function issueAction(
  subject: IssueSubject,
  params: {
    stack: string;
    found: boolean;
    report: string;
    checkedAt: string;
    issues: readonly ExistingIssue[];
  },
): IssueAction {
  const mine = issuesOf(subject, params.stack, params.issues);
  const open = mine.filter((issue) => issue.state === "open");
  if (!params.found) {
    return open.length === 0
      ? { action: "none" }
      : {
          action: "close",
          numbers: open.map((issue) => issue.number),
          comment: subject.closing(params.checkedAt),
        };
  }
  // The report's own marker names the engine's stack (`prod`); the issue's names the workflow's.
  const report = params.report.replace(subject.reportMarker, "");
  const body = `${subject.marker(params.stack)}\n${report}`;
  if (open[0] !== undefined) return { action: "update", number: open[0].number, body };
  const newestClosed = mine.at(-1);
  if (newestClosed !== undefined) return { action: "reopen", number: newestClosed.number, body };
  return { action: "open", title: subject.title(params.stack), body };
}

/** The drift issue's action (`issueAction` of DRIFT_ISSUE). */
export function driftIssueAction(params: {
  stack: string;
  drift: boolean;
  report: string;
  checkedAt: string;
  issues: readonly ExistingIssue[];
}): IssueAction {
  const { drift, ...rest } = params;
  return issueAction(DRIFT_ISSUE, { ...rest, found: drift });
}
