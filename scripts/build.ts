// `npm run build` (also run by `prepack`, so by `npm pack`; not by `npm ci`, and no install script, so
// installing the packed package runs nothing of this repository's and npm asks no one to allow it): the
// published JavaScript and type declarations in dist/, from a clean directory so that no file of
// an earlier build (a renamed module, say) is ever packed.
//   dist/      ES modules (tsconfig.build.json): every entry, the command-line tool, and the native
//              provider plugin (`pulumi-resource-portfolio-wallet`, the package's second bin)
//   dist/cjs/  CommonJS (tsconfig.build.cjs.json): every entry, for `require` (CommonJS programs,
//              such as those `pulumi new typescript` creates)
//   dist/sandbox/console/web/, dist/cjs/sandbox/console/web/  the sandbox console's page and styles,
//              copied, and its script: web/src/ bundled by esbuild into web/assets/console.js
//              (sandbox/console/consoleBundle.ts; the sources are not shipped)
//   dist/plugin/  the plugin as a release archive for `pulumi plugin install ... --file` (pluginArchive.ts);
//              not in the npm package
//
// The repo's own Pulumi programs (examples, test fixtures) import the package by name, which
// resolves to dist/; `ensureBuilt()` (the test run's global setup) rebuilds when sources changed.
import { execFile } from "node:child_process";
import { createHash } from "node:crypto";
import { cpSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { manifestFilesOf, repositoryManifest } from "./packedManifest.ts";
import { buildPluginArchive } from "./pluginArchive.ts";

const repoRoot = fileURLToPath(new URL("..", import.meta.url));
const tsc = createRequire(import.meta.url).resolve("typescript/bin/tsc");
const dist = path.join(repoRoot, "dist");
/** Hash of the inputs dist/ was last built from (outside dist/, so it is never packed). */
const builtFromStamp = path.join(repoRoot, "node_modules", ".cache", "portfolio-wallet-build", "inputs-hash");

/** Everything the build or the packed tarball is made of. */
export const BUILD_INPUTS = [
  "sdk",
  "provider",
  "sandbox",
  "cli",
  "policy",
  "docs",
  "scripts/build.ts",
  "package.json",
  "tsconfig.json",
  "tsconfig.build.json",
  "tsconfig.build.cjs.json",
  "scripts/pluginArchive.ts",
  "README.md",
  "LICENSE",
];

/**
 * What builds of the inputs leave inside them, which neither the build nor the tarball reads:
 * `pip install sdk/python` builds in place (setuptools' build/ and *.egg-info, Python's
 * __pycache__), Maven writes target/. Counted as inputs, a pip install in the checkout (the doc
 * walks run one) changed the hash, and the next `npm pack` of the checkout (its `prepack`) rebuilt
 * dist/ while other test files were running programs from it.
 */
const NOT_INPUTS = /^(build|target|__pycache__|node_modules|.*\.egg-info)$/;

/** A hash of the contents of every build input: equal hashes, equal builds and tarballs. */
export function buildInputsHash(root = repoRoot): string {
  const hash = createHash("sha256");
  const add = (relative: string) => {
    const absolute = path.join(root, relative);
    if (statSync(absolute).isDirectory()) {
      for (const entry of readdirSync(absolute).sort()) {
        if (!NOT_INPUTS.test(entry)) add(path.join(relative, entry));
      }
    } else {
      // The repository's package.json, also while a pack has the user's in its place.
      const content =
        relative === "package.json" ? repositoryManifest(manifestFilesOf(root)) : readFileSync(absolute);
      hash.update(`${relative}\0`).update(content).update("\0");
    }
  };
  for (const input of BUILD_INPUTS) add(input);
  return hash.digest("hex").slice(0, 16);
}

async function compile(tsconfig: string): Promise<void> {
  try {
    await promisify(execFile)(process.execPath, [tsc, "-p", tsconfig], { cwd: repoRoot });
  } catch (error) {
    const { stdout = "", stderr = "" } = error as { stdout?: string; stderr?: string };
    process.stderr.write(`${stdout}${stderr}`);
    throw new Error(`tsc -p ${tsconfig} failed`);
  }
}

/**
 * The OpenAPI documents as files of the package (`@portfolio-wallet/pulumi/openapi.json`), the
 * very ones a sandbox serves: the service's and the sandbox admin API's (docs/openapi.md).
 */
async function writeOpenApiDocuments(directory: string): Promise<void> {
  const { publishedOpenApiDocument } = await import("../sdk/nodejs/contract/serviceDocument.ts");
  // The admin API exists only in the sandbox, so its document is the sandbox's.
  const { sandboxOpenApiDocuments } = await import("../sandbox/index.ts");
  const documents = { service: publishedOpenApiDocument(), admin: sandboxOpenApiDocuments().admin };
  mkdirSync(directory, { recursive: true });
  writeFileSync(
    path.join(directory, "portfolio-wallet.openapi.json"),
    `${JSON.stringify(documents.service, null, 2)}\n`,
  );
  writeFileSync(
    path.join(directory, "sandbox-admin.openapi.json"),
    `${JSON.stringify(documents.admin, null, 2)}\n`,
  );
}

/** The console's browser files (sandbox/console/web/), beside each build of the module that serves them. */
const CONSOLE_WEB = path.join("sandbox", "console", "web");

/** The page, its styles and icon as they are, and the script as one bundle (consoleBundle.ts). */
async function writeConsoleFiles(): Promise<void> {
  const { bundleConsole, CONSOLE_BUNDLE_NAME } = await import("../sandbox/console/consoleBundle.ts");
  const bundle = await bundleConsole();
  for (const build of [dist, path.join(dist, "cjs")]) {
    const target = path.join(build, CONSOLE_WEB);
    cpSync(path.join(repoRoot, CONSOLE_WEB, "index.html"), path.join(target, "index.html"));
    cpSync(path.join(repoRoot, CONSOLE_WEB, "assets"), path.join(target, "assets"), { recursive: true });
    writeFileSync(path.join(target, "assets", CONSOLE_BUNDLE_NAME), bundle);
  }
}

export async function build(): Promise<void> {
  const inputsHash = buildInputsHash();
  rmSync(dist, { recursive: true, force: true });
  rmSync(builtFromStamp, { force: true });
  await Promise.all([compile("tsconfig.build.json"), compile("tsconfig.build.cjs.json")]);
  // Without this, Node would read dist/cjs/**/*.js as ES modules: the package itself is "type": "module".
  writeFileSync(path.join(dist, "cjs", "package.json"), `${JSON.stringify({ type: "commonjs" })}\n`);
  await writeConsoleFiles();
  await buildPluginArchive(repoRoot, path.join(dist, "plugin"));
  await writeOpenApiDocuments(path.join(dist, "openapi"));
  mkdirSync(path.dirname(builtFromStamp), { recursive: true });
  writeFileSync(builtFromStamp, inputsHash);
}

/** Builds unless dist/ was built from exactly the current sources. */
export async function ensureBuilt(): Promise<void> {
  let builtFrom = "";
  try {
    builtFrom = readFileSync(builtFromStamp, "utf8");
  } catch {
    // never built here
  }
  if (builtFrom !== buildInputsHash()) await build();
}

// `node scripts/build.ts` builds; `--if-changed` only when the sources changed since the last build (what
// `prepack` runs: packing the package while tests read dist/ must not delete it under them).
if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  if (process.argv.includes("--if-changed")) await ensureBuilt();
  else await build();
}
