// The API reference of the native provider, generated from its package schema
// (provider/native/schema.json) in the Pulumi Registry's layout, into docs/reference/:
//   _index.md                      the package: what it is, its resources and functions
//   installation-configuration.md  installing the SDK and the plugin per language; every
//                                  configuration key with its environment variable and secrecy
//   api-docs/<name>.md             a page per resource (inputs, outputs with secrets marked, the
//                                  import syntax) and per function (arguments, result), each with
//                                  an example in TypeScript, Python, Go, YAML and Java: each one a
//                                  whole program (imports, Go's package and main, Java's class,
//                                  YAML's name and runtime) that compiles as a user pastes it
//                                  (test/docs/codeBlocks.engine.test.ts compiles every one)
// Written by scripts/generateSdks.ts with the SDKs (`npm run generate`; its `--check`, which a test
// runs, fails when a page is stale). Why a script and not Pulumi's own docs generator
// (pkg/codegen/docs): that package is no longer in github.com/pulumi/pulumi/pkg/v3 (it moved to the
// Registry's own tooling, which the module proxy here does not serve), so it cannot run here.
// The pages are made here: packagePages.ts (index, installation), resourcePage.ts, functionPage.ts;
// their parts: pageParts.ts (tables), exampleValues.ts and examplePrograms.ts (examples per
// language); what the schema does not say: resourceExamples.ts and functionExamples.ts.
import { functionPage } from "./functionPage.ts";
import { indexPage, installationPage } from "./packagePages.ts";
import { pageName, type PackageSchema } from "./packageSchema.ts";
import { resourcePage } from "./resourcePage.ts";

export type { PackageSchema, SchemaProperty } from "./packageSchema.ts";

/** Every page of the reference, keyed by its path under docs/reference/. */
export function referencePages(schema: PackageSchema): Map<string, string> {
  const pages = new Map<string, string>();
  pages.set("_index.md", indexPage(schema));
  pages.set("installation-configuration.md", installationPage(schema));
  for (const [token, spec] of Object.entries(schema.resources))
    pages.set(`api-docs/${pageName(token)}.md`, resourcePage(schema, token, spec));
  for (const [token, spec] of Object.entries(schema.functions))
    pages.set(`api-docs/${pageName(token)}.md`, functionPage(schema, token, spec));
  return pages;
}
