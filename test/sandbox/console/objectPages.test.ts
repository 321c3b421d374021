import { describe, expect, test } from "vitest";
import { startReceiver } from "../domain/events/harness/receiver.ts";
import { eventually, OTHER_TOKEN, uuid } from "../helpers.ts";
import { deposit, DEPOSIT_DELAY_MS, fundedWallet, useMoneySandbox, withdrawBody } from "../moneyHelpers.ts";

/**
 * The console's object pages (sandbox/console/objectPages.ts, `GET /_console/api/objects/{id}`):
 * each object as the API answers it, the request that made it, its timeline and what it relates
 * to; an id of another organization is nothing here.
 */

const sandbox = useMoneySandbox({ allowPrivateWebhookUrls: true });
const DEPOSIT_EVENT = "portfolio_wallet.deposit.status_changed";

const page = (id: string, token?: string) =>
  sandbox().t.api("GET", `/_console/api/objects/${id}`, token === undefined ? {} : { token });

describe("object pages", () => {
  test("a deposit: the object, the request that made it, its state changes and its events with their deliveries", async () => {
    const m = sandbox();
    const receiver = await startReceiver();
    try {
      const hook = await m.t.api("POST", "/webhooks/registrations", {
        body: { url: receiver.url, eventTypes: [DEPOSIT_EVENT] },
      });
      expect(hook.status).toBe(201);
      const walletId = await fundedWallet(m, 100);
      const made = await deposit(m, walletId, 25);
      await m.advance(DEPOSIT_DELAY_MS);
      await eventually(async () => {
        const { body } = await page(made.id);
        const events = body.timeline.filter((step: { what: string }) => step.what === "event");
        return (
          events.length >= 2 &&
          events.every(
            (step: { deliveries: { status: string }[] }) => step.deliveries[0]!.status === "succeeded",
          )
        );
      }, 10_000);
      const { status, body } = await page(made.id);
      expect(status).toBe(200);
      expect(body.kind).toBe("deposit");
      expect(body.walletId).toBe(walletId);
      expect(body.object.id).toBe(made.id);
      expect(body.object.amountUsd).toBe(25);
      expect(
        body.object.legs
          .map((leg: { amount: number }) => leg.amount)
          .reduce((a: number, b: number) => a + b, 0),
      ).toBeCloseTo(25, 6);
      // The admin call that simulated it, from the request log.
      expect(body.madeBy).toMatchObject({ method: "POST", path: "/_sandbox/deposits", status: 201 });
      expect(body.timeline[0]).toMatchObject({
        what: "request",
        clock: "wall",
        requestId: body.madeBy.requestId,
      });
      const sandboxSteps = body.timeline.filter((step: { clock: string }) => step.clock === "sandbox");
      expect(sandboxSteps.map((step: { at: string }) => step.at)).toEqual(
        sandboxSteps.map((step: { at: string }) => step.at).sort(),
      );
      const states = body.timeline.filter((step: { what: string }) => step.what === "state");
      expect(states.map((step: { status: string }) => step.status)).toEqual(["pending", "completed"]);
      const events = body.timeline.filter((step: { what: string }) => step.what === "event");
      expect(events.map((step: { text: string }) => step.text)).toEqual([
        `${DEPOSIT_EVENT}: new → processing`,
        `${DEPOSIT_EVENT}: processing → completed`,
      ]);
      for (const event of events) expect(event.deliveries[0].registrationId).toBe(hook.body.id);
      expect(body.related).toEqual([
        { kind: "wallet", id: walletId, walletId, relation: "wallet", exists: true },
      ]);
      // The delivery's own page: its event, its attempts, its registration and what the event is about.
      const deliveryId = events[1].deliveries[0].id as string;
      const delivery = (await page(deliveryId)).body;
      expect(delivery.kind).toBe("webhook_delivery");
      expect(delivery.timeline.map((step: { clock: string }) => step.clock)).toEqual([
        "sandbox",
        "wall",
        "wall",
        "wall",
      ]);
      expect(delivery.timeline.at(-1)).toMatchObject({ text: "Delivery succeeded", status: "succeeded" });
      expect(delivery.related.map((item: { kind: string; id: string }) => [item.kind, item.id])).toEqual([
        ["webhook_registration", hook.body.id],
        ["deposit", made.id],
        ["wallet", walletId],
      ]);
      // The registration's page lists its deliveries and never its secret.
      const registration = (await page(hook.body.id)).body;
      expect(registration.kind).toBe("webhook_registration");
      expect(registration.object.secret).toBeUndefined();
      expect(JSON.stringify(registration)).not.toContain(hook.body.secret);
      expect(registration.related.map((item: { id: string }) => item.id)).toContain(deliveryId);
      expect(registration.madeBy).toMatchObject({ method: "POST", path: "/webhooks/registrations" });
      expect((await m.t.api("DELETE", `/webhooks/registrations/${hook.body.id}`)).status).toBe(204);
      // Deleted: the delivery still names it, as gone.
      expect((await page(deliveryId)).body.related[0]).toMatchObject({ id: hook.body.id, exists: false });
    } finally {
      await receiver.close();
    }
  });

  test("a withdrawal waiting for approval relates to its signing activity, whose page leads back; the activity was made by the same request", async () => {
    const m = sandbox();
    const walletId = await fundedWallet(m, 500);
    expect((await m.t.api("PUT", "/_sandbox/policy", { body: { withdrawalApprovals: 1 } })).status).toBe(200);
    try {
      const body = withdrawBody(50);
      const made = await m.t.api("POST", `/v2/portfolio-wallets/${walletId}/withdraw`, { body });
      expect(made.status).toBe(201);
      const withdrawal = (await page(made.body.id)).body;
      expect(withdrawal.object).toMatchObject({
        id: made.body.id,
        status: "pending_approval",
        withdrawalAmount: 50,
      });
      expect(withdrawal.madeBy.requestId).toBe(made.headers.get("x-request-id"));
      expect(withdrawal.related).toEqual([
        { kind: "wallet", id: walletId, walletId, relation: "wallet", exists: true },
        {
          kind: "signing_activity",
          id: made.body.signingActivityId,
          walletId: null,
          relation: "its approval",
          exists: true,
        },
      ]);
      const activity = (await page(made.body.signingActivityId)).body;
      expect(activity.kind).toBe("signing_activity");
      expect(activity.madeBy.requestId).toBe(made.headers.get("x-request-id"));
      expect(activity.related.map((item: { kind: string; id: string }) => [item.kind, item.id])).toEqual([
        ["withdrawal", made.body.id],
        ["wallet", walletId],
      ]);
      // Found by the client's requestId too, and by the request's own id, which names what it made.
      expect((await page(body.requestId)).body.id).toBe(made.body.id);
      const request = (await page(made.headers.get("x-request-id")!)).body;
      expect(request.kind).toBe("request");
      expect(request.related.map((item: { id: string }) => item.id)).toEqual([
        made.body.id,
        made.body.signingActivityId,
        walletId,
      ]);
      // An id in capitals is the same id.
      expect((await page(made.body.id.toUpperCase())).body.id).toBe(made.body.id);
    } finally {
      expect((await m.t.api("PUT", "/_sandbox/policy", { body: { withdrawalApprovals: 0 } })).status).toBe(
        200,
      );
    }
  });

  test("a strategy update, and nothing of another organization's ids or of unknown ones", async () => {
    const m = sandbox();
    const walletId = await fundedWallet(m, 100);
    const update = await m.t.api("PATCH", `/v2/portfolio-wallets/${walletId}/strategy`, {
      body: { requestId: uuid(), positions: [{ positionKey: "tbills", targetWeightBps: 10000 }] },
    });
    expect(update.status).toBe(200);
    const { body } = await page(update.body.id);
    expect(body.kind).toBe("strategy_update");
    expect(body.madeBy).toMatchObject({ method: "PATCH", status: 200 });
    expect(body.timeline[1]).toMatchObject({ what: "state", text: "Requested", status: "processing" });
    expect((await page(update.body.id, OTHER_TOKEN)).status).toBe(404);
    expect((await page(walletId, OTHER_TOKEN)).status).toBe(404);
    expect((await page(uuid())).status).toBe(404);
    const bad = await page("86e31107-6970…6fd5");
    expect(bad.status).toBe(400);
    expect(bad.body.error.details[0].field).toBe("id");
  });
});
