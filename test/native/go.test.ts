import { mkdirSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { repoRoot } from "../../scripts/pulumiEnv.ts";
import { ORG, startTestSandbox, TOKEN, type TestSandbox } from "../sandbox/helpers.ts";
import { LanguageProject } from "./harness/languageProject.ts";

/**
 * A Go program outside this repository: the Go SDK generated from the package schema (sdk/go, a
 * Go module built against github.com/pulumi/pulumi/sdk/v3 from the module proxy), run through the
 * Go Automation API with an inline program. Up, a no-change preview, destroy.
 */

let t: TestSandbox;
let project: LanguageProject;
let workDir: string;

async function treasuryGo(operation: "up" | "preview" | "destroy") {
  const { stdout } = await project.run(path.join(project.dir, "treasury-go"), [operation, workDir]);
  return JSON.parse(stdout.trim().split("\n").at(-1)!) as Record<string, unknown>;
}

beforeAll(async () => {
  t = await startTestSandbox({ tokens: { [TOKEN]: ORG } });
  project = await LanguageProject.create(path.join(import.meta.dirname, "programs", "go-treasury"), "go");
  project.writeFile(
    "go.mod",
    project.readFile("go.mod.template").replace("SDK_DIR", path.join(repoRoot, "sdk", "go")),
  );
  project.setEnv({
    GOFLAGS: "-mod=mod",
    GOWORK: "off",
    GOTOOLCHAIN: "local",
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

describe("a Go program with the generated SDK and the native plugin", () => {
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
