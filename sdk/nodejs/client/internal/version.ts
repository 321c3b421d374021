/**
 * The package's version as code reads it, written once here: the client's User-Agent and
 * `portfolio-wallet --version` both say it. A constant rather than a read of package.json at run
 * time, because the plugin archive bundles this module into one file with no package.json beside
 * it. package.json's own `version` cannot import it; test/sdk/client/version.test.ts holds the two equal.
 */
export const CLIENT_VERSION = "0.1.0";
