import { describe, expect, test } from "vitest";
import {
  addFault,
  baseConfig,
  checked,
  clientOf,
  mutatingKeys,
  providerOf,
  requestCounts,
  resetRequestCounts,
  urnOf,
  useProviderSandbox,
} from "./helpers.ts";

const webhooks = providerOf("webhookRegistration");

const t = useProviderSandbox({ configure: [webhooks] });

const BALANCE = "portfolio_wallet.balance.updated";
const STRATEGY = "portfolio_wallet.strategy.status_changed";

const webhookNews = (overrides: Record<string, unknown> = {}) => ({
  resourceUrn: urnOf("WebhookRegistration"),
  url: "https://hooks.example.com/portfolio",
  eventTypes: [STRATEGY, BALANCE],
  description: "treasury events",
  ...overrides,
});

async function createWebhook(news: Record<string, unknown>) {
  const inputs = await checked(webhooks, {}, news);
  const { id, outs } = await webhooks.create(inputs);
  return { id: id as string, outs, inputs };
}

async function registrationIds(): Promise<string[]> {
  const res = await t.api("GET", "/webhooks/registrations?pageSize=100");
  expect(res.status).toBe(200);
  return res.body.data.map((registration: { id: string }) => registration.id);
}

describe("WebhookRegistration", () => {
  test("create registers once and returns the signing secret as an output", async () => {
    await resetRequestCounts(t);
    const { id, outs } = await createWebhook(webhookNews());
    expect(mutatingKeys(await requestCounts(t))).toEqual(["POST /webhooks/registrations"]);
    expect(outs).toMatchObject({
      registrationId: id,
      status: "active",
      enabled: true,
      url: "https://hooks.example.com/portfolio",
      eventTypes: [BALANCE, STRATEGY],
      description: "treasury events",
      disabledAt: null,
      secret: expect.any(String),
    });
    expect(outs.secret.length).toBeGreaterThan(0);
    expect(await registrationIds()).toContain(id);
  });

  test("created disabled: the status PATCH follows the POST", async () => {
    await resetRequestCounts(t);
    const { outs } = await createWebhook(webhookNews({ enabled: false, disabledReason: "not yet" }));
    expect(mutatingKeys(await requestCounts(t)).sort()).toEqual(
      ["PATCH /webhooks/registrations/:registrationId/status", "POST /webhooks/registrations"].sort(),
    );
    expect(outs).toMatchObject({ status: "disabled", enabled: false, disabledReason: "not yet" });
  });

  test("a create whose answers were lost makes one registration, and the resumed create learns its secret", async () => {
    const news = webhookNews();
    const inputs = await checked(webhooks, {}, news);
    const before = await registrationIds();
    // With no retry budget the request is sent once, and its answer is lost after it was applied.
    await webhooks.configure({ ...baseConfig(t), "portfolio-wallet:retryTimeoutSeconds": "0" });
    await addFault(t, { method: "POST", path: "/webhooks/registrations", times: 1, kind: "drop" });
    await expect(webhooks.create(inputs)).rejects.toThrow(/was sent once/);
    const afterFailure = await registrationIds();
    expect(afterFailure).toHaveLength(before.length + 1);

    const { id, outs } = await webhooks.create(inputs);
    expect(await registrationIds()).toEqual(afterFailure);
    expect(afterFailure).toContain(id);
    expect(outs.secret).toEqual(expect.any(String));
  });

  test("diff: url, eventTypes and description replace; enabled updates; reordering is no change", async () => {
    const news = webhookNews();
    const { id, outs } = await createWebhook(news);
    const diffWith = async (overrides: Record<string, unknown>) =>
      webhooks.diff(id, outs, await checked(webhooks, outs, { ...news, ...overrides }));

    expect(await diffWith({})).toMatchObject({ changes: false, replaces: [] });
    expect(await diffWith({ eventTypes: [BALANCE, STRATEGY] })).toMatchObject({
      changes: false,
      replaces: [],
    });
    expect(await diffWith({ url: "https://hooks.example.com/other" })).toMatchObject({
      changes: true,
      replaces: ["url"],
    });
    expect(await diffWith({ eventTypes: [BALANCE] })).toMatchObject({
      changes: true,
      replaces: ["eventTypes"],
    });
    expect(await diffWith({ description: "other" })).toMatchObject({
      changes: true,
      replaces: ["description"],
    });
    expect(await diffWith({ enabled: false })).toMatchObject({ changes: true, replaces: [] });
    // A disabledReason only matters while disabled.
    expect(await diffWith({ disabledReason: "ignored while enabled" })).toMatchObject({ changes: false });
  });

  test("update changes the status through the PATCH and keeps the secret", async () => {
    const news = webhookNews();
    const { id, outs } = await createWebhook(news);
    await resetRequestCounts(t);
    const disabledNews = await checked(webhooks, outs, {
      ...news,
      enabled: false,
      disabledReason: "maintenance",
    });
    const { outs: disabled } = await webhooks.update(id, outs, disabledNews);
    expect(mutatingKeys(await requestCounts(t))).toEqual([
      "PATCH /webhooks/registrations/:registrationId/status",
    ]);
    expect(disabled).toMatchObject({ status: "disabled", enabled: false, disabledReason: "maintenance" });
    expect(disabled.disabledAt).toEqual(expect.any(String));
    expect(disabled.secret).toBe(outs.secret);

    const { outs: enabled } = await webhooks.update(id, disabled, await checked(webhooks, disabled, news));
    expect(enabled).toMatchObject({ status: "active", enabled: true, disabledAt: null });
    const live = await clientOf(t).webhookRegistrations.retrieve(id);
    expect(live.status).toBe("active");
  });

  test("read: an out-of-band disable is a diff back to the code; the secret stays an output, not an input", async () => {
    const news = webhookNews();
    const { id, outs } = await createWebhook(news);
    await clientOf(t).webhookRegistrations.updateStatus(id, {
      status: "disabled",
      disabledReason: "by hand",
    });

    const refreshed = await webhooks.read(id, outs);
    expect(refreshed.id).toBe(id);
    expect(refreshed.inputs).toMatchObject({ enabled: false, disabledReason: "by hand" });
    expect(refreshed.inputs).not.toHaveProperty("secret");
    expect(refreshed.props.secret).toBe(outs.secret);
    const diff = await webhooks.diff(id, refreshed.props, await checked(webhooks, refreshed.inputs, news));
    expect(diff).toMatchObject({ changes: true, replaces: [] });
  });

  test("read of a deleted registration leaves state cleanly", async () => {
    const { id, outs } = await createWebhook(webhookNews());
    await clientOf(t).webhookRegistrations.delete(id);
    expect(await webhooks.read(id, outs)).toMatchObject({ id: "" });
  });

  test("delete deletes at the service; deleting again is no error", async () => {
    const { id, outs } = await createWebhook(webhookNews());
    await resetRequestCounts(t);
    await webhooks.delete(id, outs);
    expect(mutatingKeys(await requestCounts(t))).toEqual(["DELETE /webhooks/registrations/:registrationId"]);
    expect(await registrationIds()).not.toContain(id);
    await expect(webhooks.delete(id, outs)).resolves.toBeUndefined();
  });

  test("re-created under the same name after a delete, it registers anew", async () => {
    const news = webhookNews();
    const first = await createWebhook(news);
    await webhooks.delete(first.id, first.outs);
    const second = await createWebhook(news);
    expect(second.id).not.toBe(first.id);
    expect(await registrationIds()).toContain(second.id);
  });
});
