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
    expect(workflows.sort()).toEqual(["preview.yml", "up.yml"]);
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
    expect(preview).toMatch(/npx portfolio-wallet report --preview preview\.json/);
    expect(preview).toMatch(/cancel-in-progress: true/);
  });
});
