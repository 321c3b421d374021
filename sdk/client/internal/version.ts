/** Sent in the User-Agent header; keep in step with package.json. */
export const CLIENT_VERSION = "0.1.0";
