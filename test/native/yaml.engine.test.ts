import { mkdirSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { ORG, startTestSandbox, TOKEN, type TestSandbox } from "../sandbox/helpers.ts";
import { LanguageProject, PLUGIN_ARCHIVE } from "./harness/languageProject.ts";
import { configSetAll } from "../support/pulumiConfig.ts";

/**
 * A YAML program outside this repository: the YAML language host reads the plugin's package schema
 * to type the program. Up with outputs, `pulumi import` printing the program's code for an
 * existing wallet, that code previewing as no change, and destroy.
 */

let t: TestSandbox;
let project: LanguageProject;

beforeAll(async () => {
  t = await startTestSandbox({ rebalanceDelayMs: 5, tokens: { [TOKEN]: ORG } });
  project = await LanguageProject.create(path.join(import.meta.dirname, "programs", "yaml-treasury"), "yaml");
  await project.pulumi(["stack", "init", "dev"]);
  await project.pulumi(
    configSetAll({ "portfolio-wallet:baseUrl": t.url }, { "portfolio-wallet:apiToken": TOKEN }),
  );
}, 300_000);

afterAll(async () => {
  project?.cleanUp();
  await t?.close();
});

describe("a YAML program with the native plugin", () => {
  test("portfolio-wallet:retryTimeoutSeconds reaches the plugin: a bad value fails naming it, a good one rides out 503s", async () => {
    await project.pulumi(["config", "set", "portfolio-wallet:retryTimeoutSeconds", "7200"]);
    const refused = await project.pulumi(["preview"]).catch((error: Error) => error);
    expect(refused).toBeInstanceOf(Error);
    expect((refused as Error).message).toContain(
      'portfolio-wallet:retryTimeoutSeconds must be a number of seconds from 0 to 3600, got "7200"',
    );

    await project.pulumi(["config", "set", "portfolio-wallet:retryTimeoutSeconds", "60"]);
    const fault = await t.api("POST", "/_sandbox/faults", {
      body: { method: "GET", path: "/v2/*", kind: "status", status: 503, times: 6 },
    });
    expect(fault.status).toBe(201);
    await project.pulumi(["preview"]);
    // Every fault was met, and ridden out.
    expect((await t.api("GET", "/_sandbox/faults")).body.faults).toEqual([]);
    await project.pulumi(["config", "rm", "portfolio-wallet:retryTimeoutSeconds"]);
  });

  test("a secret setting stored in plain text is warned about; a malformed baseUrl fails saying how to set it", async () => {
    await project.pulumi(["config", "set", "portfolio-wallet:apiToken", TOKEN]);
    const plain = await project.pulumi(["preview"]);
    expect(plain.stdout).toContain(
      "warning: portfolio-wallet:apiToken is stored in plain text in the stack's configuration",
    );
    expect(plain.stdout).toContain("`pulumi config set --secret portfolio-wallet:apiToken <value>`");
    await project.pulumi(["config", "set", "--secret", "portfolio-wallet:apiToken", TOKEN]);
    expect((await project.pulumi(["preview"])).stdout).not.toContain("plain text");

    await project.pulumi(["config", "set", "portfolio-wallet:baseUrl", "127.0.0.1:8787"]);
    await expect(project.pulumi(["preview"])).rejects.toThrow(
      'portfolio-wallet:baseUrl must be an absolute http(s) URL such as https://api.example.com, got "127.0.0.1:8787"; ' +
        "set it with `pulumi config set portfolio-wallet:baseUrl <value>` or the PORTFOLIO_WALLET_BASE_URL environment variable",
    );
    await project.pulumi(["config", "set", "portfolio-wallet:baseUrl", t.url]);
  });

  test("up: the wallet's outputs, and a function's result", async () => {
    await project.pulumi(["up", "--yes", "--skip-preview"]);
    const outputs = await project.outputs();
    expect(outputs["walletId"]).toMatch(/^[0-9a-f-]{36}$/);
    expect(outputs["ethereumDepositAddress"]).toMatch(/^0x[0-9a-f]{40}$/);
    expect(outputs["blendedRateBps"]).toBeGreaterThan(0);
    expect(outputs["targetWeightsBps"]).toEqual({ tbills: 6000, syrupUsdc: 4000 });
    expect(outputs["yieldSources"].map((s: { positionKey: string }) => s.positionKey)).toContain("tbills");
    const wallet = (await t.api("GET", `/v2/portfolio-wallets/${outputs["walletId"]}`)).body;
    expect(wallet.label).toBe("treasury");
    expect(await project.previewChanges()).toEqual({});
  });

  test("pulumi import reads an existing wallet and prints code that previews as no change", async () => {
    const created = await t.api("POST", "/v2/portfolio-wallets", {
      body: {
        requestId: crypto.randomUUID(),
        label: "legacy",
        positions: [
          { positionKey: "tbills", targetWeightBps: 2500 },
          { positionKey: "resolvRlp", targetWeightBps: 7500 },
        ],
      },
    });
    expect(created.status).toBe(201);
    const imported = await project.pulumi([
      "import",
      "portfolio-wallet:index:PortfolioWallet",
      "legacy",
      created.body.id,
      "--yes",
      "--protect=false",
    ]);
    // The code is the last thing import prints.
    const code = /^resources:\n[\s\S]*$/m.exec(imported.stdout)?.[0].trimEnd();
    expect(code, imported.stdout).toBeDefined();
    expect(code).toContain("type: portfolio-wallet:PortfolioWallet");
    expect(code).toMatch(/positionKey: resolvRlp\s+targetWeightBps: 7500/);
    expect(code).toContain("label: legacy");
    // The printed code, pasted into the program, as its README says.
    const program = project.readFile("Pulumi.yaml");
    const resourceBlock = code!.replace(/^resources:\n/, "");
    project.writeFile("Pulumi.yaml", program.replace(/^variables:/m, `${resourceBlock}\nvariables:`));
    expect(await project.previewChanges()).toEqual({});
  });

  test("destroy removes the empty wallets from the stack", async () => {
    await project.pulumi(["destroy", "--yes", "--skip-preview"]);
    expect(await project.stateResources()).toEqual([]);
  });
});

describe("the plugin found through plugins.providers in Pulumi.yaml", () => {
  test("an unpacked release archive in the project serves the program, with no plugin installed", async () => {
    const local = await LanguageProject.create(
      path.join(import.meta.dirname, "programs", "yaml-treasury"),
      "yaml-local",
      { plugin: "archive" },
    );
    try {
      const pluginDir = path.join(local.dir, "plugins", "portfolio-wallet");
      mkdirSync(pluginDir, { recursive: true });
      await local.run("tar", ["-xzf", PLUGIN_ARCHIVE, "-C", pluginDir]);
      local.writeFile(
        "Pulumi.yaml",
        local
          .readFile("Pulumi.yaml")
          .replace(
            /^runtime: yaml$/m,
            "runtime: yaml\nplugins:\n  providers:\n    - name: portfolio-wallet\n      path: ./plugins/portfolio-wallet",
          ),
      );
      await local.pulumi(["stack", "init", "dev"]);
      await local.pulumi(
        configSetAll({ "portfolio-wallet:baseUrl": t.url }, { "portfolio-wallet:apiToken": TOKEN }),
      );
      await local.pulumi(["up", "--yes", "--skip-preview"]);
      expect((await local.outputs())["walletId"]).toMatch(/^[0-9a-f-]{36}$/);
      expect((await local.pulumi(["plugin", "ls", "--json"])).stdout.trim()).toMatch(/^(\[\]|null)$/);
      await local.pulumi(["destroy", "--yes", "--skip-preview"]);
    } finally {
      local.cleanUp();
    }
  });
});
