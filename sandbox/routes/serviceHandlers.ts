import type { SERVICE_OPERATIONS_BY_ID } from "../../sdk/nodejs/contract/index.ts";
import type { OperationRoutes } from "../http/operationRoutes.ts";

/**
 * What the sandbox does for each operation of the service's table, by operationId. Its own module,
 * below both the route files that each fill a part of it and `serviceRoutes.ts` that joins them.
 */
export type ServiceRoutes = OperationRoutes<typeof SERVICE_OPERATIONS_BY_ID>;
