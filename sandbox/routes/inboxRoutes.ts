import type { Hono } from "hono";
import type { SandboxContext } from "../http/context.ts";
import type { SandboxEnv } from "../http/env.ts";
import { ok, registerOperations } from "../http/operationRoutes.ts";
import { INBOX_OPERATIONS } from "./inboxOperations.ts";

/** The webhook inboxes' API (inboxOperations.ts), each call on the token's organization's inboxes only. */
export function registerInboxOperations(app: Hono<SandboxEnv>, ctx: SandboxContext): void {
  const inboxes = ctx.webhookInboxes;
  registerOperations(app, INBOX_OPERATIONS, {
    sandboxListInboxes: (_input, org) => ok({ data: inboxes.list(org) }),
    sandboxConfigureInbox: ({ path, body }, org) => ok(inboxes.configure(org, path.name, body)),
    sandboxGetInbox: ({ path }, org) => ok(inboxes.get(org, path.name)),
    sandboxDeleteInbox: ({ path }, org) => {
      inboxes.remove(org, path.name);
      return { status: 204 };
    },
    sandboxInboxDeliveries: ({ path, query }, org) => ok({ data: inboxes.deliveries(org, path.name, query) }),
    sandboxClearInbox: ({ path }, org) => {
      inboxes.clear(org, path.name);
      return { status: 204 };
    },
    sandboxInboxDelivery: ({ path }, org) => ok(inboxes.delivery(org, path.name, path.id)),
  });
}
