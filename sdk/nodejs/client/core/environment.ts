/**
 * The environment variables a client reads when an option is not given. The one place their
 * names are written: the provider settings (sdk/nodejs/stackSettings.ts) and the error hints use these.
 */
export const BASE_URL_ENV = "PORTFOLIO_WALLET_BASE_URL";
export const API_TOKEN_ENV = "PORTFOLIO_WALLET_API_TOKEN";
