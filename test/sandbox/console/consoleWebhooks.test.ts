import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { verifyWebhookSignature } from "../../../sdk/nodejs/webhooks/index.ts";
import { startReceiver, type Receiver } from "../domain/events/harness/receiver.ts";
import { eventually, OTHER_TOKEN, startTestSandbox, type TestSandbox } from "../helpers.ts";

/**
 * The console's webhook operations (sandbox/console/consoleOperations.ts): a test event sent and
 * signed as every event, and a registration's URL and event types edited; each only on the token's
 * organization's registrations, each bad input refused naming its field.
 */

const BALANCE = "portfolio_wallet.balance.updated";
const DEPOSIT = "portfolio_wallet.deposit.status_changed";

let t: TestSandbox;
let receiver: Receiver;
let otherReceiver: Receiver;
beforeAll(async () => {
  t = await startTestSandbox({ allowPrivateWebhookUrls: true });
  receiver = await startReceiver(() => 204);
  otherReceiver = await startReceiver(() => 204);
});
afterAll(async () => {
  await receiver.close();
  await otherReceiver.close();
  await t.close();
});

async function register(url: string, eventTypes: string[], token?: string) {
  const made = await t.api("POST", "/webhooks/registrations", {
    body: { url, eventTypes },
    ...(token === undefined ? {} : { token }),
  });
  expect(made.status).toBe(201);
  return made.body as { id: string; secret: string };
}

const testEventPath = (id: string) => `/_console/api/webhook-registrations/${id}/test-events`;
const editPath = (id: string) => `/_console/api/webhook-registrations/${id}`;

describe("a test event", () => {
  test("goes to that registration only, marked test, signed with its secret, and is listed among its deliveries", async () => {
    const hook = await register(receiver.url, [BALANCE, DEPOSIT]);
    const bystander = await register(otherReceiver.url, [DEPOSIT]);
    const before = receiver.requests.length;
    const sent = await t.api("POST", testEventPath(hook.id), { body: { eventType: DEPOSIT } });
    expect(sent.status).toBe(201);
    expect(sent.body).toMatchObject({ registrationId: hook.id, eventType: DEPOSIT, status: "pending" });
    await eventually(async () => receiver.requests.length > before);
    const got = receiver.requests.at(-1)!;
    const event = JSON.parse(got.body);
    expect(event).toMatchObject({ type: DEPOSIT, test: true, organizationId: "org-a" });
    expect(event.data.deposit).toMatchObject({ status: "completed" });
    expect(got.headers["x-portfolio-event-id"]).toBe(event.id);
    expect(verifyWebhookSignature({ payload: got.body, headers: got.headers, secret: hook.secret })).toBe(
      true,
    );
    expect(
      verifyWebhookSignature({ payload: got.body, headers: got.headers, secret: bystander.secret }),
    ).toBe(false);
    // Only the registration asked for got it, though the other one subscribes to the type too.
    expect(otherReceiver.requests).toHaveLength(0);
    await eventually(async () => {
      const listed = await t.api("GET", `/_console/api/webhook-deliveries?registrationId=${hook.id}`);
      return listed.body.data.some(
        (d: { id: string; status: string }) => d.id === sent.body.id && d.status === "succeeded",
      );
    });
    const detail = await t.api("GET", `/_console/api/webhook-deliveries/${sent.body.id}`);
    expect(detail.body.payload).toEqual(event);
  });

  test("is refused for a type the registration does not subscribe to, an unknown type, a disabled registration, and another organization's", async () => {
    const hook = await register(receiver.url, [BALANCE]);
    const unsubscribed = await t.api("POST", testEventPath(hook.id), { body: { eventType: DEPOSIT } });
    expect(unsubscribed.status).toBe(400);
    expect(unsubscribed.body.error.details).toEqual([
      expect.objectContaining({ field: "eventType", reason: expect.stringContaining("does not subscribe") }),
    ]);
    for (const body of [{ eventType: "portfolio_wallet.nope" }, {}, { eventType: 7 }]) {
      const refused = await t.api("POST", testEventPath(hook.id), { body });
      expect(refused.status).toBe(400);
      expect(refused.body.error.details[0].field).toBe("eventType");
    }
    const badId = await t.api("POST", testEventPath("not-a-uuid"), { body: { eventType: BALANCE } });
    expect(badId.status).toBe(400);
    expect(badId.body.error.details[0].field).toBe("registrationId");

    const theirs = await register(otherReceiver.url, [BALANCE], OTHER_TOKEN);
    const across = await t.api("POST", testEventPath(theirs.id), { body: { eventType: BALANCE } });
    expect(across.status).toBe(404);
    expect(JSON.stringify(across.body)).not.toContain(otherReceiver.url);
    expect(otherReceiver.requests).toHaveLength(0);

    await t.api("PATCH", `/webhooks/registrations/${hook.id}/status`, { body: { status: "disabled" } });
    const disabled = await t.api("POST", testEventPath(hook.id), { body: { eventType: BALANCE } });
    expect(disabled.status).toBe(409);
    expect(disabled.body.error.message).toContain("enable it first");
  });
});

describe("editing a registration", () => {
  test("changes its URL and event types, keeps its secret and status, and sends what follows to the new URL", async () => {
    const hook = await register(otherReceiver.url, [BALANCE]);
    const edited = await t.api("PATCH", editPath(hook.id), {
      body: { url: receiver.url, eventTypes: [DEPOSIT], description: "moved" },
    });
    expect(edited.status).toBe(200);
    expect(edited.body).toMatchObject({
      id: hook.id,
      url: receiver.url,
      eventTypes: [DEPOSIT],
      description: "moved",
      status: "active",
    });
    expect(edited.body).not.toHaveProperty("secret");
    expect((await t.api("GET", `/webhooks/registrations/${hook.id}`)).body).toMatchObject({
      url: receiver.url,
      eventTypes: [DEPOSIT],
    });
    // Fields left out stay.
    const described = await t.api("PATCH", editPath(hook.id), { body: { description: null } });
    expect(described.body).toMatchObject({ url: receiver.url, eventTypes: [DEPOSIT], description: null });

    const before = receiver.requests.length;
    const sent = await t.api("POST", testEventPath(hook.id), { body: { eventType: DEPOSIT } });
    expect(sent.status).toBe(201);
    await eventually(async () => receiver.requests.length > before);
    const got = receiver.requests.at(-1)!;
    expect(verifyWebhookSignature({ payload: got.body, headers: got.headers, secret: hook.secret })).toBe(
      true,
    );
  });

  test("refuses each bad field by name, as registration does, and another organization's registration is not found", async () => {
    const hook = await register(receiver.url, [BALANCE]);
    const cases: [Record<string, unknown>, string, string][] = [
      [{ url: "ftp://example.com/hooks" }, "url", "http(s)"],
      [{ url: "http://169.254.169.254/latest" }, "url", ""],
      [{ eventTypes: [] }, "eventTypes", "at least one"],
      [{ eventTypes: [BALANCE, BALANCE] }, "eventTypes", "twice"],
      [{ eventTypes: ["portfolio_wallet.nope"] }, "eventTypes", "unknown event type"],
      [{ description: "d".repeat(501) }, "description", "500"],
    ];
    for (const [body, field, words] of cases) {
      const refused = await t.api("PATCH", editPath(hook.id), { body });
      expect(refused.status, JSON.stringify(body)).toBe(400);
      expect(refused.body.error.details[0].field, JSON.stringify(body)).toMatch(new RegExp(`^${field}`));
      expect(refused.body.error.details[0].reason).toContain(words);
    }
    expect((await t.api("GET", `/webhooks/registrations/${hook.id}`)).body).toMatchObject({
      url: receiver.url,
      eventTypes: [BALANCE],
    });
    const theirs = await register(otherReceiver.url, [BALANCE], OTHER_TOKEN);
    const across = await t.api("PATCH", editPath(theirs.id), { body: { url: receiver.url } });
    expect(across.status).toBe(404);
    const still = await t.api("GET", `/webhooks/registrations/${theirs.id}`, { token: OTHER_TOKEN });
    expect(still.body.url).toBe(otherReceiver.url);
    const unauthenticated = await fetch(`${t.url}${editPath(hook.id)}`, {
      method: "PATCH",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ url: receiver.url }),
    });
    expect(unauthenticated.status).toBe(401);
  });
});
