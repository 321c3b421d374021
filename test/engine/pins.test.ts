import { readFileSync } from "node:fs";
import path from "node:path";
import { expect, test } from "vitest";
import { PYTHON_SDK_REQUIREMENTS, repoRoot } from "../../scripts/pulumiEnv.ts";

/**
 * The offline engine's pins agree: scripts/ensure-pulumi-engine.sh builds the CLI at the installed
 * @pulumi/pulumi's version, and Python programs (the SDK's virtual environment, which the Python
 * host runs them with) get the `pulumi` package of that same version from PyPI.
 */
test("Python programs get the `pulumi` package of the CLI's version", () => {
  const cliVersion = (
    JSON.parse(
      readFileSync(path.join(repoRoot, "node_modules", "@pulumi", "pulumi", "package.json"), "utf8"),
    ) as {
      version: string;
    }
  ).version;
  const pins = readFileSync(PYTHON_SDK_REQUIREMENTS, "utf8")
    .split("\n")
    .filter((line) => line.trim() !== "" && !line.startsWith("#"));
  expect(pins).toEqual([`pulumi==${cliVersion}`]);
});
