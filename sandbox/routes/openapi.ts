import type { Hono } from "hono";
import type { SandboxEnv } from "../http/env.ts";
import { ok, registerOperations } from "../http/operationRoutes.ts";
import { DOCUMENT_OPERATIONS_BY_ID } from "./adminOperations.ts";
import { sandboxOpenApiDocuments } from "./openapiDocuments.ts";

/**
 * GET /openapi.json and GET /openapi/sandbox-admin.json: the OpenAPI documents, without
 * credentials (documentation holds no secret). Registered ahead of the bearer check.
 */
export function registerDocumentOperations(app: Hono<SandboxEnv>): void {
  registerOperations(app, DOCUMENT_OPERATIONS_BY_ID, {
    getServiceOpenApiDocument: () => ok(sandboxOpenApiDocuments().service),
    getSandboxAdminOpenApiDocument: () => ok(sandboxOpenApiDocuments().admin),
  });
}
