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
import type { ServiceRoutes } from "./serviceRoutes.ts";

/** Webhook registrations (spec 4.13; listing and deletion per docs/spec-gaps.md). No /v2 prefix (spec 9.1). */
export function webhookRoutes(ctx: SandboxContext) {
  const deps = { db: ctx.db, clock: ctx.clock, urlPolicy: ctx.webhookUrlPolicy };
  return {
    createWebhookRegistration: {
      handle: ({ body }, organizationId) => {
        const { registration, replayed } = createWebhook(deps, organizationId, body);
        return created(registration, replayed);
      },
    },
    listWebhookRegistrations: {
      handle: ({ query }, organizationId) => ok(listWebhookPage(deps, organizationId, pageRequestOf(query))),
    },
    getWebhookRegistration: {
      handle: ({ path }, organizationId) => ok(getWebhook(deps, organizationId, path.registrationId)),
    },
    updateWebhookRegistrationStatus: {
      handle: ({ path, body }, organizationId) =>
        ok(setWebhookStatus(deps, organizationId, path.registrationId, body)),
    },
    deleteWebhookRegistration: {
      handle: ({ path }, organizationId) => {
        removeWebhook(deps, organizationId, path.registrationId);
        return { status: 204 };
      },
    },
  } satisfies Partial<ServiceRoutes>;
}
