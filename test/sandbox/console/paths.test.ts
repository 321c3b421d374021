import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { expect, test } from "vitest";
import { SERVICE_OPERATIONS } from "../../../sdk/nodejs/contract/operations.ts";
import { SIGNING_PROVIDER_OPERATIONS } from "../../../sdk/nodejs/contract/signingProvider.ts";
import { repoRoot } from "../../../scripts/pulumiEnv.ts";

/** The console's browser sources write each path they call once, in paths.js (docs/console.md). */
const SRC = path.join(repoRoot, "sandbox", "console", "web", "src");

test("no browser script but paths.js writes a path of the service, the signing provider or the sandbox", () => {
  const files = readdirSync(SRC, { recursive: true, encoding: "utf8" }).filter(
    (file) => file.endsWith(".js") && file !== "paths.js",
  );
  expect(files.length).toBeGreaterThan(10);
  // A path starts a string or template literal; comments may name paths. The console's own pages
  // (`/wallets/…`, `/webhooks/deliveries/…`) are addresses in the browser, not calls.
  const literal =
    /["'`]\/(?:_sandbox\/|_console\/api\/|v2\/portfolio-wallets|webhooks\/registrations|public\/v1\/)/;
  const offenders = files.flatMap((file) =>
    readFileSync(path.join(SRC, file), "utf8")
      .split("\n")
      .map((line, index) => ({ where: `${file}:${index + 1}`, line }))
      .filter(({ line }) => literal.test(line)),
  );
  expect(offenders).toEqual([]);
  // The check can fail: paths.js itself holds such literals, of every kind.
  const own = readFileSync(path.join(SRC, "paths.js"), "utf8");
  for (const kind of ['"/_sandbox/', '"/v2/portfolio-wallets', '"/webhooks/registrations', '"/public/v1/'])
    expect(own).toContain(kind);
});

type PathBuilder = string | ((...args: unknown[]) => string);

/** The path an entry of paths.js gives, called with an argument a view would pass. */
function pathOf(entry: PathBuilder, argument: unknown): string {
  return (typeof entry === "string" ? entry : entry(argument, {})).split("?")[0] as string;
}

/** The operation whose path template (`/v2/portfolio-wallets/{id}`) the concrete path fills in. */
const templateMatches = (template: string, concrete: string) =>
  new RegExp(`^${template.replace(/\{[^}]+\}/g, "[^/]+")}$`).test(concrete);

test("every service and signing path of paths.js is an operation of the contract's tables", async () => {
  // A browser script (no types for this project's TypeScript), so imported by URL.
  const paths = (await import(pathToFileURL(path.join(SRC, "paths.js")).href)) as {
    servicePaths: Record<string, PathBuilder>;
    signingPaths: Record<string, PathBuilder>;
  };
  const id = "3f1c2a9e-8b7d-4c1e-9f0a-2b3c4d5e6f70";
  const called = [
    ...Object.entries(paths.servicePaths).map(([name, entry]) => ({
      name,
      path: pathOf(entry, id),
      operations: SERVICE_OPERATIONS,
    })),
    ...Object.entries(paths.signingPaths).flatMap(([name, entry]) =>
      (typeof entry === "string" ? [undefined] : ["approve", "reject"]).map((decision) => ({
        name: `${name}(${decision ?? ""})`,
        path: pathOf(entry, decision),
        operations: SIGNING_PROVIDER_OPERATIONS,
      })),
    ),
  ];
  expect(called.length).toBeGreaterThan(10);
  const unknown = called.filter(
    ({ path: concrete, operations }) =>
      !operations.some((operation) => templateMatches(operation.path, concrete)),
  );
  expect(unknown).toEqual([]);
  // The check can fail: a path no operation has is refused.
  expect(
    SERVICE_OPERATIONS.some((operation) =>
      templateMatches(operation.path, `/v2/portfolio-wallets/${id}/nope`),
    ),
  ).toBe(false);
});
