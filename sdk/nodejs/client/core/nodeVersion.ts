/**
 * The oldest Node.js this package runs on (the floor of its HTTP client, undici), in one place: package.json's `engines.node` says the
 * same (test/consumer/nodeVersion.engine.test.ts), and the native plugin's launcher is written from it
 * (scripts/pluginArchive.ts), so the package's entries, the command-line tool and the plugin
 * name the same floor.
 */
export const MINIMUM_NODE_VERSION = "22.19";

/**
 * What to tell a user whose Node.js is older than MINIMUM_NODE_VERSION, or undefined when it is
 * new enough. On an older Node.js the package fails while loading with errors that name nothing of
 * the cause (`Cannot read properties of undefined (reading 'bind')`, `No such built-in module:
 * node:sqlite`), so the entries ask this first. Written with nothing newer than Node.js 14 can run.
 */
export function unsupportedNodeMessage(
  what: string,
  running: { version: string; execPath: string } = {
    version: process.versions.node,
    execPath: process.execPath,
  },
): string | undefined {
  const [major = 0, minor = 0] = running.version.split(".").map(Number);
  const [floorMajor = 0, floorMinor = 0] = MINIMUM_NODE_VERSION.split(".").map(Number);
  if (major > floorMajor || (major === floorMajor && minor >= floorMinor)) return undefined;
  return (
    `${what} needs Node.js ${MINIMUM_NODE_VERSION} or newer; this is Node.js ${running.version} ` +
    `(${running.execPath}). ${NODE_WITH_NPM_ALONE}`
  );
}

/**
 * How to get a Node.js new enough with npm alone: the \`node\` package of npm's registry ships the
 * binary, so this works wherever \`npm install\` does, offline machines with a registry mirror
 * included, where nodejs.org and a version manager's downloads do not. The plugin's launcher
 * (scripts/pluginArchive.ts) and the docs (README "Install", docs/languages.md) say the same.
 */
export const NODE_WITH_NPM_ALONE =
  'Get one with npm alone: npm install --prefix "$HOME/.local/node24" node@24, then ' +
  'export PATH="$HOME/.local/node24/node_modules/.bin:$PATH" and run again ' +
  "(or install one from https://nodejs.org/ or with a version manager).";
