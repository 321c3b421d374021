import type { Hono } from "hono";
import type { SandboxContext } from "../http/context.ts";
import type { SandboxEnv } from "../http/env.ts";
import { ok, registerOperations } from "../http/operationRoutes.ts";
import { sendTestEvent } from "../domain/events/testEvents.ts";
import { editWebhook } from "../domain/webhooks.ts";
import { NotFoundError } from "../domain/errors.ts";
import { consoleReadRoutes } from "./consoleApi.ts";
import { findAnyId, objectPage } from "./objectPages.ts";
import {
  CONSOLE_LOG_OPERATIONS,
  CONSOLE_READ_OPERATIONS,
  CONSOLE_WEBHOOK_OPERATIONS,
} from "./consoleOperations.ts";

/**
 * The console's operations (consoleOperations.ts: its reads, webhooks, the request log), on the
 * sandbox's app: authenticated as the API, each acting on the token's organization only (another
 * organization's registration is 404, as on the service's webhook endpoints). Due work settles
 * before any of them runs, as on every API read (sandbox/app.ts mounts that with the rest of the
 * request pipeline).
 */
export function registerConsoleOperations(app: Hono<SandboxEnv>, ctx: SandboxContext): void {
  registerOperations(app, CONSOLE_READ_OPERATIONS, consoleReadRoutes(ctx));
  const deps = {
    db: ctx.db,
    clocks: ctx.clocks,
    urlPolicy: ctx.webhookUrlPolicy,
    inboxes: ctx.webhookInboxes,
  };
  registerOperations(app, CONSOLE_WEBHOOK_OPERATIONS, {
    consoleEditWebhookRegistration: ({ path, body }, org) =>
      ok(editWebhook(deps, org, path.registrationId, body)),
    consoleSendTestEvent: ({ path, body }, org) => ({
      status: 201,
      body: sendTestEvent(
        // The event's createdAt is on the organization's clock, as every event's.
        { db: ctx.db, events: ctx.money.events, at: ctx.clocks.now(org).toISOString() },
        org,
        path.registrationId,
        body.eventType,
      ),
    }),
  });
  registerOperations(app, CONSOLE_LOG_OPERATIONS, {
    consoleRequestLog: ({ query }, org) => ok({ data: ctx.requestLog.list(org, query) }),
    consoleFindId: ({ path }, org) => {
      const found = findAnyId(ctx, org, path.id);
      if (found === null) throw new NotFoundError(`nothing of id ${path.id} in this organization`);
      return ok(found);
    },
    consoleObjectPage: ({ path }, org) => {
      const page = objectPage(ctx, org, path.id);
      if (page === null) throw new NotFoundError(`nothing of id ${path.id} in this organization`);
      return ok(page);
    },
    consoleLoggedRequest: ({ path }, org) => {
      const found = ctx.requestLog.find(org, path.requestId);
      if (found === null) throw new NotFoundError(`request ${path.requestId} in this organization's log`);
      return ok(found);
    },
  });
}
