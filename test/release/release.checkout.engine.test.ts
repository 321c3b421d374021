import { execFileSync, spawnSync } from "node:child_process";
import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, test } from "vitest";
import { repoRoot } from "../../scripts/pulumiEnv.ts";

/**
 * The release: its workflow passes actionlint and publishes each artifact the way Pulumi's own
 * providers are published, and every build step it runs (scripts/release.sh) runs here too, so a
 * release never finds a broken step first.
 */

const workflowFile = path.join(repoRoot, ".github", "workflows", "release.yml");
const workflow = readFileSync(workflowFile, "utf8");
const { version } = JSON.parse(readFileSync(path.join(repoRoot, "package.json"), "utf8")) as {
  version: string;
};
const out = mkdtempSync(path.join(os.tmpdir(), "pw-release-"));
afterAll(() => rmSync(out, { recursive: true, force: true }));

describe("the release", () => {
  test("the workflow passes actionlint", () => {
    const actionlint = execFileSync("bash", [path.join(repoRoot, "scripts", "ensure-actionlint.sh")], {
      encoding: "utf8",
      stdio: ["ignore", "pipe", "inherit"],
    }).trim();
    const result = spawnSync(actionlint, [workflowFile], { encoding: "utf8" });
    expect(result.stdout + result.stderr).toBe("");
    expect(result.status).toBe(0);
  });

  test("on a version tag it builds with scripts/release.sh and publishes npm, PyPI, the Go tag, the plugin and the Java SDK", () => {
    expect(workflow).toMatch(/tags: \["v\*\.\*\.\*"\]/);
    expect(workflow).toMatch(/bash scripts\/release\.sh "\$\{TAG#v\}" release/);
    expect(workflow).toMatch(/npm publish release\/npm\/\*\.tgz/);
    expect(workflow).toMatch(/pypa\/gh-action-pypi-publish@release\/v1[\s\S]*packages-dir: release\/python/);
    expect(workflow).toMatch(/git push origin "\$go_tag"/);
    expect(workflow).toMatch(/gh release create "\$TAG" release\/plugin\/\*\.tar\.gz release\/java\/\*/);
    expect(workflow).toMatch(/actions\/setup-java@v4[\s\S]*java-version: "17"/);
  });

  test("every build step runs: the npm package, the Python SDK's sdist and wheel, the plugin archive, the Java SDK's jar, the Go tag", () => {
    execFileSync("bash", [path.join(repoRoot, "scripts", "release.sh"), version, out], {
      cwd: repoRoot,
      stdio: ["ignore", "ignore", "pipe"],
    });
    expect(readdirSync(path.join(out, "npm"))).toEqual([`portfolio-wallet-pulumi-${version}.tgz`]);
    expect(readdirSync(path.join(out, "python")).sort()).toEqual([
      `pulumi_portfolio_wallet-${version}-py3-none-any.whl`,
      `pulumi_portfolio_wallet-${version}.tar.gz`,
    ]);
    expect(readdirSync(path.join(out, "plugin"))).toEqual([
      `pulumi-resource-portfolio-wallet-v${version}.tar.gz`,
    ]);
    expect(readdirSync(path.join(out, "java")).sort()).toEqual([
      `pulumi-portfolio-wallet-${version}.jar`,
      `pulumi-portfolio-wallet-${version}.pom`,
    ]);
    const classes = execFileSync(
      "jar",
      ["tf", path.join(out, "java", `pulumi-portfolio-wallet-${version}.jar`)],
      {
        encoding: "utf8",
      },
    );
    expect(classes).toContain("com/portfoliowallet/portfoliowallet/PortfolioWallet.class");
    expect(readFileSync(path.join(out, "go-tag"), "utf8").trim()).toBe(`sdk/go/v${version}`);
  }, 600_000);

  test("a tag that does not match package.json is refused before anything is built", () => {
    const result = spawnSync("bash", [path.join(repoRoot, "scripts", "release.sh"), "9.9.9", out], {
      cwd: repoRoot,
      encoding: "utf8",
    });
    expect(result.status).toBe(1);
    expect(result.stderr).toMatch(/the tag says 9\.9\.9 but package\.json says/);
  });
});
