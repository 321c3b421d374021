import {
  BEARER_AUTH,
  DOCUMENTED_AS,
  SERVICE_OPERATIONS,
  SERVICE_SCHEMA_NAMES,
  type ApiOperation,
} from "../../sdk/contract/index.ts";
import { generateOpenApiDocument, type OpenApiDocument } from "../../sdk/contract/openapi.ts";
import { CONSOLE_OPERATIONS, CONSOLE_TAG } from "../console/consoleOperations.ts";
import { ADMIN_TOKEN_HEADER } from "../http/middleware.ts";
import { SIGNING_PROVIDER_OPERATIONS, SIGNING_TAG, STAMP_AUTH } from "../signing/operations.ts";
import {
  ADMIN_OPERATIONS,
  ADMIN_TAG,
  ADMIN_TOKEN_AUTH,
  DOCUMENTS_TAG,
  DOCUMENT_OPERATIONS,
} from "./adminOperations.ts";

/**
 * The sandbox's two OpenAPI 3.1 documents, generated from the operation tables: the service's
 * (every endpoint of the interface, and the signing provider's endpoints the sandbox stands in
 * for), served at `GET /openapi.json` and shipped in the package; and the admin API's, served at
 * `GET /openapi/sandbox-admin.json`. Generated once per process, on first use.
 */

/** The version the documents carry: the contract's, which is the package's (see docs/openapi.md). */
export const OPENAPI_DOCUMENT_VERSION = "2";

const BEARER = {
  type: "http",
  scheme: "bearer",
  description: "`Authorization: Bearer <API_TOKEN>` (spec 5); the token's organization scopes every call.",
} as const;

/** Every operation the sandbox serves, by document: what the route check compares with the app. */
export const SANDBOX_DOCUMENT_OPERATIONS: {
  service: readonly ApiOperation[];
  admin: readonly ApiOperation[];
} = {
  service: [...SERVICE_OPERATIONS, ...SIGNING_PROVIDER_OPERATIONS],
  admin: [...ADMIN_OPERATIONS, ...CONSOLE_OPERATIONS, ...DOCUMENT_OPERATIONS],
};

function serviceDocument(): OpenApiDocument {
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
    operations: SANDBOX_DOCUMENT_OPERATIONS.service,
    schemas: SERVICE_SCHEMA_NAMES,
    securitySchemes: {
      [BEARER_AUTH]: BEARER,
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

function adminDocument(): OpenApiDocument {
  return generateOpenApiDocument({
    info: {
      title: "Portfolio Wallet sandbox admin API",
      version: OPENAPI_DOCUMENT_VERSION,
      description:
        "The sandbox-only admin API (docs/sandbox.md): the shared clock and catalog, approval policies, faults, simulated deposits, the ledger audit, webhook deliveries and approver keys; and the console's read API (/_console/api). Not part of the service.",
    },
    tags: [
      {
        name: ADMIN_TAG,
        description: "Calls that act on the caller's organization, or on what every organization shares",
      },
      {
        name: CONSOLE_TAG,
        description: "Sandbox-only reads the console shows, authenticated and scoped like the service's API",
      },
      { name: DOCUMENTS_TAG, description: "The sandbox's OpenAPI documents" },
    ],
    operations: SANDBOX_DOCUMENT_OPERATIONS.admin,
    schemas: {},
    securitySchemes: {
      [BEARER_AUTH]: BEARER,
      [ADMIN_TOKEN_AUTH]: {
        type: "apiKey",
        in: "header",
        name: ADMIN_TOKEN_HEADER,
        description:
          "The sandbox's admin token, when it was started with one (--admin-token); without one, the bearer token alone is enough.",
      },
    },
  });
}

let documents: { service: OpenApiDocument; admin: OpenApiDocument } | undefined;

/** The sandbox's documents, generated on first use. */
export function sandboxOpenApiDocuments(): { service: OpenApiDocument; admin: OpenApiDocument } {
  documents ??= { service: serviceDocument(), admin: adminDocument() };
  return documents;
}
