import { execFileSync, spawnSync } from "node:child_process";
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, test } from "vitest";
import { repoRoot } from "../../scripts/pulumiEnv.ts";

/** examples/github-actions: the workflows pass actionlint and use the package's own tools. */

const workflowsDir = path.join(repoRoot, "examples", "github-actions", "workflows");
const workflows = readdirSync(workflowsDir).filter((file) => file.endsWith(".yml"));

describe("examples/github-actions", () => {
  test("every workflow passes actionlint", () => {
    const actionlint = execFileSync("bash", [path.join(repoRoot, "scripts", "ensure-actionlint.sh")], {
      encoding: "utf8",
      stdio: ["ignore", "pipe", "inherit"],
    }).trim();
    expect(workflows.sort()).toEqual(["drift.yml", "preview.yml", "up.yml", "watch.yml"]);
    const result = spawnSync(
      actionlint,
      workflows.map((file) => path.join(workflowsDir, file)),
      { encoding: "utf8" },
    );
    expect(result.stdout + result.stderr).toBe("");
    expect(result.status).toBe(0);
  });

  test("the preview posts the report as one sticky comment per stack, and the report can be generated", () => {
    const preview = readFileSync(path.join(workflowsDir, "preview.yml"), "utf8");
    expect(preview).toMatch(/marocchino\/sticky-pull-request-comment@v2/);
    expect(preview).toMatch(/header: portfolio-wallet \$\{\{ matrix\.stack \}\}/);
    expect(preview).toMatch(/npx portfolio-wallet report --stack "\$STACK" --preview preview\.json/);
    expect(preview).toMatch(/cancel-in-progress: true/);
  });

  test("the preview saves the plan it reports on, and keeps it as an artifact of the reviewed commit", () => {
    const preview = readFileSync(path.join(workflowsDir, "preview.yml"), "utf8");
    expect(preview).toMatch(/pulumi preview [^\n]*--json --save-plan plan\.json/);
    expect(preview).toMatch(
      /npx portfolio-wallet report --stack "\$STACK" --preview preview\.json --plan plan\.json/,
    );
    expect(preview).toMatch(/actions\/upload-artifact@v4/);
    expect(preview).toMatch(/pulumi-plan-\$\{STACK\/\/\\\/\/-\}-\$COMMIT/);
    // The report's JSON, from the same run as the comment, kept with the plan for the merge check.
    expect(preview).toMatch(/--output report\.md --json-output report\.json/);
    expect(preview).toMatch(/path: \|\n\s+infra\/plan\.json\n\s+infra\/report\.json\n/);
    expect(preview.indexOf("name: Allocation report")).toBeLessThan(
      preview.indexOf("actions/upload-artifact@v4"),
    );
  });

  test("the merge job applies the reviewed plan, and says to re-run the preview when it cannot", () => {
    const up = readFileSync(path.join(workflowsDir, "up.yml"), "utf8");
    expect(up).toMatch(/PULUMI_EXPERIMENTAL: "true"/);
    expect(up).toMatch(/pulumi up --yes --stack "\$STACK" --plan plan\.json/);
    expect(up).toMatch(/git diff --quiet "\$reviewed" "\$GITHUB_SHA"/);
    expect(up).toMatch(/grep -q "violates plan"/);
    expect(up.match(/Re-run the preview/g)?.length).toBeGreaterThanOrEqual(2);
    // The reviewed dollars are checked against the service before the plan is applied.
    const check = up.indexOf(
      'npx portfolio-wallet report-check --stack "$STACK" --reviewed report.json --plan plan.json',
    );
    expect(check).toBeGreaterThan(0);
    expect(check).toBeLessThan(up.indexOf("pulumi up --yes"));
    // The artifact name is the preview's, built the same way.
    expect(up).toMatch(/artifact="pulumi-plan-\$\{STACK\/\/\\\/\/-\}-\$reviewed"/);
  });

  test("the drift schedule runs the check per stack and lets drift-issue decide the one issue", () => {
    const drift = readFileSync(path.join(workflowsDir, "drift.yml"), "utf8");
    expect(drift).toMatch(/schedule:\n\s+- cron: /);
    expect(drift).toMatch(/npx portfolio-wallet drift --stack "\$STACK" --json/);
    expect(drift).toMatch(/npx portfolio-wallet drift-issue --stack "\$STACK"/);
    for (const action of ["open", "reopen", "update", "close"]) {
      expect(drift).toContain(`steps.issue.outputs.action == '${action}'`);
    }
  });

  test("the ways back: a dispatch of restore or adopt runs one job for the chosen stack, the only one that may push and open pull requests; preview.yml refreshes its preview, up.yml the state before the plan", () => {
    const drift = readFileSync(path.join(workflowsDir, "drift.yml"), "utf8");
    expect(drift).toMatch(/workflow_dispatch:\n\s+inputs:\n\s+way_back:\n/);
    expect(drift).toMatch(/\n {6}stack:\n(\s+\w+: .*\n)*\s+options: \[treasury\/staging, treasury\/prod\]\n/);
    // The workflow's own permissions are the least; each job says what more it needs.
    expect(/\npermissions:\n((?: {2}\S.*\n)+)/.exec(drift)![1]).toBe("  contents: read\n");
    const job = (name: string) =>
      drift.slice(drift.indexOf(`\n  ${name}:\n`)).split(/\n {2}(?=[\w-]+:\n)/)[1]!;
    expect(job("drift")).toContain("if: github.event_name == 'schedule' || inputs.way_back == 'check'\n");
    expect(job("drift")).toMatch(/\n {4}permissions:\n {6}contents: read\n {6}issues: write\n/);
    expect(job("way-back")).toContain("if: inputs.way_back == 'restore' || inputs.way_back == 'adopt'\n");
    expect(job("way-back")).toMatch(
      /\n {4}permissions:\n {6}contents: write\n {6}pull-requests: write\n {4}\S/,
    );
    expect(job("way-back")).toContain('echo "branch=portfolio-wallet/$WAY_BACK/$slug"');
    // Restore: one refresh preview, read by drift as JSON (to decide) and as the record.
    for (const command of [
      'PULUMI_DEBUG_COMMANDS=true pulumi refresh --preview-only --stack "$STACK" --event-log "$events"',
      'npx portfolio-wallet drift --stack "$STACK" --refresh-preview "$events" --json --output "$RUNNER_TEMP/drift.json"',
      'npx portfolio-wallet drift --stack "$STACK" --refresh-preview "$events" --markdown --output "restore/$SLUG.md"',
    ])
      expect(job("way-back")).toContain(command);
    expect(job("way-back")).toContain(
      'npx portfolio-wallet adopt --stack "$STACK" --output "$RUNNER_TEMP/adopt.md"',
    );
    expect(job("way-back")).toContain('git push --force origin "HEAD:refs/heads/$BRANCH"');
    expect(job("way-back")).toContain(
      'gh pr list --repo "$GITHUB_REPOSITORY" --head "$BRANCH" --state open --json number',
    );

    const preview = readFileSync(path.join(workflowsDir, "preview.yml"), "utf8");
    expect(preview).toContain("HEAD_REF: ${{ github.head_ref }}");
    expect(preview).toContain('[ "$HEAD_REF" = "portfolio-wallet/restore/$slug" ]');
    expect(preview).toContain('pulumi preview --stack "$STACK" --json --save-plan plan.json "${refresh[@]}"');

    const up = readFileSync(path.join(workflowsDir, "up.yml"), "utf8");
    expect(up).toContain("if: steps.reviewed.outputs.way_back != ''");
    const refresh = up.indexOf('pulumi refresh --stack "$STACK" --yes --skip-preview');
    expect(refresh).toBeGreaterThan(up.indexOf("name: Fetch the reviewed plan"));
    expect(refresh).toBeLessThan(up.indexOf("npx portfolio-wallet report-check"));
  });
});
