export { mountSigningProvider } from "./mountSigningProvider.ts";
export { SIGNING_PROVIDER_PREFIX } from "../../sdk/nodejs/contract/signingProvider.ts";
