// The native provider plugin as a release archive, for a machine with no copy of this npm package:
//   pulumi plugin install resource portfolio-wallet <version> --file pulumi-resource-portfolio-wallet-v<version>.tar.gz
// The engine unpacks it into its plugin directory and runs `pulumi-resource-portfolio-wallet` from
// there, so everything the plugin needs is inside: the plugin bundled into one ES module (its
// dependencies included) and a launcher that runs it with the Node.js on PATH (22.19 or newer).
import { execFile } from "node:child_process";
import { chmodSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import { promisify } from "node:util";
import { MINIMUM_NODE_VERSION, NODE_WITH_NPM_ALONE } from "../sdk/nodejs/client/core/nodeVersion.ts";

export const PLUGIN_EXECUTABLE = "pulumi-resource-portfolio-wallet";

/** The archive's file name for a version: what the release attaches and `npm run build` writes. */
export function pluginArchiveName(version: string): string {
  return `${PLUGIN_EXECUTABLE}-v${version}.tar.gz`;
}

export { MINIMUM_NODE_VERSION };

/**
 * The launcher checks the Node.js version before loading the bundle: on an older Node.js the bundle
 * fails while loading with an unrelated TypeError, which the engine reports as a bug in the provider.
 * The check asks the same node the plugin then runs with, and costs one more Node.js start.
 */
const [MINIMUM_MAJOR, MINIMUM_MINOR] = MINIMUM_NODE_VERSION.split(".");
/** A text as one single-quoted shell word (no expansion inside). */
const shellSingleQuoted = (text: string) => `'${text.replaceAll("'", `'\\''`)}'`;
export const LAUNCHER = `#!/bin/sh
# The portfolio-wallet native provider plugin: runs the bundled plugin beside this file with the
# Node.js on PATH (${MINIMUM_NODE_VERSION} or newer).
here=$(CDPATH= cd -- "$(dirname -- "$0")" && pwd)
needs="Node.js ${MINIMUM_NODE_VERSION} or newer is needed as \\\`node\\\` on PATH by the portfolio-wallet provider plugin (not a bug in it)"
fix=${shellSingleQuoted(NODE_WITH_NPM_ALONE)}
version=$(node -p process.versions.node 2>/dev/null) || {
  echo "$needs: none was found (PATH=$PATH). $fix" >&2
  exit 1
}
major=\${version%%.*}
rest=\${version#*.}
minor=\${rest%%.*}
if [ "$major" -lt ${MINIMUM_MAJOR} ] || { [ "$major" -eq ${MINIMUM_MAJOR} ] && [ "$minor" -lt ${MINIMUM_MINOR} ]; }; then
  echo "$needs: the first node on PATH ($(command -v node)) is $version. $fix" >&2
  exit 1
fi
exec node "$here/provider.mjs" "$@"
`;

/**
 * Bundles dist/provider/native/main.js (built just before) and writes the archive into `outDir`.
 * esbuild runs as a separate program, so nothing of it is loaded into this process.
 */
export async function buildPluginArchive(repoRoot: string, outDir: string): Promise<string> {
  const { version } = JSON.parse(readFileSync(path.join(repoRoot, "package.json"), "utf8")) as {
    version: string;
  };
  const staging = path.join(outDir, "staging");
  rmSync(outDir, { recursive: true, force: true });
  mkdirSync(staging, { recursive: true });
  const esbuild = createRequire(import.meta.url).resolve("esbuild/bin/esbuild");
  await promisify(execFile)(
    esbuild,
    [
      path.join(repoRoot, "dist", "provider", "native", "main.js"),
      "--bundle",
      "--platform=node",
      "--format=esm",
      "--target=node22",
      "--log-level=warning",
      `--outfile=${path.join(staging, "provider.mjs")}`,
      // CommonJS dependencies (gRPC, protobuf) call require(): give the ES module one.
      "--banner:js=import { createRequire as __pluginRequire } from 'node:module'; const require = __pluginRequire(import.meta.url);",
    ],
    { cwd: repoRoot },
  );
  writeFileSync(path.join(staging, PLUGIN_EXECUTABLE), LAUNCHER);
  chmodSync(path.join(staging, PLUGIN_EXECUTABLE), 0o755);
  const archive = path.join(outDir, pluginArchiveName(version));
  await promisify(execFile)("tar", ["-czf", archive, "-C", staging, PLUGIN_EXECUTABLE, "provider.mjs"]);
  rmSync(staging, { recursive: true, force: true });
  return archive;
}
