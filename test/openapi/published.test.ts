import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { repoRoot } from "../../scripts/pulumiEnv.ts";
import { startTestSandbox, type TestSandbox } from "../sandbox/helpers.ts";

let t: TestSandbox;
let served: unknown;
beforeAll(async () => {
  t = await startTestSandbox();
  served = await (await fetch(`${t.url}/openapi.json`)).json();
});
afterAll(() => t.close());

describe("the published document", () => {
  test("`portfolio-wallet openapi` prints what the sandbox serves; --admin the admin API's", async () => {
    const cli = (...args: string[]) =>
      JSON.parse(
        execFileSync(process.execPath, [path.join(repoRoot, "cli", "main.ts"), "openapi", ...args], {
          encoding: "utf8",
          env: { ...process.env, PORTFOLIO_WALLET_BASE_URL: "", PORTFOLIO_WALLET_API_TOKEN: "" },
        }),
      ) as unknown;
    expect(cli()).toEqual(served);
    expect(cli("--admin")).toEqual(await (await fetch(`${t.url}/openapi/sandbox-admin.json`)).json());
  });

  test("the package ships it as a file, exported as @portfolio-wallet/pulumi/openapi.json", () => {
    const require = createRequire(path.join(repoRoot, "package.json"));
    const file = require.resolve("@portfolio-wallet/pulumi/openapi.json");
    expect(path.relative(repoRoot, file)).toBe(path.join("dist", "openapi", "portfolio-wallet.openapi.json"));
    expect(JSON.parse(readFileSync(file, "utf8"))).toEqual(served);
    const admin = path.join(repoRoot, "dist", "openapi", "sandbox-admin.openapi.json");
    expect(JSON.parse(readFileSync(admin, "utf8")).info.title).toMatch(/admin/);
    const files = (
      JSON.parse(readFileSync(path.join(repoRoot, "package.json"), "utf8")) as { files: string[] }
    ).files;
    expect(files).toContain("dist");
    expect(files).not.toContain("!dist/openapi");
  });
});
