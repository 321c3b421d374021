import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { expect, test } from "vitest";
import { repoRoot } from "../../scripts/pulumiEnv.ts";

/** The console's browser sources write each sandbox path once, in paths.js (docs/console.md). */
const SRC = path.join(repoRoot, "sandbox", "console", "web", "src");

test("no browser script but paths.js writes a /_sandbox or /_console/api path", () => {
  const files = readdirSync(SRC, { recursive: true, encoding: "utf8" }).filter(
    (file) => file.endsWith(".js") && file !== "paths.js",
  );
  expect(files.length).toBeGreaterThan(10);
  // A path starts a string or template literal; comments may name paths.
  const literal = /["'`]\/_(?:sandbox|console\/api)\//;
  const offenders = files.flatMap((file) =>
    readFileSync(path.join(SRC, file), "utf8")
      .split("\n")
      .map((line, index) => ({ where: `${file}:${index + 1}`, line }))
      .filter(({ line }) => literal.test(line)),
  );
  expect(offenders).toEqual([]);
  // The check can fail: paths.js itself holds such literals.
  expect(literal.test(readFileSync(path.join(SRC, "paths.js"), "utf8"))).toBe(true);
});
