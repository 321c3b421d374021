import type { SandboxContext } from "../http/context.ts";
import {
  createWebhook,
  getWebhook,
  listWebhookPage,
  removeWebhook,
  setWebhookStatus,
} from "../domain/webhooks.ts";
import { pageRequestOf } from "../http/validation.ts";
import { created, ok } from "../http/operationRoutes.ts";
import type { ServiceRoutes } from "./serviceHandlers.ts";

/** Webhook registrations (spec 4.13; listing and deletion per docs/spec-gaps.md). No /v2 prefix (spec 9.1). */
export function webhookRoutes(ctx: SandboxContext) {
  const deps = {
    db: ctx.db,
    clocks: ctx.clocks,
    urlPolicy: ctx.webhookUrlPolicy,
    inboxes: ctx.webhookInboxes,
  };
  return {
    createWebhookRegistration: ({ body }, org) => {
      const { registration, replayed } = createWebhook(deps, org, body);
      return created(registration, replayed);
    },
    listWebhookRegistrations: ({ query }, org) => ok(listWebhookPage(deps, org, pageRequestOf(query))),
    getWebhookRegistration: ({ path }, org) => ok(getWebhook(deps, org, path.registrationId)),
    updateWebhookRegistrationStatus: ({ path, body }, org) =>
      ok(setWebhookStatus(deps, org, path.registrationId, body)),
    deleteWebhookRegistration: ({ path }, org) => {
      removeWebhook(deps, org, path.registrationId);
      return { status: 204 };
    },
  } satisfies Partial<ServiceRoutes>;
}
