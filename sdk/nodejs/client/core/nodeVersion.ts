/**
 * The oldest Node.js this package runs on (the floor of its HTTP client, undici), in one place: package.json's `engines.node` says the
 * same (test/release/nodeVersion.test.ts), and the native plugin's launcher is written from it
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
    `(${running.execPath}). Install a newer Node.js (https://nodejs.org/, or your version manager: ` +
    `\`nvm install 22\`, \`fnm use 22\`), put it first on PATH and run again.`
  );
}
