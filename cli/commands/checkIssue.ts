import { readFileSync, writeFileSync } from "node:fs";
import { Command } from "commander";
import { z } from "zod";
import { issueAction, type ExistingIssue, type IssueSubject } from "../drift/driftIssue.ts";
import { globalOptionsOf } from "../serviceSettings.ts";

const IssuesSchema = z.array(
  z.looseObject({
    number: z.number().int(),
    // `gh issue list --json state` writes OPEN and CLOSED; the REST API open and closed.
    state: z.string().transform((state) => (state.toLowerCase() === "open" ? "open" : "closed")),
    body: z
      .string()
      .nullish()
      .transform((body) => body ?? ""),
  }),
);

function readJson(file: string, what: string): unknown {
  try {
    return JSON.parse(readFileSync(file, "utf8"));
  } catch (error) {
    throw new Error(`${what} ${file}: ${(error as Error).message}`, { cause: error });
  }
}

/** What an issue command reads of its check's JSON. */
export interface CheckOutcome {
  found: boolean;
  checkedAt: string;
  /** The issue body: the check's markdown, starting with its marker line. */
  markdown: string;
}

/**
 * A scheduled check's issue command (`drift-issue`, `watch-issue`): from the check's JSON and the
 * repository's issues (`gh issue list --json number,state,body`), prints `key=value` lines for
 * $GITHUB_OUTPUT (action, number, numbers, title) and writes the issue body, or the closing
 * comment, to --body-file. One issue per stack and subject (drift/driftIssue.ts).
 */
export function checkIssueCommand(params: {
  name: string;
  description: string;
  subject: IssueSubject;
  /** `--drift <file>`: the flag of the check's JSON. */
  reportFlag: string;
  reportHelp: string;
  readReport: (json: unknown, file: string) => CheckOutcome;
}): Command {
  const flagName = /^--(\w+)/.exec(params.reportFlag)![1]!;
  return new Command(params.name)
    .description(params.description)
    .requiredOption(params.reportFlag, params.reportHelp)
    .requiredOption("--issues <file>", "the output of `gh issue list --state all --json number,state,body`")
    .requiredOption("--body-file <file>", "where to write the issue body or the closing comment")
    .action((flags: Record<string, string>, command: Command) => {
      // The stack the issue is about, as the workflow names it (`treasury/prod`): the global --stack.
      const stack = globalOptionsOf(command).stack;
      if (stack === undefined)
        throw new Error(`${params.name} needs --stack <name>: the stack the issue is about`);
      const file = flags[flagName]!;
      const outcome = params.readReport(readJson(file, `--${flagName}`), file);
      const issues = flags["issues"]!;
      const parsed = IssuesSchema.safeParse(readJson(issues, "--issues"));
      if (!parsed.success) {
        throw new Error(`--issues ${issues} is not a list of issues with number, state and body`);
      }
      const action = issueAction(params.subject, {
        stack,
        found: outcome.found,
        report: outcome.markdown,
        checkedAt: outcome.checkedAt,
        issues: parsed.data as ExistingIssue[],
      });
      const lines = [`action=${action.action}`];
      const bodyFile = flags["bodyFile"]!;
      if (action.action === "open") {
        lines.push(`title=${action.title}`);
        writeFileSync(bodyFile, action.body);
      } else if (action.action === "update" || action.action === "reopen") {
        lines.push(`number=${action.number}`);
        writeFileSync(bodyFile, action.body);
      } else if (action.action === "close") {
        lines.push(`numbers=${action.numbers.join(" ")}`);
        writeFileSync(bodyFile, `${action.comment}\n`);
      }
      process.stdout.write(`${lines.join("\n")}\n`);
    });
}
