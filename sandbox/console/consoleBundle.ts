import path from "node:path";
import { consoleDir } from "./consoleDir.cts";

/**
 * The console's browser code is `web/src/main.js` and everything it imports, the contract's rules
 * among them (sdk/nodejs/contract/duration.ts, the basis-point total of common.ts), bundled by esbuild
 * into one script, `web/assets/console.js`.
 *
 * Two ways to get it, one set of options:
 * - `npm run build` writes it beside each build in dist/ (scripts/build.ts), so an installed
 *   package serves a file and needs no esbuild (a devDependency);
 * - a sandbox run from this repository's sources (`npm run sandbox`, the browser tests) has no such
 *   file beside it, and bundles the sources in memory on the first request for the script, so what
 *   it serves is always the sources as they are.
 */
export const CONSOLE_BUNDLE_NAME = "console.js";

/** Where the sources are: present in the repository, never in dist/ (only the bundle is shipped). */
export const CONSOLE_SOURCES_ENTRY = path.join(consoleDir, "web", "src", "main.js");

/** The bundle of the console's sources, as text. */
export async function bundleConsole(entry: string = CONSOLE_SOURCES_ENTRY): Promise<string> {
  // Loaded only when bundling: an installed package serves its built file and never gets here.
  const { build } = await import("esbuild");
  const result = await build({
    entryPoints: [entry],
    bundle: true,
    write: false,
    format: "esm",
    platform: "browser",
    target: "es2023",
    charset: "utf8",
    legalComments: "none",
    // Readable in the browser's developer tools, as the sources are; it is small either way.
    minify: false,
    logLevel: "silent",
  });
  const [output] = result.outputFiles;
  if (output === undefined) throw new Error(`esbuild wrote nothing for ${entry}`);
  return output.text;
}
