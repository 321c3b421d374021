import { afterAll, beforeAll, describe, expect, test } from "vitest";
import {
  CreatedWebhookRegistrationSchema,
  WebhookRegistrationListSchema,
  WebhookRegistrationSchema,
} from "../../../sdk/nodejs/contract/index.ts";
import { startTestSandbox, uuid, type TestSandbox } from "../helpers.ts";

let t: TestSandbox;
beforeAll(async () => {
  t = await startTestSandbox();
});
afterAll(() => t.close());

const registration = (overrides: Record<string, unknown> = {}) => ({
  url: "https://example.com/hooks",
  eventTypes: ["portfolio_wallet.balance.updated", "portfolio_wallet.strategy.status_changed"],
  description: "ops",
  ...overrides,
});
const create = async (overrides: Record<string, unknown> = {}) =>
  (await t.api("POST", "/webhooks/registrations", { body: registration(overrides) })).body;

describe("POST /webhooks/registrations", () => {
  test("creates an active registration (201) and answers its secret once", async () => {
    const res = await t.api("POST", "/webhooks/registrations", { body: registration() });
    expect(res.status).toBe(201);
    const created = CreatedWebhookRegistrationSchema.parse(res.body);
    expect(created).toMatchObject({
      status: "active",
      disabledAt: null,
      disabledReason: null,
      description: "ops",
    });
    expect(created.secret).toMatch(/^whsec_[A-Za-z0-9_-]{43}$/);
    const read = await t.api("GET", `/webhooks/registrations/${created.id}`);
    expect(read.body.secret).toBeUndefined();
    const other = await create();
    expect(other.secret).not.toBe(created.secret);
  });

  test("a requestId makes creation idempotent (200 replay, 409 on a different body)", async () => {
    const requestId = uuid();
    const first = await t.api("POST", "/webhooks/registrations", { body: registration({ requestId }) });
    const replay = await t.api("POST", "/webhooks/registrations", { body: registration({ requestId }) });
    expect(first.status).toBe(201);
    expect(replay.status).toBe(200);
    expect(replay.body.id).toBe(first.body.id);
    expect(replay.body.secret).toBe(first.body.secret);
    const conflict = await t.api("POST", "/webhooks/registrations", {
      body: registration({ requestId, url: "https://example.com/other" }),
    });
    expect(conflict.status).toBe(409);
  });

  test("rejects unknown event types and non-http urls, naming each field", async () => {
    const res = await t.api("POST", "/webhooks/registrations", {
      body: { url: "ftp://x", eventTypes: ["nope"] },
    });
    expect(res.status).toBe(400);
    expect(res.body.error.details.map((d: { field: string }) => d.field).sort()).toEqual([
      "eventTypes[0]",
      "url",
    ]);
  });
});

describe("PATCH /webhooks/registrations/:id/status", () => {
  test("disabling sets disabledAt and disabledReason; re-activating clears them", async () => {
    const hook = await create();
    const disabled = await t.api("PATCH", `/webhooks/registrations/${hook.id}/status`, {
      body: { status: "disabled", disabledReason: "endpoint retired" },
    });
    expect(disabled.status).toBe(200);
    WebhookRegistrationSchema.parse(disabled.body);
    expect(disabled.body).toMatchObject({ status: "disabled", disabledReason: "endpoint retired" });
    expect(disabled.body.disabledAt).toEqual(expect.any(String));
    const active = await t.api("PATCH", `/webhooks/registrations/${hook.id}/status`, {
      body: { status: "active" },
    });
    expect(active.body).toMatchObject({ status: "active", disabledAt: null, disabledReason: null });
  });

  test("rejects a status other than active or disabled", async () => {
    const hook = await create();
    const res = await t.api("PATCH", `/webhooks/registrations/${hook.id}/status`, {
      body: { status: "paused" },
    });
    expect(res.status).toBe(400);
    expect(res.body.error.details[0].field).toBe("status");
  });

  test("is 404 for an unknown registration", async () => {
    const res = await t.api("PATCH", `/webhooks/registrations/${uuid()}/status`, {
      body: { status: "active" },
    });
    expect(res.status).toBe(404);
  });
});

/** The store's order of text (SQLite compares TEXT by its bytes): no locale. */
const byText = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

describe("GET /webhooks/registrations", () => {
  test("pages newest first", async () => {
    const own = await startTestSandbox();
    try {
      const created: { id: string; createdAt: string }[] = [];
      for (let i = 0; i < 5; i++) {
        created.push((await own.api("POST", "/webhooks/registrations", { body: registration() })).body);
      }
      // Oldest first by the documented order (createdAt, ties broken by id): two registrations
      // made in the same millisecond, as on a busy machine, are ordered by their ids.
      const ids = created
        .sort((a, b) => byText(a.createdAt, b.createdAt) || byText(a.id, b.id))
        .map((h) => h.id);
      const first = WebhookRegistrationListSchema.parse(
        (await own.api("GET", "/webhooks/registrations?pageSize=3")).body,
      );
      expect(first.data.map((h) => h.id)).toEqual(ids.slice(2).reverse());
      expect(first.data.every((h) => !("secret" in h))).toBe(true);
      const second = WebhookRegistrationListSchema.parse(
        (
          await own.api(
            "GET",
            `/webhooks/registrations?pageSize=3&cursor=${encodeURIComponent(first.nextCursor ?? "")}`,
          )
        ).body,
      );
      expect(second.data.map((h) => h.id)).toEqual(ids.slice(0, 2).reverse());
      expect(second.nextCursor).toBeNull();
    } finally {
      await own.close();
    }
  });
});

describe("DELETE /webhooks/registrations/:id", () => {
  test("answers 204 and the registration is gone", async () => {
    const hook = await create();
    const res = await t.api("DELETE", `/webhooks/registrations/${hook.id}`);
    expect(res.status).toBe(204);
    expect(res.body).toBeNull();
    expect((await t.api("GET", `/webhooks/registrations/${hook.id}`)).status).toBe(404);
    expect((await t.api("DELETE", `/webhooks/registrations/${hook.id}`)).status).toBe(404);
  });
});
