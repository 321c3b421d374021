import { afterAll, beforeAll, describe, expect, test } from "vitest";
import {
  InboxDeliveryListSchema,
  WEBHOOK_EVENT_ID_HEADER,
  WEBHOOK_SIGNATURE_HEADER,
  WEBHOOK_TIMESTAMP_HEADER,
  WebhookInboxSchema,
} from "../../../../sdk/nodejs/contract/index.ts";
import {
  createWebhookInboxes,
  INBOX_CAPACITY,
  MAX_INBOXES_PER_ORGANIZATION,
  type InboxAttempt,
} from "../../../../sandbox/domain/events/inboxes.ts";
import { signDelivery } from "../../../../sandbox/domain/events/signature.ts";
import { openDatabase } from "../../../../sandbox/store/db.ts";
import { eventually, OTHER_TOKEN, startTestSandbox, type TestSandbox } from "../../helpers.ts";

const BALANCE = "portfolio_wallet.balance.updated";

let t: TestSandbox;
beforeAll(async () => {
  // A strict URL policy (the default): inboxes need no --allow-private-webhook-urls. Retries a few
  // milliseconds apart, three attempts, and an attempt timeout a delayed answer can outlast.
  t = await startTestSandbox({ webhookDelivery: { retryBaseDelayMs: 5, maxAttempts: 3, timeoutMs: 300 } });
});
afterAll(() => t.close());

const inboxUrl = (name: string) => `${t.url}/_sandbox/inboxes/${name}`;

async function register(url: string, token?: string) {
  const res = await t.api("POST", "/webhooks/registrations", {
    body: { url, eventTypes: [BALANCE] },
    ...(token === undefined ? {} : { token }),
  });
  return res;
}

async function sendTestEvent(registrationId: string, token?: string): Promise<string> {
  const res = await t.api("POST", `/_console/api/webhook-registrations/${registrationId}/test-events`, {
    body: { eventType: BALANCE },
    ...(token === undefined ? {} : { token }),
  });
  expect(res.status).toBe(201);
  return res.body.id as string;
}

async function deliveryOf(id: string, token?: string) {
  const res = await t.api("GET", `/_sandbox/webhook-deliveries?limit=1000`, {
    ...(token === undefined ? {} : { token }),
  });
  return (res.body.data as { id: string; status: string }[]).find((d) => d.id === id);
}

async function finished(deliveryId: string, token?: string) {
  let found: Awaited<ReturnType<typeof deliveryOf>>;
  await eventually(async () => {
    found = await deliveryOf(deliveryId, token);
    return found !== undefined && found.status !== "pending";
  }, 10_000);
  return found!;
}

const received = async (name: string, token?: string) => {
  const res = await t.api("GET", `/_sandbox/inboxes/${name}/deliveries`, {
    ...(token === undefined ? {} : { token }),
  });
  expect(res.status).toBe(200);
  return InboxDeliveryListSchema.parse(res.body).data;
};

describe("webhook inboxes over the API", () => {
  test("a registration to an inbox is allowed without private URLs, and the inbox records each delivery, signature verified, secret nowhere", async () => {
    // The same loopback address as a plain receiver is refused by the strict policy.
    const plain = await register(`${t.url}/hooks`);
    expect(plain.status).toBe(400);
    expect(plain.body.error.details[0].field).toBe("url");

    const created = await register(inboxUrl("ci"));
    expect(created.status).toBe(201);
    const inbox = WebhookInboxSchema.parse((await t.api("GET", "/_sandbox/inboxes/ci")).body);
    expect(inbox).toMatchObject({ name: "ci", url: inboxUrl("ci"), answer: { status: 200, delayMs: 0 } });
    expect(inbox.capacity).toBe(INBOX_CAPACITY);

    const deliveryId = await sendTestEvent(created.body.id);
    expect(await finished(deliveryId)).toMatchObject({
      status: "succeeded",
      lastResponseStatus: 200,
      attempts: 1,
    });
    const [got, ...older] = await received("ci");
    expect(older).toEqual([]);
    expect(got).toMatchObject({
      deliveryId,
      registrationId: created.body.id,
      attempt: 1,
      eventType: BALANCE,
      signature: { valid: true, reason: null },
      answer: { status: 200, delayMs: 0 },
    });
    const header = (name: string) => got!.headers.find((h) => h.name === name)?.value;
    expect(header(WEBHOOK_EVENT_ID_HEADER)).toBe(got!.eventId);
    expect(header(WEBHOOK_SIGNATURE_HEADER)).toMatch(/^v1=[0-9a-f]{64}$/);
    expect(header(WEBHOOK_TIMESTAMP_HEADER)).toMatch(/^\d+$/);
    expect(JSON.parse(got!.body)).toMatchObject({ id: got!.eventId, type: BALANCE, test: true });
    // The body is the delivery's own bytes, as the console API shows them.
    const shown = await t.api("GET", `/_console/api/webhook-deliveries/${deliveryId}`);
    expect(JSON.parse(got!.body)).toEqual(shown.body.payload);
    const one = await t.api("GET", `/_sandbox/inboxes/ci/deliveries/${got!.id}`);
    expect(one.body).toEqual(got);
    for (const answer of [JSON.stringify(await received("ci")), JSON.stringify(inbox)])
      expect(answer).not.toContain(created.body.secret);
  });

  test("an inbox URL is known by the host reading the sandbox's Host check uses: any loopback name, with the sandbox's port", async () => {
    const port = new URL(t.url).port;
    for (const [host, name] of [
      ["127.0.0.2", "loop-two"],
      ["inbox.localhost", "loop-sub"],
    ]) {
      const registered = await register(`http://${host}:${port}/_sandbox/inboxes/${name}`);
      expect(registered.status, JSON.stringify(registered.body)).toBe(201);
      expect((await t.api("GET", `/_sandbox/inboxes/${name}`)).status).toBe(200);
    }
  });

  test("a registration refused after its URL was checked leaves no inbox behind", async () => {
    const requestId = crypto.randomUUID();
    const first = await t.api("POST", "/webhooks/registrations", {
      body: { requestId, url: inboxUrl("kept-once"), eventTypes: [BALANCE] },
    });
    expect(first.status).toBe(201);
    // The same requestId with another body: an idempotency conflict, refused after the URL check.
    const conflict = await t.api("POST", "/webhooks/registrations", {
      body: { requestId, url: inboxUrl("never-made"), eventTypes: [BALANCE] },
    });
    expect(conflict.status).toBe(409);
    expect((await t.api("GET", "/_sandbox/inboxes/never-made")).status).toBe(404);
    expect((await t.api("GET", "/_sandbox/inboxes/kept-once")).status).toBe(200);
  });

  test("an organization's inbox is its own: the same URL from another organization fills that one's inbox, and neither sees the other's", async () => {
    const mine = await register(inboxUrl("shared-name"));
    await finished(await sendTestEvent(mine.body.id));
    // Before the other organization names it, it has no such inbox: the same 404 as a name nobody has.
    const before = await t.api("GET", "/_sandbox/inboxes/shared-name", { token: OTHER_TOKEN });
    const nobody = await t.api("GET", "/_sandbox/inboxes/no-such-inbox", { token: OTHER_TOKEN });
    expect(before.status).toBe(404);
    expect(before.body.error.message.replace("shared-name", "X")).toBe(
      nobody.body.error.message.replace("no-such-inbox", "X"),
    );
    expect(
      (await t.api("GET", "/_sandbox/inboxes/shared-name/deliveries", { token: OTHER_TOKEN })).status,
    ).toBe(404);
    expect((await t.api("GET", "/_sandbox/inboxes", { token: OTHER_TOKEN })).body.data).toEqual([]);

    const theirs = await register(inboxUrl("shared-name"), OTHER_TOKEN);
    expect(theirs.status).toBe(201);
    const theirDelivery = await sendTestEvent(theirs.body.id, OTHER_TOKEN);
    await finished(theirDelivery, OTHER_TOKEN);
    const theirInbox = await received("shared-name", OTHER_TOKEN);
    const myInbox = await received("shared-name");
    expect(theirInbox.map((d) => d.deliveryId)).toEqual([theirDelivery]);
    expect(myInbox.map((d) => d.registrationId)).toEqual([mine.body.id]);
    // A delivery id of one organization's inbox is 404 to the other.
    const crossRead = await t.api("GET", `/_sandbox/inboxes/shared-name/deliveries/${myInbox[0]!.id}`, {
      token: OTHER_TOKEN,
    });
    expect(crossRead.status).toBe(404);
  });

  test("a configured 500 makes the delivery retry until it fails, each attempt recorded; 200 again lets the next one through", async () => {
    const configured = await t.api("PUT", "/_sandbox/inboxes/flaky", { body: { status: 500 } });
    expect(configured.body.answer).toEqual({ status: 500, delayMs: 0 });
    const registration = await register(inboxUrl("flaky"));
    const failing = await sendTestEvent(registration.body.id);
    expect(await finished(failing)).toMatchObject({
      status: "failed",
      attempts: 3,
      lastResponseStatus: 500,
      lastError: "receiver answered 500",
    });
    const attempts = (await received("flaky")).filter((d) => d.deliveryId === failing);
    expect(attempts.map((d) => [d.attempt, d.answer.status, d.signature.valid])).toEqual([
      [3, 500, true],
      [2, 500, true],
      [1, 500, true],
    ]);
    // Every attempt is signed anew (its own timestamp), the event id and body the same.
    expect(new Set(attempts.map((d) => d.body)).size).toBe(1);

    await t.api("PUT", "/_sandbox/inboxes/flaky", { body: { status: 200 } });
    const passing = await sendTestEvent(registration.body.id);
    expect(await finished(passing)).toMatchObject({ status: "succeeded", attempts: 1 });
  });

  test("a delay longer than the attempt's timeout is a timeout to the sender, recorded by the inbox; a deleted inbox fails the attempt", async () => {
    await t.api("PUT", "/_sandbox/inboxes/slow", { body: { delayMs: 5_000 } });
    const registration = await register(inboxUrl("slow"));
    const delivery = await sendTestEvent(registration.body.id);
    const outcome = await finished(delivery);
    expect(outcome).toMatchObject({ status: "failed", attempts: 3, lastResponseStatus: null });
    expect((outcome as unknown as { lastError: string }).lastError).toMatch(/TimeoutError/);
    expect((await received("slow")).map((d) => d.answer)).toEqual([
      { status: 200, delayMs: 5_000 },
      { status: 200, delayMs: 5_000 },
      { status: 200, delayMs: 5_000 },
    ]);

    expect((await t.api("DELETE", "/_sandbox/inboxes/slow")).status).toBe(204);
    expect((await t.api("GET", "/_sandbox/inboxes/slow")).status).toBe(404);
    const orphan = await finished(await sendTestEvent(registration.body.id));
    expect(orphan).toMatchObject({ status: "failed", lastResponseStatus: null });
    expect((orphan as unknown as { lastError: string }).lastError).toMatch(/no webhook inbox "slow"/);
  });

  test("bad names and answers are refused at their field; clearing keeps the answer", async () => {
    const badName = await register(inboxUrl("Not_A_Name"));
    expect(badName.status).toBe(400);
    expect(badName.body.error.details).toEqual([
      { field: "url", reason: expect.stringMatching(/lowercase letters, digits and hyphens/) },
    ]);
    const badAnswer = await t.api("PUT", "/_sandbox/inboxes/ok-name", { body: { status: 700, delayMs: -1 } });
    expect(badAnswer.status).toBe(400);
    expect(badAnswer.body.error.details.map((d: { field: string }) => d.field).sort()).toEqual([
      "delayMs",
      "status",
    ]);
    const unknownField = await t.api("PUT", "/_sandbox/inboxes/ok-name", { body: { code: 500 } });
    expect(unknownField.status).toBe(400);
    expect((await t.api("PUT", "/_sandbox/inboxes/Bad_Name", { body: {} })).status).toBe(400);

    await t.api("PUT", "/_sandbox/inboxes/ok-name", { body: { status: 503 } });
    expect((await t.api("DELETE", "/_sandbox/inboxes/ok-name/deliveries")).status).toBe(204);
    expect((await t.api("GET", "/_sandbox/inboxes/ok-name")).body).toMatchObject({
      answer: { status: 503, delayMs: 0 },
      deliveriesKept: 0,
    });
  });
});

test("the inboxes' API needs the API token only, even where the admin API is off", async () => {
  const closed = await startTestSandbox({ adminToken: null });
  try {
    expect((await closed.api("GET", "/_sandbox/clock")).status).toBe(403);
    expect((await closed.api("PUT", "/_sandbox/inboxes/ci", { body: {} })).status).toBe(200);
    expect((await closed.api("GET", "/_sandbox/inboxes/ci/deliveries")).body).toEqual({ data: [] });
    expect((await closed.api("GET", "/_sandbox/inboxes/ci", { token: null })).status).toBe(401);
  } finally {
    await closed.close();
  }
});

describe("webhook inboxes' store and signature check", () => {
  const secret = "whsec_the-registrations-secret";
  const attemptOf = (n: number, overrides: { secret?: string; body?: string } = {}): InboxAttempt => {
    const body = JSON.stringify({ id: `event-${n}`, type: BALANCE });
    const timestamp = Math.floor(Date.now() / 1000);
    return {
      organizationId: "org-a",
      inboxName: "ring",
      registrationId: "registration",
      secret,
      deliveryId: `delivery-${n}`,
      attempt: 1,
      eventId: `event-${n}`,
      eventType: BALANCE,
      headers: {
        [WEBHOOK_EVENT_ID_HEADER]: `event-${n}`,
        [WEBHOOK_TIMESTAMP_HEADER]: String(timestamp),
        [WEBHOOK_SIGNATURE_HEADER]: signDelivery(overrides.secret ?? secret, timestamp, body),
      },
      body: overrides.body ?? body,
    };
  };

  test("a ring per inbox: the newest deliveries kept, the oldest dropped", async () => {
    const inboxes = createWebhookInboxes(openDatabase(":memory:"), {
      allowedHosts: [],
      now: () => new Date(),
    });
    inboxes.configure("org-a", "ring", {});
    inboxes.configure("org-a", "neighbour", {});
    for (let n = 1; n <= INBOX_CAPACITY + 5; n++)
      await inboxes.receive(attemptOf(n), AbortSignal.timeout(1000));
    await inboxes.receive({ ...attemptOf(0), inboxName: "neighbour" }, AbortSignal.timeout(1000));
    expect(inboxes.get("org-a", "ring").deliveriesKept).toBe(INBOX_CAPACITY);
    const kept = inboxes.deliveries("org-a", "ring", { limit: 200 });
    expect(kept[0]!.eventId).toBe(`event-${INBOX_CAPACITY + 5}`);
    expect(kept.at(-1)!.eventId).toBe("event-6");
    // Another inbox's ring is its own.
    expect(inboxes.get("org-a", "neighbour").deliveriesKept).toBe(1);
  });

  test("the signature is checked against the registration's secret: a match is valid, another secret or a changed body is not", async () => {
    const inboxes = createWebhookInboxes(openDatabase(":memory:"), {
      allowedHosts: [],
      now: () => new Date(),
    });
    inboxes.configure("org-a", "ring", {});
    await inboxes.receive(attemptOf(1), AbortSignal.timeout(1000));
    await inboxes.receive(attemptOf(2, { secret: "whsec_another" }), AbortSignal.timeout(1000));
    await inboxes.receive(
      attemptOf(3, { body: '{"id":"event-3","type":"forged"}' }),
      AbortSignal.timeout(1000),
    );
    const checks = inboxes.deliveries("org-a", "ring", { limit: 10 }).map((d) => [d.eventId, d.signature]);
    expect(checks).toEqual([
      ["event-3", { valid: false, reason: expect.stringMatching(/no v1 signature matches/) }],
      ["event-2", { valid: false, reason: expect.stringMatching(/no v1 signature matches/) }],
      ["event-1", { valid: true, reason: null }],
    ]);
    expect(JSON.stringify(inboxes.deliveries("org-a", "ring", { limit: 10 }))).not.toContain(secret);
  });

  test("an organization has at most its share of inboxes", () => {
    const inboxes = createWebhookInboxes(openDatabase(":memory:"), {
      allowedHosts: [],
      now: () => new Date(),
    });
    for (let n = 0; n < MAX_INBOXES_PER_ORGANIZATION; n++) inboxes.configure("org-a", `inbox-${n}`, {});
    expect(() => inboxes.configure("org-a", "one-more", {})).toThrow(/the most the sandbox keeps/);
    expect(() => inboxes.configure("org-b", "one-more", {})).not.toThrow();
  });
});
