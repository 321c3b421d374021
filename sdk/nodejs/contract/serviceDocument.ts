import { generateOpenApiDocument, type OpenApiDocument, type SecurityScheme } from "./openapi.ts";
import {
  BEARER_AUTH,
  DOCUMENTED_AS,
  SERVICE_OPERATIONS,
  SERVICE_SCHEMA_NAMES,
  type ApiOperation,
} from "./operations.ts";
import { SIGNING_PROVIDER_OPERATIONS, SIGNING_TAG, STAMP_AUTH } from "./signingProvider.ts";

/**
 * The published OpenAPI 3.1 document of the service, generated from the operation tables: every
 * endpoint of the interface, and the signing provider's endpoints the sandbox stands in for. A
 * sandbox serves it at `GET /openapi.json`, `portfolio-wallet openapi` prints it, and the package
 * ships it (docs/openapi.md). Kept out of the contract's index: only what publishes a document
 * loads the generator.
 */

/** The version the documents carry: the contract's, which is the package's (see docs/openapi.md). */
export const OPENAPI_DOCUMENT_VERSION = "2";

/** The bearer token of the service's API (spec 5); the sandbox's admin document names it too. */
export const BEARER_SCHEME: SecurityScheme = {
  type: "http",
  scheme: "bearer",
  description: "`Authorization: Bearer <API_TOKEN>` (spec 5); the token's organization scopes every call.",
};

/** Every operation the published document lists, in its order. */
export const PUBLISHED_OPERATIONS: readonly ApiOperation[] = [
  ...SERVICE_OPERATIONS,
  ...SIGNING_PROVIDER_OPERATIONS,
];

function generateServiceDocument(): OpenApiDocument {
  return generateOpenApiDocument({
    info: {
      title: "Portfolio Wallet Yield Service",
      version: OPENAPI_DOCUMENT_VERSION,
      description: [
        "The service interface (portfolio wallets under /v2, webhook registrations) as this project's contract checks it, with the choices of docs/spec-gaps.md where the interface shows nothing: success statuses, list shapes, the error body `{ error: { code, message, requestId, details } }` and its statuses.",
        "Ids are UUID strings in any canonical 8-4-4-4-12 hex form (not only RFC 9562 variants). Timestamps are ISO 8601 date-times; processing times ISO 8601 durations. Weights are whole basis points (`integer`): allocations are kept in whole bps, 10000 = 100%.",
        `Also the signing provider's endpoints (tag "${SIGNING_TAG}") that the sandbox serves in Turnkey's shapes. The sandbox's admin API has its own document: /openapi/sandbox-admin.json.`,
      ].join("\n\n"),
    },
    tags: [
      {
        name: "Portfolio wallets",
        description: "Quotes, wallets, strategy updates, withdrawals, deposits, yield (spec 4.1–4.12)",
      },
      {
        name: "Webhook registrations",
        description: "Where events are delivered (spec 4.13, 6); no /v2 prefix",
      },
      {
        name: SIGNING_TAG,
        description: "Turnkey's approval endpoints, as the sandbox serves them (spec 4.14)",
      },
    ],
    operations: PUBLISHED_OPERATIONS,
    schemas: SERVICE_SCHEMA_NAMES,
    securitySchemes: {
      [BEARER_AUTH]: BEARER_SCHEME,
      [STAMP_AUTH]: {
        type: "apiKey",
        in: "header",
        name: "X-Stamp",
        description:
          "Turnkey's API-key stamp: base64url JSON { publicKey, scheme: SIGNATURE_SCHEME_TK_API_P256, signature } signing the exact body bytes with a registered P-256 API key.",
      },
    },
    documentedAs: DOCUMENTED_AS,
  });
}

let serviceDocument: OpenApiDocument | undefined;

/** The published document, generated on first use. */
export function publishedOpenApiDocument(): OpenApiDocument {
  serviceDocument ??= generateServiceDocument();
  return serviceDocument;
}
