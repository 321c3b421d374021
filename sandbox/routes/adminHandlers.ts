import type { OperationRoutes } from "../http/operationRoutes.ts";
import type { ADMIN_OPERATIONS_BY_ID, DOCUMENT_OPERATIONS_BY_ID } from "./adminOperations.ts";

/**
 * What the sandbox does for each operation of the admin table, by operationId. Its own module,
 * below both the route files that each fill a part of it and `adminRoutes.ts` that joins them.
 */
export type AdminRoutes = OperationRoutes<typeof ADMIN_OPERATIONS_BY_ID>;

/** What the sandbox answers for each of its OpenAPI documents' own routes. */
export type DocumentRoutes = OperationRoutes<typeof DOCUMENT_OPERATIONS_BY_ID>;
