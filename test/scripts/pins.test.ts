import { readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import { expect, test } from "vitest";
import { repoRoot } from "../../scripts/pulumiEnv.ts";

/**
 * The offline engine's pins agree: scripts/ensure-pulumi-engine.sh builds the CLI at the installed
 * @pulumi/pulumi's version, and every Python program the project ships, documents or tests with
 * asks for the `pulumi` package of that same version from PyPI (the 3.68 Python host runs what the
 * program's environment holds).
 */

/** Where a `pulumi==<version>` pin can be: requirements files, the docs' pip commands, test set-ups. */
const PINNED_IN = ["examples", "docs", "test", "README.md"];
const SKIPPED = new Set(["node_modules", "__pycache__", "target", "build"]);

function filesUnder(relative: string): string[] {
  if (!statSync(path.join(repoRoot, relative)).isDirectory()) return [relative];
  return readdirSync(path.join(repoRoot, relative))
    .filter((name) => !SKIPPED.has(name))
    .flatMap((name) => filesUnder(path.join(relative, name)));
}

test("every `pulumi==` pin of a Python program is the CLI's version", () => {
  const cliVersion = (
    JSON.parse(
      readFileSync(path.join(repoRoot, "node_modules", "@pulumi", "pulumi", "package.json"), "utf8"),
    ) as {
      version: string;
    }
  ).version;
  const pins = PINNED_IN.flatMap(filesUnder)
    .filter(
      (file) => /\.(txt|md|ts|py|toml)$/.test(file) && file !== path.join("test", "scripts", "pins.test.ts"),
    )
    .flatMap((file) =>
      [...readFileSync(path.join(repoRoot, file), "utf8").matchAll(/\bpulumi==([\w.-]+)/g)].map(
        (match) => `${file}: ${match[1]}`,
      ),
    );
  // The pins the Python user and the Python tests meet: the example, the docs' pip command, the
  // Python lifecycle's requirements, the docs' code blocks' environment.
  expect(pins.length).toBeGreaterThanOrEqual(4);
  expect(pins.filter((pin) => !pin.endsWith(`: ${cliVersion}`))).toEqual([]);
});
