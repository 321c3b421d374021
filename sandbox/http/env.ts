import type { HttpBindings } from "@hono/node-server";

/** Per-request values set by the middleware and read by handlers. */
export type SandboxVariables = {
  /** The service's id for this request, echoed as `x-request-id` and in error bodies. */
  requestId: string;
  /** The organization the bearer token belongs to; every query is scoped to it. */
  organizationId: string;
  /** On admin calls: what the admin token sent may do (set by adminGateMiddleware). */
  adminScope?: AdminScope;
  /**
   * The value an operation answered with, before it became JSON text (set by registerOperations),
   * so the request log keeps it without reading the answer back.
   */
  answerBody?: unknown;
};

/** What an admin call's token may act on: the whole sandbox, or one organization's admin calls. */
export type AdminScope = { kind: "sandbox" } | { kind: "organization"; organizationId: string };

/** Hono environment of the sandbox: node bindings give the raw socket (fault injection drops it). */
export type SandboxEnv = { Bindings: HttpBindings; Variables: SandboxVariables };
