import { mkdirSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { repoRoot } from "../../scripts/pulumiEnv.ts";
import { ORG, startTestSandbox, TOKEN, type TestSandbox } from "../sandbox/helpers.ts";
import { LanguageProject } from "./harness/languageProject.ts";
import { GO_ENV, useGoSdk } from "./harness/sdks.ts";
import { describeTreasuryLifecycle } from "./harness/treasuryLifecycle.ts";

/**
 * Go programs outside this repository with the Go SDK generated from the package schema (sdk/go, a
 * Go module built against github.com/pulumi/pulumi/sdk/v3 from the module proxy), both ways a Go
 * user runs one:
 * - a `runtime: go` project run by the CLI and the Go language host, through the treasury
 *   lifecycle every language shares (harness/treasuryLifecycle.ts), its SDK got as
 *   docs/languages.md says before the module is published (`go mod edit -replace`, `go mod tidy`);
 * - the Go Automation API with an inline program: up, a no-change preview, destroy.
 */

describeTreasuryLifecycle(
  "a runtime: go project run by the CLI, with the generated SDK and the native plugin",
  async () => {
    const project = await LanguageProject.create(
      path.join(import.meta.dirname, "programs", "go-cli-treasury"),
      "go-cli",
    );
    project.writeFile("go.mod", project.readFile("go.mod.template"));
    await useGoSdk(project);
    return project;
  },
  { setUpTimeoutMs: 600_000, stepTimeoutMs: 300_000, languageIndependentSteps: false },
);

let t: TestSandbox;
let project: LanguageProject;
let workDir: string;

async function treasuryGo(operation: "up" | "preview" | "destroy") {
  const { stdout } = await project.run(path.join(project.dir, "treasury-go"), [operation, workDir]);
  return JSON.parse(stdout.trim().split("\n").at(-1)!) as Record<string, unknown>;
}

describe("a Go program run through the Automation API with an inline program", () => {
  beforeAll(async () => {
    t = await startTestSandbox({ tokens: { [TOKEN]: ORG } });
    project = await LanguageProject.create(path.join(import.meta.dirname, "programs", "go-treasury"), "go");
    project.writeFile(
      "go.mod",
      project.readFile("go.mod.template").replace("SDK_DIR", path.join(repoRoot, "sdk", "go")),
    );
    project.setEnv({
      ...GO_ENV,
      TREASURY_SERVICE_URL: t.url,
      TREASURY_API_TOKEN: TOKEN,
    });
    await project.run("go", ["mod", "tidy"]);
    await project.run("go", ["build", "-o", "treasury-go", "."]);
    workDir = path.join(project.root, "work");
    mkdirSync(workDir);
  }, 600_000);

  afterAll(async () => {
    project?.cleanUp();
    await t?.close();
  });

  test("up creates the wallet; its outputs come back", async () => {
    const outputs = await treasuryGo("up");
    expect(outputs["walletId"]).toMatch(/^[0-9a-f-]{36}$/);
    expect((outputs["depositAddresses"] as Record<string, string>)["ethereum"]).toMatch(/^0x[0-9a-f]{40}$/);
    expect(outputs["blendedRateBps"]).toBeGreaterThan(0);
    const wallet = (await t.api("GET", `/v2/portfolio-wallets/${String(outputs["walletId"])}`)).body;
    expect(wallet.strategyConfig.positions).toHaveLength(2);
  });

  test("a preview after it changes nothing", async () => {
    const { changeSummary } = await treasuryGo("preview");
    expect(changeSummary).toEqual({ same: 2 });
  });

  test("destroy removes the empty wallet from the stack", async () => {
    await treasuryGo("destroy");
    const stacks = await project.run("pulumi", ["stack", "ls", "--json"], workDir);
    expect(JSON.parse(stacks.stdout)).toEqual([]);
  });
});
