import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { packedPackage } from "./harness/packedPackage.ts";
import { ORG, startTestSandbox, TOKEN, type TestSandbox } from "../sandbox/helpers.ts";
import { PROGRAM_KINDS, type ProgramProject } from "../support/programProjects.ts";

/**
 * The allocation policy pack from a YAML project, which has no node_modules of its own: the
 * package installed in a tools directory beside it (as docs/policy.md says), its CLI names the
 * pack's manifest for the engine on PATH, and `pulumi preview --policy-pack` runs it through the
 * real engine. The program (test/drift/programs/yaml) puts 6000 bps in tbills, above the pack's
 * default max-weight-per-source of 5000: the pack must report it.
 */

const yaml = PROGRAM_KINDS.find((kind) => kind.name === "yaml")!;
let t: TestSandbox;
let project: ProgramProject;

beforeAll(async () => {
  t = await startTestSandbox({ allowPrivateWebhookUrls: true, tokens: { [TOKEN]: ORG } });
  project = await yaml.create(await packedPackage(), "policy-yaml");
  await project.pulumi(["stack", "init", "dev"]);
  await project.pulumi(["config", "set", "portfolio-wallet:baseUrl", t.url]);
  await project.pulumi(["config", "set", "--secret", "portfolio-wallet:apiToken", TOKEN]);
  await project.pulumi(["config", "set", "tbillsBps", "6000"]);
  await project.pulumi(["config", "set", "syrupUsdcBps", "4000"]);
}, 600_000);

afterAll(async () => {
  project?.cleanUp();
  await t?.close();
});

describe("the policy pack from a YAML project", () => {
  test("policy-pack-path names the pack of the installed package, and a preview runs it", async () => {
    const located = await project.cli(["policy-pack-path"]);
    expect(located.code, located.stderr).toBe(0);
    const packDir = located.stdout.trim();
    expect(packDir).toBe(`${project.packageDir}/policy/offline`);
    expect(located.stderr).toContain("the offline engine's manifest");

    const { stdout } = await project.pulumi(["preview", "--policy-pack", packDir], {
      PORTFOLIO_WALLET_BASE_URL: t.url,
      PORTFOLIO_WALLET_API_TOKEN: TOKEN,
    });
    expect(stdout).toMatch(/portfolio-wallet-allocation@v\d+\.\d+\.\d+/);
    expect(stdout).toContain("max-weight-per-source");
    expect(stdout).toMatch(/6000 bps/);
  }, 600_000);
});
