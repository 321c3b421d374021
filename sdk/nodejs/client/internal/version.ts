/** Sent in the User-Agent header: the package version (test/client/version.test.ts holds them equal). */
export const CLIENT_VERSION = "0.1.0";
