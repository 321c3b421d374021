import type { ApiOperation } from "../../sdk/nodejs/contract/index.ts";
import { generateOpenApiDocument, type OpenApiDocument } from "../../sdk/nodejs/contract/openapi.ts";
import {
  BEARER_SCHEME,
  OPENAPI_DOCUMENT_VERSION,
  PUBLISHED_OPERATIONS,
  publishedOpenApiDocument,
} from "../../sdk/nodejs/contract/serviceDocument.ts";
import { BEARER_AUTH } from "../../sdk/nodejs/contract/operations.ts";
import { CONSOLE_OPERATIONS, CONSOLE_TAG } from "../console/consoleOperations.ts";
import { ADMIN_TOKEN_HEADER } from "../http/identityMiddleware.ts";
import { INBOX_OPERATION_LIST, INBOX_TAG } from "./inboxOperations.ts";
import {
  ADMIN_OPERATIONS,
  ADMIN_TAG,
  ADMIN_TOKEN_AUTH,
  DOCUMENTS_TAG,
  DOCUMENT_OPERATIONS,
} from "./adminOperations.ts";

/**
 * The sandbox's two OpenAPI 3.1 documents: the service's, which is the published one
 * (`sdk/nodejs/contract/serviceDocument.ts`), served at `GET /openapi.json`; and the admin API's, served
 * at `GET /openapi/sandbox-admin.json`. The admin document is generated here, not in the contract:
 * the admin API and the console's read API exist only in the sandbox, and their tables name the
 * sandbox's own schemas and headers.
 */

/** Every operation the sandbox serves, by document: what the route check compares with the app. */
export const SANDBOX_DOCUMENT_OPERATIONS: {
  service: readonly ApiOperation[];
  admin: readonly ApiOperation[];
} = {
  service: PUBLISHED_OPERATIONS,
  admin: [...ADMIN_OPERATIONS, ...CONSOLE_OPERATIONS, ...INBOX_OPERATION_LIST, ...DOCUMENT_OPERATIONS],
};

function adminDocument(): OpenApiDocument {
  return generateOpenApiDocument({
    info: {
      title: "Portfolio Wallet sandbox admin API",
      version: OPENAPI_DOCUMENT_VERSION,
      description:
        "The sandbox-only admin API (docs/sandbox.md): each organization's clock and rates (or every organization's, with the sandbox's admin token), its emulated rate limit, approval policies, faults, simulated deposits, the ledger audit, webhook deliveries and approver keys; and the console's read API (/_console/api). Not part of the service.",
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
      {
        name: INBOX_TAG,
        description:
          "Receivers the sandbox hosts for tests: what each received, its signature check, and what it answers",
      },
      { name: DOCUMENTS_TAG, description: "The sandbox's OpenAPI documents" },
    ],
    operations: SANDBOX_DOCUMENT_OPERATIONS.admin,
    schemas: {},
    securitySchemes: {
      [BEARER_AUTH]: BEARER_SCHEME,
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

let admin: OpenApiDocument | undefined;

/** The sandbox's documents: the published one, and the admin API's (generated on first use). */
export function sandboxOpenApiDocuments(): { service: OpenApiDocument; admin: OpenApiDocument } {
  admin ??= adminDocument();
  return { service: publishedOpenApiDocument(), admin };
}
