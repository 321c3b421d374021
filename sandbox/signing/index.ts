export { mountSigningProvider, SIGNING_ADMIN_PREFIX } from "./mountSigningProvider.ts";
export { SIGNING_PROVIDER_PREFIX } from "./providerRoutes.ts";
