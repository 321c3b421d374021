import { Hono } from "hono";
import {
  CreateWebhookRegistrationRequestSchema,
  WebhookStatusUpdateRequestSchema,
} from "../../sdk/contract/index.ts";
import type { SandboxContext } from "../http/context.ts";
import {
  createWebhook,
  getWebhook,
  listWebhookPage,
  removeWebhook,
  setWebhookStatus,
} from "../domain/webhooks.ts";
import type { SandboxEnv } from "../http/env.ts";
import { parsePageQuery, readBody, uuidParam } from "../http/validation.ts";

/** Webhook registrations (spec 4.13; listing and deletion per docs/spec-gaps.md). No /v2 prefix (spec 9.1). */
export function webhookRoutes(ctx: SandboxContext): Hono<SandboxEnv> {
  const routes = new Hono<SandboxEnv>();
  const deps = { db: ctx.db, clock: ctx.clock, urlPolicy: ctx.webhookUrlPolicy };
  routes.post("/", async (c) => {
    const body = await readBody(c, CreateWebhookRegistrationRequestSchema);
    const { registration, replayed } = createWebhook(deps, c.get("organizationId"), body);
    return c.json(registration, replayed ? 200 : 201);
  });
  routes.get("/", (c) => c.json(listWebhookPage(deps, c.get("organizationId"), parsePageQuery(c))));
  routes.get("/:registrationId", (c) =>
    c.json(getWebhook(deps, c.get("organizationId"), uuidParam(c, "registrationId"))),
  );
  routes.patch("/:registrationId/status", async (c) => {
    const id = uuidParam(c, "registrationId");
    const body = await readBody(c, WebhookStatusUpdateRequestSchema);
    return c.json(setWebhookStatus(deps, c.get("organizationId"), id, body));
  });
  routes.delete("/:registrationId", (c) => {
    removeWebhook(deps, c.get("organizationId"), uuidParam(c, "registrationId"));
    return c.body(null, 204);
  });
  return routes;
}
