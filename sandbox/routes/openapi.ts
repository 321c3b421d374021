import { Hono } from "hono";
import type { SandboxEnv } from "../http/env.ts";
import { sandboxOpenApiDocuments } from "./openapiDocuments.ts";

/**
 * GET /openapi.json and GET /openapi/sandbox-admin.json: the OpenAPI documents, without
 * credentials (documentation holds no secret). Mounted ahead of the bearer check.
 */
export function openApiRoutes(): Hono<SandboxEnv> {
  const routes = new Hono<SandboxEnv>();
  routes.get("/openapi.json", (c) => c.json(sandboxOpenApiDocuments().service));
  routes.get("/openapi/sandbox-admin.json", (c) => c.json(sandboxOpenApiDocuments().admin));
  return routes;
}
