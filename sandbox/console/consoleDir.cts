/**
 * Where the console's browser files are: `web/` beside this module.
 *
 * Why a CommonJS module: the sandbox runs from its TypeScript sources in this repository, from
 * the ES-module build (dist/) and from the CommonJS build (dist/cjs/) when installed, and the
 * browser files are copied beside each build (scripts/build.ts). Only `__dirname` names this
 * module's own folder in all three: `import.meta.url` does not compile to CommonJS. A `.cts`
 * file is CommonJS in every build and when Node runs the source, so `__dirname` is always set.
 *
 * Plain CommonJS after type stripping (no `export` statement): Node runs this file as is.
 */
export declare const consoleDir: string;
exports.consoleDir = __dirname;
