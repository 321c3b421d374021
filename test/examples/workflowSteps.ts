import { execFileSync, spawn } from "node:child_process";
import { chmodSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { repoRoot } from "../../scripts/pulumiEnv.ts";

/**
 * The steps of examples/github-actions/workflows as GitHub runs them, for the tests that run them
 * word for word (test/examples/upPlanSteps.engine.test.ts, test/examples/wayBackSteps.test.ts): a step's
 * `run: |` block, its `env:` and `if:` (the expressions the workflows use, evaluated as GitHub
 * does), and a job's steps in order as bash -eo pipefail with $GITHUB_OUTPUT and
 * $GITHUB_STEP_SUMMARY. The workflows are read as text, line by line: they are written in one
 * regular layout (jobs at two spaces, steps at six), and a step these helpers cannot find fails
 * the test that asks for it.
 */

export const workflowsDir = path.join(repoRoot, "examples", "github-actions", "workflows");

export function readWorkflow(file: "drift.yml" | "preview.yml" | "up.yml" | "watch.yml"): string {
  return readFileSync(path.join(workflowsDir, file), "utf8");
}

const indentOf = (line: string) => /^ */.exec(line)![0].length;
const isBlankOrComment = (line: string) => line.trim() === "" || line.trim().startsWith("#");

/** The lines of the step named `name`: its `- name:` line and every line under it. */
function stepLines(name: string, text: string): string[] {
  const lines = text.split("\n");
  const start = lines.findIndex((line) => line.trim() === `- name: ${name}`);
  if (start < 0) throw new Error(`the workflow has no step named ${name}`);
  const indent = indentOf(lines[start]!);
  const end = lines.findIndex(
    (line, index) => index > start && !isBlankOrComment(line) && indentOf(line) <= indent,
  );
  return lines.slice(start, end < 0 ? lines.length : end);
}

/** The lines of job `job` under `jobs:` (two spaces in). */
function jobLines(job: string, text: string): string[] {
  const lines = text.split("\n");
  const start = lines.findIndex((line) => line === `  ${job}:`);
  if (start < 0) throw new Error(`the workflow has no job ${job}`);
  const end = lines.findIndex(
    (line, index) => index > start && !isBlankOrComment(line) && indentOf(line) <= 2,
  );
  return lines.slice(start, end < 0 ? lines.length : end);
}

/** The one-line entries of the mapping `key:` at `indent` in `lines` (quotes taken off). */
function mappingAt(lines: string[], key: string, indent: number): Record<string, string> {
  const start = lines.findIndex((line) => line === `${" ".repeat(indent)}${key}:`);
  const entries: Record<string, string> = {};
  if (start < 0) return entries;
  for (const line of lines.slice(start + 1)) {
    if (isBlankOrComment(line)) continue;
    if (indentOf(line) <= indent) break;
    const match = /^\s+([A-Za-z_][\w-]*): (.*)$/.exec(line);
    if (match && indentOf(line) === indent + 2) entries[match[1]!] = match[2]!.replace(/^"(.*)"$/, "$1");
  }
  return entries;
}

/** A one-line key of a step or a job (`if`, `id`, `continue-on-error`), or undefined. */
function keyAt(lines: string[], key: string, indent: number): string | undefined {
  const prefix = `${" ".repeat(indent)}${key}: `;
  return lines.find((line) => line.startsWith(prefix))?.slice(prefix.length);
}

/** The `run: |` block of the step named `name`, dedented. */
export function runBlock(name: string, text: string): string {
  const lines = stepLines(name, text);
  const runLine = lines.findIndex((line) => line.trim() === "run: |");
  if (runLine < 0) throw new Error(`the step ${name} has no run: | block`);
  const indent = indentOf(lines[runLine]!) + 2;
  const body: string[] = [];
  for (const line of lines.slice(runLine + 1)) {
    if (line.trim() !== "" && indentOf(line) < indent) break;
    body.push(line.slice(indent));
  }
  return `${body.join("\n").trimEnd()}\n`;
}

/** The literal values of the step's `env:` (expressions like `${{ matrix.stack }}` are the test's to give). */
export function literalEnv(name: string, text: string): Record<string, string> {
  const lines = text.split("\n");
  const start = lines.findIndex((line) => line.trim() === `- name: ${name}`);
  const end = lines.findIndex((line, index) => index > start && line.trim() === "run: |");
  const env: Record<string, string> = {};
  for (const line of lines.slice(start + 1, end)) {
    const match = /^\s+([A-Z_]+): "?([^"$]*)"?$/.exec(line);
    if (match) env[match[1]!] = match[2]!;
  }
  return env;
}

/** A `uses:` step's `if:` and `with:` (one-line values), as GitHub reads them. */
export function usesStep(name: string, text: string): { if: string; with: Record<string, string> } {
  const lines = stepLines(name, text);
  const indent = indentOf(lines[0]!);
  return {
    if: keyAt(lines, "if", indent + 2) ?? "success()",
    with: mappingAt(lines, "with", indent + 2),
  };
}

/** A step's `if:` (GitHub's default, `success()`, when it has none). */
export function stepCondition(name: string, text: string): string {
  const lines = stepLines(name, text);
  return keyAt(lines, "if", indentOf(lines[0]!) + 2) ?? "success()";
}

/** A step's `id:`, which its outputs are read by. */
export function stepId(name: string, text: string): string {
  const lines = stepLines(name, text);
  const id = keyAt(lines, "id", indentOf(lines[0]!) + 2);
  if (id === undefined) throw new Error(`the step ${name} has no id`);
  return id;
}

/** A job's `if:` (`success()` when it has none). */
export function jobCondition(job: string, text: string): string {
  return keyAt(jobLines(job, text), "if", 4) ?? "success()";
}

export interface StepResult {
  outcome: string;
  outputs: Record<string, string>;
}

/**
 * What an expression reads: `steps.<id>` (outcome and outputs), and the other contexts the
 * workflows use (`inputs`, `matrix`, `github`, `secrets`), as nested records. A name it does not
 * hold reads as '' (GitHub's null, which compares equal to '').
 */
export interface ExpressionContext {
  steps?: Record<string, StepResult>;
  [context: string]: unknown;
}

type Value = string | boolean;
const truthy = (value: Value) => value !== false && value !== "";

/**
 * An expression as GitHub evaluates the forms the workflows use: context names
 * (`steps.<id>.outputs.<name>`, `inputs.way_back`, `secrets.X`, ...), string literals, `==`, `!=`,
 * `&&` and `||` (`&&` binding tighter; each gives an operand's value, as GitHub's do). Anything
 * else (parentheses, functions) throws: the test cannot vouch for it.
 */
export function evaluateExpression(expression: string, context: ExpressionContext): Value {
  const value = (term: string): Value => {
    const literal = /^'(.*)'$/.exec(term);
    if (literal) return literal[1]!;
    if (term === "true" || term === "false") return term === "true";
    if (!/^[A-Za-z_][\w-]*(\.[A-Za-z_][\w-]*)*$/.test(term))
      throw new Error(`the test cannot evaluate ${term} in ${expression}`);
    let found: unknown = context;
    for (const part of term.split(".")) {
      found =
        found !== null && typeof found === "object" ? (found as Record<string, unknown>)[part] : undefined;
    }
    if (typeof found === "boolean") return found;
    return found === undefined || found === null ? "" : String(found);
  };
  const comparison = (text: string): Value => {
    const match = /^(.+?)\s*(==|!=)\s*(.+)$/.exec(text.trim());
    if (!match) return value(text.trim());
    const equal = String(value(match[1]!.trim())) === String(value(match[3]!.trim()));
    return match[2] === "==" ? equal : !equal;
  };
  const all = (text: string): Value => {
    let last: Value = true;
    for (const part of text.split("&&")) {
      last = comparison(part);
      if (!truthy(last)) return last;
    }
    return last;
  };
  let last: Value = false;
  for (const either of expression.split("||")) {
    last = all(either);
    if (truthy(last)) return last;
  }
  return last;
}

/**
 * A step's `if:` as GitHub evaluates it: `steps.<id>.outcome`, `steps.<id>.outputs.<name>`, the
 * other contexts `context` holds, string literals, `==`, `!=`, `&&` and `||`.
 */
export function evaluateCondition(
  condition: string,
  steps: Record<string, StepResult>,
  context: ExpressionContext = {},
): boolean {
  return truthy(evaluateExpression(condition, { ...context, steps }));
}

/** A value with `${{ }}` expressions in it, as GitHub substitutes them (true and false as words). */
export function substitute(text: string, context: ExpressionContext): string {
  return text.replaceAll(/\$\{\{\s*(.*?)\s*\}\}/g, (_, expression: string) =>
    String(evaluateExpression(expression, context)),
  );
}

/** The step's `env:`, its expressions evaluated in `context`. */
export function stepEnv(name: string, text: string, context: ExpressionContext): Record<string, string> {
  const lines = stepLines(name, text);
  const entries = mappingAt(lines, "env", indentOf(lines[0]!) + 2);
  return Object.fromEntries(Object.entries(entries).map(([key, value]) => [key, substitute(value, context)]));
}

/** The job's `env:`, its expressions evaluated in `context`. */
export function jobEnv(job: string, text: string, context: ExpressionContext): Record<string, string> {
  const entries = mappingAt(jobLines(job, text), "env", 4);
  return Object.fromEntries(Object.entries(entries).map(([key, value]) => [key, substitute(value, context)]));
}

/** A job's `strategy.matrix.stack` (`[a, b]`), or a `workflow_dispatch` input's `options`. */
export function listAfter(text: string, key: string, within: string): string[] {
  const lines = text.split("\n");
  const start = lines.findIndex((line) => line.trim() === within);
  if (start < 0) throw new Error(`the workflow has no ${within}`);
  const line = lines.slice(start).find((candidate) => candidate.trim().startsWith(`${key}: [`));
  if (line === undefined) throw new Error(`no ${key} under ${within}`);
  return /\[(.*)\]/
    .exec(line)![1]!
    .split(",")
    .map((item) => item.trim());
}

/** `name=value` lines of a $GITHUB_OUTPUT file. */
export function readOutputs(file: string): Record<string, string> {
  return Object.fromEntries(
    readFileSync(file, "utf8")
      .split("\n")
      .filter((line) => line.includes("="))
      .map((line) => [line.slice(0, line.indexOf("=")), line.slice(line.indexOf("=") + 1)]),
  );
}

/**
 * A step's shell, with no stdin (as on a runner; and a shell that exits before its stdin is
 * written would fail the write), asynchronous so that a sandbox in this process keeps answering.
 */
function runShell(
  script: string,
  cwd: string,
  env: NodeJS.ProcessEnv,
): Promise<{ code: number | null; output: string }> {
  const child = spawn("bash", ["--noprofile", "--norc", "-eo", "pipefail", script], {
    cwd,
    env,
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  child.stdout.on("data", (chunk: Buffer) => (output += chunk.toString()));
  child.stderr.on("data", (chunk: Buffer) => (output += chunk.toString()));
  return new Promise((resolve, reject) => {
    child.once("error", reject);
    child.once("close", (code) => resolve({ code, output }));
  });
}

export interface RanStep extends StepResult {
  code: number | null;
  output: string;
  summary: string;
}

export interface JobSteps {
  /** By step name: skipped steps have outcome `skipped` and no code. */
  steps: Record<string, RanStep>;
  /** What the steps wrote to $GITHUB_STEP_SUMMARY, in order. */
  summary: string;
  /** Whether every step that ran succeeded (or may fail: continue-on-error). */
  ok: boolean;
}

/**
 * The named `run: |` steps of `job`, in the given order, as the runner runs them: each step's
 * `if:` (after `success()`: it runs only while no earlier step failed, unless its `if:` says
 * otherwise, which these tests do not use), the job's and the step's `env:` evaluated in
 * `context`, the block's own `${{ }}` substituted as GitHub does, then
 * `bash --noprofile --norc -eo pipefail` in `cwd` with `env` (PATH, the runner's
 * variables), a fresh $GITHUB_OUTPUT and $GITHUB_STEP_SUMMARY in `scratch`. Steps' outputs and
 * outcomes reach later steps' expressions. `script` may change a block's text (the tests' one
 * change: the policy pack's offline manifest).
 */
export async function runJobSteps(options: {
  text: string;
  job: string;
  names: string[];
  cwd: string;
  env: NodeJS.ProcessEnv;
  context: ExpressionContext;
  scratch: string;
  script?: (block: string) => string;
}): Promise<JobSteps> {
  const { text, job, names, cwd, scratch } = options;
  const steps: Record<string, StepResult> = { ...options.context.steps };
  const ran: Record<string, RanStep> = {};
  let ok = true;
  let summary = "";
  mkdirSync(scratch, { recursive: true });
  for (const [index, name] of names.entries()) {
    const lines = stepLines(name, text);
    const indent = indentOf(lines[0]!) + 2;
    const id = keyAt(lines, "id", indent) ?? `__step${index}`;
    const condition = stepCondition(name, text);
    if (/\b(failure|always|cancelled)\(\)/.test(condition))
      throw new Error(`the test does not run steps of ${condition}`);
    const context = { ...options.context, steps };
    const runs =
      ok &&
      (condition === "success()" ||
        evaluateCondition(condition.replace(/^success\(\) && /, ""), steps, context));
    if (!runs) {
      steps[id] = { outcome: "skipped", outputs: {} };
      ran[name] = { ...steps[id]!, code: null, output: "", summary: "" };
      continue;
    }
    const script = path.join(scratch, "step.sh");
    const outputFile = path.join(scratch, "github-output");
    const summaryFile = path.join(scratch, "step-summary");
    // GitHub substitutes expressions in a run: block before the shell reads it.
    writeFileSync(script, (options.script ?? ((block) => block))(substitute(runBlock(name, text), context)));
    writeFileSync(outputFile, "");
    writeFileSync(summaryFile, "");
    const run = await runShell(script, cwd, {
      ...options.env,
      ...jobEnv(job, text, context),
      ...stepEnv(name, text, context),
      GITHUB_OUTPUT: outputFile,
      GITHUB_STEP_SUMMARY: summaryFile,
    });
    const outcome = run.code === 0 ? "success" : "failure";
    steps[id] = { outcome, outputs: readOutputs(outputFile) };
    const stepSummary = readFileSync(summaryFile, "utf8");
    summary += stepSummary;
    ran[name] = { ...steps[id]!, code: run.code, output: run.output, summary: stepSummary };
    if (outcome === "failure" && keyAt(lines, "continue-on-error", indent) !== "true") ok = false;
  }
  return { steps: ran, summary, ok };
}

/**
 * A stand-in for `gh` on PATH that answers the calls the workflows make, with `jq` for their
 * `--jq` filters, and records each call in $FAKE_LOG:
 * - `gh api repos/.../commits/<sha>/pulls`: $FAKE_PULLS (the API's JSON answer) through the filter;
 * - `gh run list`: $FAKE_RUN_ID; `gh run download --name N --dir D`: the files of $FAKE_ARTIFACT_DIR
 *   into D when N is $FAKE_ARTIFACT, else an error;
 * - `gh pr list|create|edit`: the pull requests of $FAKE_PULL_REQUESTS (a JSON array of
 *   `{number, head, base, title, body, state}`); `create` refuses a second open pull request of a
 *   head, as GitHub does;
 * - `gh issue list|create|edit|reopen|close` and `gh label create`: the issues of $FAKE_ISSUES (a
 *   JSON array of `{number, state, title, body, comments}`), listed as `gh issue list --json
 *   number,state,body` writes them (states in capitals).
 */
export function writeFakeGh(bin: string): void {
  mkdirSync(bin, { recursive: true });
  writeFileSync(
    path.join(bin, "gh"),
    `#!/bin/bash
echo "gh $*" >> "$FAKE_LOG"
flag() {
  local name="$1"; shift
  while [ $# -gt 0 ]; do
    if [ "$1" = "$name" ]; then printf '%s' "$2"; return 0; fi
    shift
  done
  return 1
}
filter() {
  local expression
  if expression="$(flag --jq "$@")"; then jq -r "$expression"; else cat; fi
}
prs="$FAKE_PULL_REQUESTS"
update() { jq "$@" "$prs" > "$prs.new" && mv "$prs.new" "$prs"; }
issues() { jq "$@" "$FAKE_ISSUES" > "$FAKE_ISSUES.new" && mv "$FAKE_ISSUES.new" "$FAKE_ISSUES"; }
case "$1 $2" in
  "api repos/"*) printf '%s' "\${FAKE_PULLS:-[]}" | filter "$@" ;;
  "run list") printf '%s\\n' "$FAKE_RUN_ID" ;;
  "run download")
    name="$(flag --name "$@")"; dir="$(flag --dir "$@" || echo .)"
    [ "$name" = "$FAKE_ARTIFACT" ] || { echo "no artifact $name" >&2; exit 1; }
    cp -r "$FAKE_ARTIFACT_DIR"/. "$dir"/ ;;
  "pr list")
    jq --arg head "$(flag --head "$@")" --arg state "$(flag --state "$@")" \\
      '[.[] | select(.head == $head and .state == $state) | {number}]' "$prs" | filter "$@" ;;
  "pr create")
    head="$(flag --head "$@")"
    if [ "$(jq --arg head "$head" '[.[] | select(.head == $head and .state == "open")] | length' "$prs")" != 0 ]; then
      echo "a pull request for branch \\"$head\\" already exists" >&2; exit 1
    fi
    number=$(( $(jq length "$prs") + 1 ))
    update --argjson number "$number" --arg head "$head" --arg base "$(flag --base "$@")" \\
      --arg title "$(flag --title "$@")" --rawfile body "$(flag --body-file "$@")" \\
      '. + [{number: $number, head: $head, base: $base, title: $title, body: $body, state: "open"}]'
    echo "https://github.com/$(flag --repo "$@")/pull/$number" ;;
  "pr edit")
    update --argjson number "$3" --arg title "$(flag --title "$@")" --rawfile body "$(flag --body-file "$@")" \\
      'map(if .number == $number then .title = $title | .body = $body else . end)'
    echo "https://github.com/$(flag --repo "$@")/pull/$3" ;;
  "label create") ;;
  "issue list") jq '[.[] | {number, state: (.state | ascii_upcase), body}]' "$FAKE_ISSUES" ;;
  "issue create")
    number=$(( $(jq length "$FAKE_ISSUES") + 1 ))
    issues --argjson number "$number" --arg title "$(flag --title "$@")" --rawfile body "$(flag --body-file "$@")" \\
      '. + [{number: $number, state: "open", title: $title, body: $body, comments: []}]' ;;
  "issue edit") issues --argjson number "$3" --rawfile body "$(flag --body-file "$@")" 'map(if .number == $number then .body = $body else . end)' ;;
  "issue reopen") issues --argjson number "$3" 'map(if .number == $number then .state = "open" else . end)' ;;
  "issue close")
    issues --argjson number "$3" --arg comment "$(flag --comment "$@")" \\
      'map(if .number == $number then .state = "closed" | .comments += [$comment] else . end)' ;;
  *) echo "the fake gh does not answer: $*" >&2; exit 2 ;;
esac
`,
  );
  chmodSync(path.join(bin, "gh"), 0o755);
}

/** The API's answer to `commits/<sha>/pulls` for a commit merged from `ref` at `sha`. */
export const mergedPull = (sha: string, ref: string) =>
  JSON.stringify([{ number: 7, merged_at: "2026-12-01T10:00:00Z", head: { sha, ref } }]);

/** git in `cwd` as a test's user (name and email given per call: no config of the account's is read or written). */
export const git = (cwd: string, ...args: string[]) =>
  execFileSync("git", ["-c", "user.name=t", "-c", "user.email=t@example.com", ...args], {
    cwd,
    encoding: "utf8",
  }).trim();
